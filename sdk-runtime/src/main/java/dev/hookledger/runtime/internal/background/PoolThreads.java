package dev.hookledger.runtime.internal.background;

import dev.hookledger.runtime.internal.Pools;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * What the inbox's worker pool and the outbox's sender pool do alike with their threads: make them
 * daemons (a runtime never keeps a JVM alive), join them against one deadline on close, and draw
 * each poll's wait within ±20 % of the mean, so that the runtimes sharing a ledger do not poll in step.
 *
 * <p>Closing never waits out a pool's connection timeout (HikariCP's default is 30 s) while the
 * database is gone: a runtime's own loop that does not end within {@link #STOP_GRACE} of being told to
 * stop waits for a connection, and is interrupted, which ends that wait at once (HikariCP's
 * {@code getConnection} is interruptible; a statement already running is not, the driver's socket reads
 * being blocking, and ends within the socket timeout); and the closing thread's own last writes are
 * waited for at most {@link #LAST_WRITE_WAIT} ({@link #within}).
 */
public final class PoolThreads {
  private static final double JITTER = 0.2;
  /**
   * How long a runtime's own loop (a poller, the listener, a notifier) told to stop gets to end by
   * itself: a claim or a wait for notifications ends well within it.
   */
  public static final Duration STOP_GRACE = Duration.ofMillis(500);
  /** How long a closing runtime waits for one of its last writes: as long as a delivery waits for a connection. */
  public static final Duration LAST_WRITE_WAIT = Pools.CONNECTION_TIMEOUT;

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

  /**
   * Joins loops already told to stop: each gets {@link #STOP_GRACE} to end by itself, then those still
   * alive (waiting for a connection to a database that is gone) are interrupted and joined while the
   * deadline ({@link System#nanoTime}) has not passed. Never for threads that run handlers: an interrupt
   * could fail a handler's statement.
   */
  public static void stop(List<Thread> loops, long deadlineNanos) {
    join(loops, Math.min(deadlineNanos, System.nanoTime() + STOP_GRACE.toNanos()));
    loops.stream().filter(Thread::isAlive).forEach(Thread::interrupt);
    join(loops, deadlineNanos);
  }

  /**
   * Runs one last write of a closing runtime on a daemon thread named {@code name}, and waits for it at
   * most {@link #LAST_WRITE_WAIT}; past it, interrupts it, which ends a wait for a connection (the write
   * then fails); a statement already sent goes on by itself.
   *
   * @return true if the write ended within the wait (whether it succeeded is its own business)
   */
  public static boolean within(String name, Runnable write) {
    Thread t = daemon(name, write);
    t.start();
    try {
      t.join(LAST_WRITE_WAIT.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    if (!t.isAlive()) {
      return true;
    }
    t.interrupt();
    return false;
  }

  /** A wait drawn uniformly within ±20 % of {@code mean}, at least 1 ms. */
  public static Duration pollWait(Duration mean) {
    long ms = mean.toMillis();
    return Duration.ofMillis(Math.max(1, Math.round(ms * (1 + JITTER * (2 * ThreadLocalRandom.current().nextDouble() - 1)))));
  }
}
