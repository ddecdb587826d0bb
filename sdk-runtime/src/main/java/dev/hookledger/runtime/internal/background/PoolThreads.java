package dev.hookledger.runtime.internal.background;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * What the inbox's worker pool and the outbox's sender pool do alike with their threads: make them
 * daemons (a runtime never keeps a JVM alive), join them against one deadline on close, and draw
 * each poll's wait within ±20 % of the mean, so that the runtimes sharing a ledger do not poll in step.
 */
public final class PoolThreads {
  private static final double JITTER = 0.2;

  private PoolThreads() {}

  /** A daemon thread, not started. */
  public static Thread daemon(String name, Runnable body) {
    Thread t = new Thread(body, name);
    t.setDaemon(true);
    return t;
  }

  /** Joins each thread while the deadline ({@link System#nanoTime}) has not passed. */
  public static void join(List<Thread> threads, long deadlineNanos) {
    for (Thread t : threads) {
      long left = deadlineNanos - System.nanoTime();
      if (left <= 0) {
        return;
      }
      try {
        t.join(Math.max(1, left / 1_000_000));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  /** A wait drawn uniformly within ±20 % of {@code mean}, at least 1 ms. */
  public static Duration pollWait(Duration mean) {
    long ms = mean.toMillis();
    return Duration.ofMillis(Math.max(1, Math.round(ms * (1 + JITTER * (2 * ThreadLocalRandom.current().nextDouble() - 1)))));
  }
}
