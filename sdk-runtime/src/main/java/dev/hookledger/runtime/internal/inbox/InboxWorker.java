package dev.hookledger.runtime.internal.inbox;

import dev.hookledger.runtime.internal.process.EventProcessor;
import java.util.concurrent.BlockingQueue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One worker thread's loop: take a leased event, process it, give back its slot, until told to stop.
 */
final class InboxWorker implements Runnable {
  private static final Logger log = LoggerFactory.getLogger(InboxWorker.class);

  private final BlockingQueue<Task> queue;
  private final EventProcessor processor;
  private final Runnable done;

  /** @param done called after each task, to give back its slot */
  InboxWorker(BlockingQueue<Task> queue, EventProcessor processor, Runnable done) {
    this.queue = queue;
    this.processor = processor;
    this.done = done;
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
        processor.process(task.lease());
      } catch (RuntimeException | StackOverflowError e) {
        // the processor records handler failures itself: this is a defect, and the lease runs out
        log.error("{}: unexpected failure in the worker; the event is tried again when its lease runs out", task.key(), e);
      } finally {
        done.run();
      }
    }
  }
}
