package dev.hookledger.runtime.internal.background;

import java.time.Duration;

/**
 * A signal a poller waits on between polls: a notification, or a worker freeing room, ends the wait
 * early. The inbox's poller and the outbox's wait on one each.
 */
public final class Wakeup {
  private boolean signalled;

  public synchronized void signal() {
    signalled = true;
    notifyAll();
  }

  /** Waits until signalled or {@code timeout} has passed, then clears the signal. */
  public synchronized void await(Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!signalled) {
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        break;
      }
      wait(Math.max(1, left / 1_000_000));
    }
    signalled = false;
  }
}
