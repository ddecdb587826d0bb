package dev.hookledger.runtime.internal.inbox;

import dev.hookledger.runtime.internal.background.BackgroundFailures;
import dev.hookledger.runtime.internal.ledger.Lease;
import dev.hookledger.runtime.internal.process.EventProcessor;
import java.util.concurrent.BlockingQueue;

/**
 * One worker thread's loop: take a leased event, process it (its lease renewed while it runs), give
 * back its slot, until told to stop.
 */
final class InboxWorker implements Runnable {
  private final BlockingQueue<Task> queue;
  private final EventProcessor processor;
  private final Runnable done;
  private final BackgroundFailures failures;
  private final LeaseHeartbeat heartbeat;

  /** @param done called after each task, to give back its slot */
  InboxWorker(BlockingQueue<Task> queue, EventProcessor processor, Runnable done, BackgroundFailures failures,
      LeaseHeartbeat heartbeat) {
    this.queue = queue;
    this.processor = processor;
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
        process(task.lease());
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
  // the resource is a scope (a lease kept alive, a log context, a probe's connection): closing it is its use
  @SuppressWarnings("try")
  private void process(Lease lease) {
    try (LeaseHeartbeat.Running renewed = heartbeat.track(lease)) {
      processor.process(lease);
    }
  }
}
