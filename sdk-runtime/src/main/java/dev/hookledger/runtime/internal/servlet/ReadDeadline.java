package dev.hookledger.runtime.internal.servlet;

import java.time.Duration;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * The total time one request body may take to arrive, whatever the container's idle timeout: a
 * client that sends one byte every few seconds never trips an idle timeout, yet holds a request
 * thread and its bytes. When the time is up, the thread reading the body is interrupted (the
 * container's blocking read gives up) and the read counts as timed out, even if the container ignores
 * the interrupt and only returns with the next bytes. Thread-safe.
 */
public final class ReadDeadline {
  /**
   * The default, 5 s: well under the providers' own request timeouts (Shopify's 5 s for the whole
   * request, GitHub's 10 s), so that a body still arriving by then would be lost to them anyway.
   */
  public static final Duration DEFAULT = Duration.ofSeconds(5);
  /** No deadline: for callers that read from memory. */
  public static final ReadDeadline NONE = new ReadDeadline(null);

  private static final ScheduledThreadPoolExecutor TIMER = timer();

  private final Duration limit;

  private ReadDeadline(Duration limit) {
    this.limit = limit;
  }

  /**
   * A deadline of {@code limit} for each body.
   *
   * @throws IllegalArgumentException {@code bodyReadTimeout must be positive, but was PT0S}
   */
  public static ReadDeadline of(Duration limit) {
    return new ReadDeadline(require(limit));
  }

  /** Checks a configured deadline, for the builder: returns it if it is positive. */
  public static Duration require(Duration limit) {
    if (limit == null || limit.isNegative() || limit.isZero()) {
      throw new IllegalArgumentException("bodyReadTimeout must be positive, but was " + limit);
    }
    return limit;
  }

  /** The time each body may take; empty for {@link #NONE}. */
  public Duration limit() {
    return limit == null ? Duration.ZERO : limit;
  }

  /** Starts the clock for one body read on the calling thread; close the watch when reading ends. */
  Watch start() {
    return startUntil(limit == null ? 0 : System.nanoTime() + limit.toNanos());
  }

  /** The {@link System#nanoTime()} by which a body whose reading starts now must have arrived. */
  long endFromNow() {
    return limit == null ? 0 : System.nanoTime() + limit.toNanos();
  }

  /**
   * Starts the clock for one of several reads of a body on the calling thread, that must end by
   * {@code endNanos} ({@link #endFromNow()} when the body's reading began): reads of one body share
   * one deadline, and the reader is interrupted only while it reads.
   */
  Watch startUntil(long endNanos) {
    Watch watch = new Watch(Thread.currentThread(), limit != null, endNanos);
    if (limit != null) {
      watch.task = TIMER.schedule(watch::fire, Math.max(0, endNanos - System.nanoTime()), TimeUnit.NANOSECONDS);
    }
    return watch;
  }

  /** One body's clock. */
  static final class Watch implements AutoCloseable {
    private final Thread reader;
    private final boolean bounded;
    private final long deadlineNanos;
    private ScheduledFuture<?> task;
    private boolean fired;
    private boolean closed;

    private Watch(Thread reader, boolean bounded, long deadlineNanos) {
      this.reader = reader;
      this.bounded = bounded;
      this.deadlineNanos = deadlineNanos;
    }

    private synchronized void fire() {
      if (!closed) {
        fired = true;
        reader.interrupt();
      }
    }

    /** Whether the time is up. */
    boolean expired() {
      return bounded && (System.nanoTime() - deadlineNanos >= 0 || isFired());
    }

    private synchronized boolean isFired() {
      return fired;
    }

    /**
     * Stops the clock; if it interrupted the reader, clears that interrupt, which was meant for the
     * read alone and must not reach the container's thread afterwards. Call on the reading thread.
     */
    @Override
    public synchronized void close() {
      closed = true;
      if (task != null) {
        task.cancel(false);
      }
      if (fired) {
        Thread.interrupted();
      }
    }
  }

  private static ScheduledThreadPoolExecutor timer() {
    ScheduledThreadPoolExecutor timer = new ScheduledThreadPoolExecutor(1, r -> {
      Thread t = new Thread(r, "hookledger-body-deadline");
      t.setDaemon(true);
      return t;
    });
    timer.setRemoveOnCancelPolicy(true); // a body read on time leaves nothing queued behind it
    return timer;
  }
}
