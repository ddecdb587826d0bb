package dev.hookledger.runtime.inbox;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Holds handlers inside their transaction until the test opens it: counts those that entered, and
 * lets them through after {@link #open()} (or after 60 s, so that a failed test never hangs a worker).
 */
final class Gate {
  private final CountDownLatch open = new CountDownLatch(1);
  private final AtomicInteger entered = new AtomicInteger();

  void pass() {
    entered.incrementAndGet();
    try {
      open.await(60, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted at the gate", e);
    }
  }

  /**
   * As {@link #pass()}, but as a handler stuck in a call that ignores interrupts (a socket read
   * without a timeout): the handler deadline's interrupt does not get it out; the interrupt is kept.
   */
  void passIgnoringInterrupts() {
    entered.incrementAndGet();
    boolean interrupted = false;
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (open.getCount() > 0 && System.nanoTime() < deadline) {
      try {
        open.await(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }

  int entered() {
    return entered.get();
  }

  void open() {
    open.countDown();
  }
}
