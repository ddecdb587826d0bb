package dev.hookledger.runtime.internal.inbox;

import dev.hookledger.runtime.internal.ledger.LeaseClaimer;
import dev.hookledger.runtime.internal.ledger.LedgerErrors;
import dev.hookledger.runtime.internal.ledger.Lease;
import dev.hookledger.runtime.internal.process.EventProcessor;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import org.jooq.exception.DataAccessException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One worker thread's loop: take a task, claim its event if it is a local one, process it, give
 * back its slot, until told to stop.
 */
final class InboxWorker implements Runnable {
  private static final Logger log = LoggerFactory.getLogger(InboxWorker.class);

  private final BlockingQueue<Task> queue;
  private final LeaseClaimer claimer;
  private final EventProcessor processor;
  private final String owner;
  private final Duration lease;
  private final Clock clock;
  private final Runnable done;
  private final BackgroundFailures failures;
  private final LeaseHeartbeat heartbeat;

  /** @param done called after each task, to give back its slot */
  InboxWorker(BlockingQueue<Task> queue, LeaseClaimer claimer, EventProcessor processor, String owner, Duration lease,
      Clock clock, Runnable done, BackgroundFailures failures, LeaseHeartbeat heartbeat) {
    this.queue = queue;
    this.claimer = claimer;
    this.processor = processor;
    this.owner = owner;
    this.lease = lease;
    this.clock = clock;
    this.done = done;
    this.failures = failures;
    this.heartbeat = heartbeat;
  }

  @Override
  public void run() {
    while (true) {
      Task task;
      try {
        task = queue.take();
      } catch (InterruptedException e) {
        return;
      }
      if (task == Task.STOP) {
        return;
      }
      try {
        leaseOf(task).ifPresent(this::process);
      } catch (Throwable e) {
        // the processor records handler failures itself: this is a defect or an Error (out of memory,
        // say). The thread lives on, so the node keeps processing; the event's lease runs out and it is
        // tried again, and set aside dead if it does this every time
        failures.caught(Thread.currentThread().getName(), task.key(), e);
      } finally {
        done.run();
      }
    }
  }

  /** Processes the attempt, its lease renewed while it runs. */
  private void process(Lease lease) {
    try (LeaseHeartbeat.Running renewed = heartbeat.track(lease)) {
      processor.process(lease);
    }
  }

  private Optional<Lease> leaseOf(Task task) {
    if (task.lease() != null) {
      return Optional.of(task.lease());
    }
    try {
      Instant now = clock.instant();
      Optional<Lease> claimed = claimer.claimOne(task.key(), owner, now, lease)
          .map(attempt -> new Lease(task.key(), owner, attempt, now.plus(lease), task.event()));
      if (claimed.isEmpty()) {
        log.debug("{} was claimed by a poll first", task.key());
      }
      return claimed;
    } catch (DataAccessException e) {
      log.warn("{} cannot be claimed (ledger unavailable: {}); it stays pending for the next poll", task.key(),
          LedgerErrors.describe(e));
      return Optional.empty();
    }
  }
}
