package dev.hookledger.runtime.internal.outbox;

import dev.hookledger.runtime.internal.background.BackgroundFailures;
import dev.hookledger.runtime.internal.ledger.LedgerDsl;
import dev.hookledger.runtime.internal.ledger.LedgerErrors;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.jooq.DSLContext;
import org.jooq.exception.DataAccessException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the lease of an effect alive while its send runs, as the inbox's heartbeat does for events:
 * every third of the lease, one statement fenced by the owner and attempt that claimed it, so that an
 * {@code EffectHandler} slower than its lease is not taken over by another node and run twice at
 * once. The lease then only runs out under a send that stopped (its node died, froze, or lost the
 * database for a whole lease). A send shorter than a third of its lease (every HTTP request within
 * its timeouts, most handlers) costs no statement; a renewal that finds the lease lost stops renewing,
 * and the settle that follows is refused by the same fence. A handler that never returns keeps its
 * effect while its node runs: its sender is taken with it, and the operator sees it {@code sending}.
 *
 * <p>Its one timer thread starts with the first send that outlives a third of its lease. Thread-safe.
 */
final class EffectLeaseHeartbeat implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(EffectLeaseHeartbeat.class);

  private final DSLContext dsl;
  private final String renew;
  private final BackgroundFailures failures;
  private final ScheduledThreadPoolExecutor timer;

  EffectLeaseHeartbeat(DSLContext dsl, String schema, BackgroundFailures failures, String threadName) {
    EffectTable t = new EffectTable(schema);
    this.dsl = dsl;
    this.failures = failures;
    // available_at moves with lease_until: a lease that runs out is found by the condition of a due effect
    this.renew = "update " + t.effect + " set lease_until = now() + ? * interval '1 millisecond',"
        + " available_at = now() + ? * interval '1 millisecond'"
        + " where scope = ? and idempotency_key = ? and lease_owner = ? and attempts = ? and status = 'sending'";
    // no thread until the first renewal is scheduled; cancelled renewals leave the queue at once
    this.timer = new ScheduledThreadPoolExecutor(1, r -> {
      Thread thread = new Thread(r, threadName);
      thread.setDaemon(true);
      return thread;
    });
    timer.setRemoveOnCancelPolicy(true);
    timer.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
  }

  /** Renews {@code e}'s lease until the returned handle is closed (when its send has ended). */
  Renewal track(ClaimedEffect e) {
    long beat = Math.max(1, e.lease().toMillis() / 3);
    Beat b = new Beat(e);
    b.future = timer.scheduleWithFixedDelay(b, beat, beat, TimeUnit.MILLISECONDS);
    return b;
  }

  /** Stops renewing: a send still running keeps its lease until it runs out. */
  @Override
  public void close() {
    timer.shutdownNow();
  }

  /** The renewal of one running send. */
  interface Renewal extends AutoCloseable {
    @Override
    void close();
  }

  private final class Beat implements Runnable, Renewal {
    private final ClaimedEffect effect;
    private volatile ScheduledFuture<?> future;
    private boolean failing; // only touched by the timer thread

    Beat(ClaimedEffect effect) {
      this.effect = effect;
    }

    @Override
    public void run() {
      try {
        long ms = effect.lease().toMillis();
        int renewed = LedgerDsl.inOwnTransaction(dsl, tx -> EffectTable.update(tx, renew, ms, ms, effect.scope(),
            effect.key(), effect.owner(), effect.attempt()));
        if (failing) {
          log.info("renewing the lease of {} again", effect);
          failing = false;
        }
        if (renewed == 0) {
          log.debug("the lease of attempt {} of {} was lost (taken over, or settled); no longer renewed",
              effect.attempt(), effect);
          close();
        }
      } catch (DataAccessException e) {
        if (!failing) {
          log.warn("cannot renew the lease of attempt {} of {} (ledger unavailable: {}); it runs out unless renewed"
              + " within {} s", effect.attempt(), effect, LedgerErrors.describe(e), effect.lease().toSeconds());
        }
        failing = true;
      } catch (Throwable e) {
        // a scheduled task that throws is never run again: this lease would no longer be renewed
        failures.caught(Thread.currentThread().getName(), "renewing the lease of " + effect, e);
      }
    }

    @Override
    public void close() {
      ScheduledFuture<?> f = future;
      if (f != null) {
        f.cancel(false);
      }
    }
  }
}
