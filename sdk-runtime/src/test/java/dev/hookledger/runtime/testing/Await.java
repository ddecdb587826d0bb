package dev.hookledger.runtime.testing;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/** Polls a condition until it holds or a deadline passes: for what happens on another thread. */
public final class Await {
  private static final Duration DEADLINE = Duration.ofSeconds(15);

  private Await() {}

  public static void until(String what, BooleanSupplier condition) {
    until(what, DEADLINE, condition);
  }

  /** As {@link #until(String, BooleanSupplier)}, for what may rightly take longer (a lease running out). */
  public static void until(String what, Duration within, BooleanSupplier condition) {
    long deadline = System.nanoTime() + within.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("not within " + within.toSeconds() + " s: " + what);
      }
      try {
        Thread.sleep(10);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError("interrupted while waiting for: " + what, e);
      }
    }
  }
}
