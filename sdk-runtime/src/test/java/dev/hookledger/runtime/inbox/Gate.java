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

  int entered() {
    return entered.get();
  }

  void open() {
    open.countDown();
  }
}
