package dev.hookledger.runtime.internal.inbox;

import dev.hookledger.runtime.WebhookListener;
import dev.hookledger.runtime.internal.background.BackgroundFailures;
import dev.hookledger.runtime.internal.background.PoolThreads;
import dev.hookledger.runtime.internal.background.Wakeup;
import dev.hookledger.runtime.internal.ledger.Buried;
import dev.hookledger.runtime.internal.ledger.LeaseClaimer;
import dev.hookledger.runtime.internal.ledger.LedgerErrors;
import org.jooq.exception.DataAccessException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Claims due events in batches, as many as the pool has room for, whenever woken (a notification, a
 * worker freeing room while events wait) and at least every poll interval, ±20 % at random so that
 * the runtimes sharing a ledger do not poll in step. Runs on its own thread until {@link #stop()}.
 */
final class Poller implements Runnable {
  private static final Logger log = LoggerFactory.getLogger(Poller.class);

  private final WorkerPool pool;
  private final LeaseClaimer claimer;
  private final InboxSettings settings;
  private final String owner;
  private final WebhookListener listener;
  private final Wakeup wakeup;
  private final BackgroundFailures failures;
  private volatile boolean running = true;
  private boolean failing;

  Poller(WorkerPool pool, LeaseClaimer claimer, InboxSettings settings, String owner,
      WebhookListener listener, Wakeup wakeup, BackgroundFailures failures) {
    this.pool = pool;
    this.claimer = claimer;
    this.settings = settings;
    this.owner = owner;
    this.listener = listener;
    this.wakeup = wakeup;
    this.failures = failures;
  }

  void stop() {
    running = false;
    wakeup.signal();
  }

  @Override
  public void run() {
    while (running) {
      try {
        claimWhatFits();
      } catch (Throwable e) {
        // an Error past the claim (queuing, listener): polling on keeps the node processing
        failures.caught(Thread.currentThread().getName(), "queuing claimed events", e);
      }
      try {
        wakeup.await(PoolThreads.pollWait(settings.pollInterval()));
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  /** Claims batch after batch while each comes back full and the pool has room. */
  private void claimWhatFits() {
    while (running) {
      int room = pool.reserve(settings.batchSize());
      if (room == 0) {
        return; // the pool is full; a worker that frees room wakes this poller
      }
      LeaseClaimer.Claimed claimed;
      try {
        claimed = claimer.claim(owner, settings.lease(), room, settings.retryPolicy().maxAttempts(),
            settings.maxClaimBytes());
      } catch (DataAccessException e) {
        pool.unreserve(room);
        if (!failing) {
          log.warn("cannot claim waiting events (ledger unavailable: {}); polling on", LedgerErrors.describe(e));
        }
        failing = true;
        return;
      } catch (RuntimeException e) {
        // a due row the claim cannot turn into an event (edited by hand, say): the claim rolled back.
        // Polling on, rather than letting this thread die, claims again once the row is fixed or removed.
        pool.unreserve(room);
        if (!failing) {
          log.error("cannot claim waiting events: a due row cannot be read; polling on", e);
        }
        failing = true;
        return;
      } catch (Error e) {
        pool.unreserve(room); // else the room reserved would be lost for good
        failures.caught(Thread.currentThread().getName(), "claiming waiting events", e);
        return;
      }
      if (failing) {
        log.info("claiming waiting events again");
        failing = false;
      }
      pool.unreserve(room - claimed.leases().size());
      claimed.buried().forEach(this::buried);
      pool.accept(claimed.leases());
      if (claimed.size() < room) {
        pool.backlog(false);
        return;
      }
    }
  }

  private void buried(Buried b) {
    log.warn("{} is dead and waits for an operator: {}", b.event(), b.reason());
    listener.dead(b.event(), b.attempts(), new IllegalStateException(b.reason()));
  }
}
