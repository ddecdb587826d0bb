package dev.hookledger.runtime.testing;

import dev.hookledger.LedgerUnavailableException;
import java.time.Duration;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * Polls a condition until it holds or a deadline passes: for what happens on another thread. A
 * condition that reads the ledger through the admin and fails with a {@link LedgerUnavailableException}
 * (a read past the admin's 2 s deadline on a loaded machine, or a first read of new connections on a
 * Citus coordinator, which reaches every shard) counts as not holding yet, and is read again; past the
 * deadline that failure is the error's cause.
 */
public final class Await {
  private static final Duration DEADLINE = Duration.ofSeconds(15);

  private Await() {}

  public static void until(String what, BooleanSupplier condition) {
    until(what, DEADLINE, condition);
  }

  /** As {@link #until(String, BooleanSupplier)}, for what may rightly take longer (a lease running out). */
  public static void until(String what, Duration within, BooleanSupplier condition) {
    long deadline = System.nanoTime() + within.toNanos();
    LedgerUnavailableException unanswered = null;
    while (true) {
      try {
        if (condition.getAsBoolean()) {
          return;
        }
        unanswered = null;
      } catch (LedgerUnavailableException e) {
        unanswered = e;
      }
      if (System.nanoTime() > deadline) {
        throw new AssertionError("not within " + within.toSeconds() + " s: " + what, unanswered);
      }
      try {
        Thread.sleep(10);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError("interrupted while waiting for: " + what, e);
      }
    }
  }

  /**
   * What {@code read} returns once it answers: read again while it fails with a
   * {@link LedgerUnavailableException}, for at most 15 s.
   */
  public static <T> T read(String what, Supplier<T> read) {
    Object[] answer = new Object[1];
    until(what + " answers", () -> {
      answer[0] = read.get();
      return true;
    });
    @SuppressWarnings("unchecked")
    T t = (T) answer[0];
    return t;
  }
}
