package dev.hookledger.runtime.internal.admin;

import dev.hookledger.LedgerUnavailableException;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

/**
 * Operator reads (health, the admin page, status) with a deadline of their own, whatever the
 * database and the pool do: a database that stops answering held {@code /healthz} and every admin
 * route for 30 s (the pool's connection timeout), so load balancers, whose probes time out in
 * 1 to 5 s, saw timeouts rather than "down". Each read runs on a small bounded pool of daemon
 * threads and is waited for at most the deadline; past it the caller gets a
 * {@link LedgerUnavailableException} at once while the read ends on its own (its thread bounded by
 * the pool's and the driver's timeouts). When the threads and their queue are all taken by reads
 * that still wait, a new read is refused at once. Idle threads end by themselves: nothing to close.
 * Thread-safe.
 */
public final class BoundedReads {
  /** The default deadline of one read: 2 s, inside every load balancer's probe timeout. */
  public static final Duration DEFAULT_DEADLINE = Duration.ofSeconds(2);
  private static final int THREADS = 4;
  private static final int QUEUED = 32;

  private final Duration deadline;
  private final ThreadPoolExecutor executor;

  private BoundedReads(Duration deadline, String name) {
    this.deadline = deadline;
    this.executor = new ThreadPoolExecutor(THREADS, THREADS, 5, TimeUnit.SECONDS, new LinkedBlockingQueue<>(QUEUED),
        r -> {
          Thread t = new Thread(r, name);
          t.setDaemon(true);
          return t;
        });
    executor.allowCoreThreadTimeOut(true);
  }

  /** Reads waited for at most {@code deadline} each; threads named {@code name}. */
  public static BoundedReads of(Duration deadline, String name) {
    return new BoundedReads(requireDeadline(deadline), name);
  }

  /** Checks a configured deadline: returns it if positive. */
  public static Duration requireDeadline(Duration deadline) {
    if (deadline == null || deadline.isNegative() || deadline.isZero()) {
      throw new IllegalArgumentException("readTimeout must be positive, but was " + deadline);
    }
    return deadline;
  }

  /** The deadline of one read. */
  public Duration deadline() {
    return deadline;
  }

  /**
   * Runs {@code read} and returns its result, or throws what it threw.
   *
   * @throws LedgerUnavailableException if it did not end within the deadline, or earlier reads
   *     still wait for the database and take every thread and place in the queue
   */
  public <T> T read(Supplier<T> read) {
    Future<T> result;
    try {
      result = executor.submit(read::get);
    } catch (RejectedExecutionException e) {
      throw new LedgerUnavailableException("the ledger database is not answering: " + (THREADS + QUEUED)
          + " earlier reads still wait for it", e);
    }
    try {
      return result.get(deadline.toNanos(), TimeUnit.NANOSECONDS);
    } catch (TimeoutException e) {
      result.cancel(true);
      throw new LedgerUnavailableException("the ledger database did not answer within " + deadline.toMillis() + " ms", e);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RuntimeException r) {
        throw r;
      }
      if (e.getCause() instanceof Error err) {
        throw err;
      }
      throw new IllegalStateException(e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      result.cancel(true);
      throw new LedgerUnavailableException("interrupted while reading the ledger", e);
    }
  }
}
