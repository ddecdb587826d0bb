package dev.hookledger.runtime.internal.inbox;

import dev.hookledger.runtime.internal.ledger.Lease;
import dev.hookledger.runtime.internal.ledger.LeaseRenewals;
import dev.hookledger.runtime.internal.ledger.LedgerErrors;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.jooq.exception.DataAccessException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the leases of this pool's running attempts alive: every third of the lease it renews all
 * of them with one fenced statement, so that a lease only runs out under an attempt that stopped
 * (its node died, froze, or lost the database for a whole lease) and never under a handler that is
 * merely slow. An attempt past its handler deadline is no longer renewed: a handler that ignored
 * the deadline does not keep its event for ever. Thread-safe; runs on one thread of its own.
 */
final class LeaseHeartbeat implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(LeaseHeartbeat.class);

  private final LeaseRenewals renewals;
  private final Duration lease;
  private final long deadlineNanos;
  private final BackgroundFailures failures;
  /** By identity: a lease's record equality would hash its event's body on every put. */
  private final Set<Attempt> running = ConcurrentHashMap.newKeySet();
  private final ScheduledExecutorService timer;
  private boolean failing; // only touched by the timer thread

  /**
   * @param handlerTimeout how long an attempt's handlers may run; no renewal past it
   */
  LeaseHeartbeat(LeaseRenewals renewals, Duration lease, Duration handlerTimeout,
      BackgroundFailures failures, String threadName) {
    this.renewals = renewals;
    this.lease = lease;
    this.deadlineNanos = handlerTimeout.toNanos();
    this.failures = failures;
    this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, threadName);
      t.setDaemon(true);
      return t;
    });
    long beat = Math.max(1, lease.toMillis() / 3);
    timer.scheduleWithFixedDelay(this::beat, beat, beat, TimeUnit.MILLISECONDS);
  }

  /** Renews {@code lease} until the returned handle is closed (when its attempt ends). */
  Running track(Lease lease) {
    Attempt a = new Attempt(lease, System.nanoTime());
    running.add(a);
    return () -> running.remove(a);
  }

  /** Stops renewing: what still runs keeps its lease until it runs out. */
  @Override
  public void close() {
    timer.shutdownNow();
  }

  private void beat() {
    try {
      long now = System.nanoTime();
      List<Lease> live = new ArrayList<>();
      for (Attempt a : running) {
        if (now - a.startedNanos < deadlineNanos) {
          live.add(a.lease);
        }
      }
      int renewed = renewals.renew(live, lease);
      if (failing) {
        log.info("renewing leases again");
        failing = false;
      }
      if (renewed < live.size()) {
        log.debug("renewed {} of {} running leases (the others were settling, or taken over)", renewed, live.size());
      }
    } catch (DataAccessException e) {
      if (!failing) {
        log.warn("cannot renew the leases of running attempts (ledger unavailable: {}); they run out unless"
            + " renewed within {} s", LedgerErrors.describe(e), lease.toSeconds());
      }
      failing = true;
    } catch (Throwable e) {
      // a scheduled task that throws is never run again: the heartbeat would stop for good
      failures.caught(Thread.currentThread().getName(), "renewing leases", e);
    }
  }

  private static final class Attempt {
    final Lease lease;
    final long startedNanos;

    Attempt(Lease lease, long startedNanos) {
      this.lease = lease;
      this.startedNanos = startedNanos;
    }
  }

  /** The renewal of one running attempt. */
  interface Running extends AutoCloseable {
    @Override
    void close();
  }
}
