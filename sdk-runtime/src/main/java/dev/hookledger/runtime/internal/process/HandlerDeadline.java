package dev.hookledger.runtime.internal.process;

import dev.hookledger.WebhookEvent;
import dev.hookledger.runtime.HandlerFailedException;
import dev.hookledger.runtime.internal.ledger.LedgerErrors;
import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import org.jooq.DSLContext;
import org.postgresql.PGConnection;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Bounds how long the handlers of one attempt may run. A watchdog thread wakes at the deadline,
 * cancels the statement the transaction's connection is running (PostgreSQL's cancel request, as
 * {@code psql}'s Ctrl-C) and interrupts the handler's thread (a sleep, a blocking queue, an
 * interruptible channel end). The attempt then fails with "timed out" whatever the handler did with
 * the interruption, so its transaction rolls back, its connection goes back to the pool, and the
 * event is retried with backoff. A handler that ignores both (a socket read without a timeout)
 * still holds its worker; its lease is then no longer renewed, so the event is taken over, and the
 * server's {@code idle_in_transaction_session_timeout} ends the transaction that holds its locks.
 * Thread-safe; one per runtime.
 */
public final class HandlerDeadline implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(HandlerDeadline.class);

  private final Duration timeout;
  private final ScheduledThreadPoolExecutor watchdog;

  public HandlerDeadline(Duration timeout, String threadName) {
    this.timeout = timeout;
    this.watchdog = new ScheduledThreadPoolExecutor(1, r -> {
      Thread t = new Thread(r, threadName);
      t.setDaemon(true);
      return t;
    });
    // nearly every attempt finishes in time and cancels its alarm: left queued until its deadline, the
    // cancelled alarms of a 5-minute deadline at 1,000 attempts a second would hold 300,000 entries
    watchdog.setRemoveOnCancelPolicy(true);
  }

  public Duration timeout() {
    return timeout;
  }

  /**
   * Runs {@code handlers} on this thread within the timeout.
   *
   * @throws HandlerFailedException if the deadline passed, wrapping what the handlers threw if anything
   */
  public <T> T run(DSLContext tx, WebhookEvent event, Supplier<T> handlers) {
    Watch watch = new Watch(Thread.currentThread(), postgresOf(tx));
    ScheduledFuture<?> alarm = watchdog.schedule(watch::expire, timeout.toNanos(), TimeUnit.NANOSECONDS);
    T result;
    try {
      result = handlers.get();
    } catch (RuntimeException e) {
      if (watch.finish()) {
        throw timedOut(event, e);
      }
      throw e;
    } finally {
      alarm.cancel(false);
      watch.finish();
    }
    if (watch.finish()) {
      // it returned, but after the cancel and the interrupt: what it did is not to be trusted
      throw timedOut(event, null);
    }
    return result;
  }

  /** The alarms waiting in the watchdog's queue: those of attempts still running. */
  int queuedAlarms() {
    return watchdog.getQueue().size();
  }

  @Override
  public void close() {
    watchdog.shutdownNow();
  }

  /**
   * The failure of an attempt past its deadline. Its cause, which the listener is told of, is a
   * {@link TimeoutException}; what the handlers threw once interrupted is attached to it as suppressed.
   */
  private HandlerFailedException timedOut(WebhookEvent event, Throwable thrown) {
    String message = "handlers of " + event + " ran past their timeout of " + timeout.toMillis() + " ms";
    TimeoutException cause = new TimeoutException(message);
    if (thrown != null) {
      cause.addSuppressed(thrown);
    }
    return new HandlerFailedException(message + ": the statement running was cancelled and the thread interrupted",
        cause);
  }

  private static PGConnection postgresOf(DSLContext tx) {
    // no round trip: the pool's proxy hands out the driver's connection it wraps
    return tx.connectionResult(c -> c.isWrapperFor(PGConnection.class) ? c.unwrap(PGConnection.class) : null);
  }

  /** One attempt's deadline: expires at most once, and never after the attempt has finished. */
  private static final class Watch {
    private final Thread thread;
    private final PGConnection connection;
    private boolean finished; // guarded by this
    private boolean expired; // guarded by this

    Watch(Thread thread, PGConnection connection) {
      this.thread = thread;
      this.connection = connection;
    }

    synchronized void expire() {
      if (finished) {
        return;
      }
      expired = true;
      log.warn("handlers on {} ran past their deadline: cancelling their statement and interrupting them",
          thread.getName());
      if (connection != null) {
        try {
          connection.cancelQuery();
        } catch (SQLException | RuntimeException e) {
          log.warn("cannot cancel the statement of {}: {}", thread.getName(), LedgerErrors.describe(e));
        }
      }
      thread.interrupt();
    }

    /**
     * Marks the attempt finished, so that the watchdog leaves it alone from now on; clears an
     * interrupt the watchdog made, which must not reach the worker's next task.
     *
     * @return whether the deadline had passed
     */
    synchronized boolean finish() {
      if (!finished) {
        finished = true;
        if (expired) {
          Thread.interrupted();
        }
      }
      return expired;
    }
  }
}
