package dev.hookledger.runtime.internal.ledger;

import dev.hookledger.LedgerUnavailableException;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Group commit for the receive path: concurrent deliveries' rows are written by a few writer
 * threads, each taking every request waiting when its previous commit returns and writing them as
 * one sorted multi-row insert in autocommit, one statement that is its own transaction
 * ({@link BatchInsert}), then counting the duplicates among them. There is no timer: a request that
 * arrives alone is written at once, alone, in one round trip; under load, requests queue while a
 * commit is in flight and share the next one, so one WAL flush serves many deliveries. A request
 * is answered only after the commit that holds its row.
 *
 * <p>The queue in front of the writers is bounded: when it is full, {@link #write} refuses at once
 * (the filter answers 503 with {@code Retry-After}) rather than holding a request thread. A batch
 * is bounded by rows and by bytes (bodies and payloads): a row that would take a batch past the
 * bytes starts the writer's next batch. A batch whose insert fails writes nothing; if the database
 * refused it for a row's data ({@linkplain LedgerErrors#isRowDataError a data error}: a value out of
 * range, an index entry too large), it is split in halves and each written again, down to the one
 * row at fault, so that one poison delivery fails only itself (seen here: one over-long id failed
 * 15 ordinary deliveries that shared its batch). Any other failure fails every request in it. If
 * only the counting of its duplicates fails, its new rows are answered and its duplicates fail (the
 * provider's retry is counted then).
 *
 * <p>A request is answered within {@code answerWithin} of its arrival (a provider's clock runs from
 * its request: GitHub gives up after 10 s), committed or not: a request still waiting then is answered
 * 503, and its row may still commit (the provider's retry is then a duplicate). When the database
 * could not be connected to (refused, or no answer to the connect), or a batch's connection was lost
 * under it, the started writers know it is unreachable: from then on every request is answered 503
 * at once instead of waiting for the pool's connection that will not come, while an idle writer asks
 * the pool for a connection every {@value #PROBE_INTERVAL_MILLIS} ms; the first live connection
 * obtained, by it or by a batch, ends it.
 *
 * <p>Until {@link #start} (and with no writer threads at all: the admin's replay), each call writes
 * its row on the caller's thread, in a transaction of its own. Thread-safe.
 */
public final class GroupCommit implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(GroupCommit.class);
  /** How long a writer waits for work before it looks whether it should stop. */
  private static final long IDLE_POLL_MILLIS = 100;
  /** How often an idle writer tries an unreachable database again. */
  static final long PROBE_INTERVAL_MILLIS = 500;
  /** How long a connection obtained during an outage may take to show that it is alive. */
  private static final int VALIDATION_SECONDS = 1;

  /** What a writer does for one request once its batch has committed or failed, before the request is answered. */
  public interface AfterWrite {
    AfterWrite NOTHING = new AfterWrite() {};

    /** The batch holding the row committed; {@code isNew} if the row was inserted, false for a duplicate. */
    default void committed(boolean isNew) {}

    /** The batch holding the row rolled back, or the row was never written (refused, timed out). */
    default void failed() {}
  }

  private static final class Request {
    final NewRow row;
    final AfterWrite after;
    final long bytes;
    final CompletableFuture<Boolean> outcome = new CompletableFuture<>();

    Request(NewRow row, AfterWrite after) {
      this.row = row;
      this.after = after;
      this.bytes = BatchInsert.rowBytes(row);
    }
  }

  private final DataSource dataSource;
  private final BatchInsert insert;
  /**
   * Whether one statement may hold rows of one scope only: on a ledger distributed by scope (Citus) a
   * batch of several scopes' rows spans their shards, and commits in two phases when they are on two
   * workers; there each scope's rows of a batch are their own statement and transaction.
   */
  private final BooleanSupplier oneScopePerStatement;
  private final int maxBatch;
  private final long maxBatchBytes;
  private final Duration answerWithin;
  private final ArrayBlockingQueue<Request> queue;
  private final List<Thread> writers = new ArrayList<>();
  private final java.util.concurrent.atomic.AtomicLong batches = new java.util.concurrent.atomic.AtomicLong();
  private volatile boolean started;
  private volatile boolean closed;
  /** Why the database was last found unreachable, until a connection is obtained again; else null. */
  private volatile String unreachable;
  /** Whether a writer is trying the unreachable database: one at a time does, the others keep writing. */
  private final java.util.concurrent.atomic.AtomicBoolean probing = new java.util.concurrent.atomic.AtomicBoolean();
  private volatile long lastProbeNanos = System.nanoTime();

  private GroupCommit(DataSource dataSource, EventTable events, BooleanSupplier oneScopePerStatement, int writers,
      int capacity, int maxBatch, long maxBatchBytes, Duration answerWithin, String name) {
    this.dataSource = dataSource;
    this.oneScopePerStatement = oneScopePerStatement;
    this.maxBatch = Math.min(maxBatch, BatchInsert.maxRowsPerStatement());
    this.maxBatchBytes = maxBatchBytes;
    this.insert = new BatchInsert(events, this.maxBatch);
    this.answerWithin = answerWithin;
    this.queue = new ArrayBlockingQueue<>(Math.max(1, capacity));
    for (int i = 1; i <= writers; i++) {
      Thread t = new Thread(this::writeLoop, name + "-ledger-writer-" + i);
      t.setDaemon(true);
      this.writers.add(t);
    }
  }

  /**
   * A group commit of {@code writers} threads writing batches of up to {@code maxBatch} rows and
   * {@code maxBatchBytes} bytes of bodies (a larger row goes alone) from a queue of {@code capacity}
   * requests, once {@linkplain #start started}; a request is answered within {@code answerWithin} of its arrival.
   * Where {@code oneScopePerStatement} holds (a ledger distributed by scope), a batch is written as one
   * statement per scope.
   */
  public static GroupCommit of(DataSource dataSource, EventTable events, BooleanSupplier oneScopePerStatement,
      int writers, int capacity, int maxBatch, long maxBatchBytes, Duration answerWithin, String name) {
    return new GroupCommit(dataSource, events, oneScopePerStatement, writers, capacity, maxBatch, maxBatchBytes,
        answerWithin, name);
  }

  /** Writes each row on the caller's thread, in a transaction of its own: for callers with no request rate to share. */
  public static GroupCommit direct(DataSource dataSource, EventTable events) {
    return new GroupCommit(dataSource, events, () -> false, 0, 1, 1, Long.MAX_VALUE, Duration.ZERO, "direct");
  }

  /** Starts the writer threads. Idempotent. */
  public synchronized void start() {
    if (!started && !closed) {
      writers.forEach(Thread::start);
      started = true;
    }
  }

  /** As {@link #write(NewRow, AfterWrite, long)} for a row that arrives now. */
  public boolean write(NewRow row, AfterWrite after) {
    return write(row, after, System.nanoTime());
  }

  /**
   * Writes {@code row} and returns once the transaction holding it has committed.
   *
   * @param after run by the writer for this row, after its batch's commit or failure and before
   *     this returns (or, if this gave up waiting, whenever the batch ends)
   * @param arrivedNanos when the delivery arrived ({@link System#nanoTime()}): this returns or throws
   *     within {@code answerWithin} of it
   * @return true if the row was inserted, false if the ledger already had its key (a duplicate)
   * @throws LedgerUnavailableException if the queue is full, the runtime is closing, the database was
   *     found unreachable (at once), the batch failed (nothing of it was written), or no commit came
   *     within the bound (the row may still commit)
   */
  public boolean write(NewRow row, AfterWrite after, long arrivedNanos) {
    if (closed) {
      after.failed();
      throw new LedgerUnavailableException("cannot record " + row.key() + ": the runtime is closing", null);
    }
    Request request = new Request(row, after);
    if (!started) {
      writeBatch(List.of(request));
      return await(request, arrivedNanos);
    }
    String down = unreachable;
    if (down != null) {
      // a connection refused is answered at once, not after the pool's wait for one that will not come
      after.failed();
      throw new LedgerUnavailableException("cannot record " + row.key() + ": the database is unreachable (" + down
          + "); a writer tries it again every " + PROBE_INTERVAL_MILLIS + " ms", null);
    }
    if (!queue.offer(request)) {
      after.failed();
      throw new LedgerUnavailableException("cannot record " + row.key() + ": the ledger writers are saturated ("
          + queue.size() + " deliveries waiting for a commit)", null);
    }
    return await(request, arrivedNanos);
  }

  private boolean await(Request request, long arrivedNanos) {
    try {
      long left = arrivedNanos + answerWithin.toNanos() - System.nanoTime();
      return request.outcome.isDone() ? request.outcome.get()
          : request.outcome.get(Math.max(0, left), TimeUnit.NANOSECONDS);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof LedgerUnavailableException u) {
        throw u;
      }
      throw new IllegalStateException("the ledger writer failed on " + request.row.key(), e.getCause());
    } catch (TimeoutException e) {
      // the batch may still commit: the provider's retry of this 503 is then answered as a duplicate
      throw new LedgerUnavailableException("cannot record " + request.row.key() + ": no commit within "
          + answerWithin.toMillis() + " ms of its arrival (it may still commit)", null);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new LedgerUnavailableException("interrupted while recording " + request.row.key(), e);
    }
  }

  private void writeLoop() {
    List<Request> batch = new ArrayList<>(maxBatch);
    Request carried = null; // taken from the queue, but past the last batch's bytes: it starts the next
    while (true) {
      try {
        Request first = carried != null ? carried : queue.poll(IDLE_POLL_MILLIS, TimeUnit.MILLISECONDS);
        carried = null;
        if (first == null) {
          if (closed) {
            return;
          }
          probeIfUnreachable();
          continue;
        }
        batch.add(first);
        carried = fill(batch, first.bytes);
        if (batch.size() > 1 && oneScopePerStatement()) {
          for (List<Request> scoped : byScope(batch)) {
            writeBatch(scoped);
          }
        } else {
          writeBatch(batch);
        }
      } catch (InterruptedException e) {
        failAll(batch, new LedgerUnavailableException("the ledger writer was interrupted", e));
        return;
      } catch (Throwable t) { // an Error too: a writer that died would leave requests waiting for ever
        log.error("the ledger writer failed unexpectedly; its batch of {} is answered 503", batch.size(), t);
        failAll(batch, new LedgerUnavailableException("the ledger writer failed: " + t, t));
      } finally {
        batch.clear();
      }
    }
  }

  private boolean oneScopePerStatement() {
    try {
      return oneScopePerStatement.getAsBoolean();
    } catch (RuntimeException e) {
      return false; // the layout is read from the database, unreachable now: the batch's own write says so
    }
  }

  /** {@code batch}'s requests grouped by their event's scope, each group in arrival order. */
  static List<List<Request>> byScope(List<Request> batch) {
    Map<String, List<Request>> groups = new LinkedHashMap<>();
    for (Request r : batch) {
      groups.computeIfAbsent(r.row.event().scope(), k -> new ArrayList<>()).add(r);
    }
    return new ArrayList<>(groups.values());
  }

  /** Adds queued requests to {@code batch} while it has room; returns the one taken that did not fit, if any. */
  private Request fill(List<Request> batch, long bytes) {
    while (batch.size() < maxBatch) {
      Request next = queue.poll();
      if (next == null) {
        return null;
      }
      if (bytes + next.bytes > maxBatchBytes) {
        return next;
      }
      batch.add(next);
      bytes += next.bytes;
    }
    return null;
  }

  /** Asks the pool for a connection if the database was found unreachable and no writer asked lately. */
  // the resource is a scope (a lease kept alive, a log context, a probe's connection): closing it is its use
  @SuppressWarnings("try")
  private void probeIfUnreachable() {
    if (unreachable == null || System.nanoTime() - lastProbeNanos < TimeUnit.MILLISECONDS.toNanos(PROBE_INTERVAL_MILLIS)
        || !probing.compareAndSet(false, true)) {
      return;
    }
    try (Connection c = connect(List.of())) {
      // obtained or not, connect decided whether the database is reachable
    } catch (SQLException e) {
      log.debug("closing the probe's connection failed: {}", LedgerErrors.describe(e));
    } finally {
      lastProbeNanos = System.nanoTime();
      probing.set(false);
    }
  }

  /**
   * A connection for a batch; null if none could be had, the batch then failed. Whether the database
   * can be reached again is decided here, where the pool answers with a live connection; that it
   * cannot, here or by a batch's statement whose connection was lost ({@link #connectionLost}).
   */
  private Connection connect(List<Request> batch) {
    try {
      Connection c = dataSource.getConnection();
      if (unreachable != null) {
        // a pool may hand out a connection it last used moments ago without checking it (HikariCP does
        // within half a second), one the database's stop has broken: only a live one ends the outage
        if (!c.isValid(VALIDATION_SECONDS)) {
          c.close();
          throw new SQLException("a connection from the pool is broken: the database is still unreachable", "08006");
        }
        unreachable = null;
        log.info("the ledger's database can be reached again: deliveries are recorded");
      }
      return c;
    } catch (SQLException | RuntimeException e) {
      if (started && LedgerErrors.isConnectionFailure(e)) {
        markUnreachable(e);
      }
      log.debug("no connection for a batch of {} rows: {}", batch.size(), LedgerErrors.describe(e));
      for (Request r : batch) {
        fail(r, LedgerErrors.unavailable("record", r.row.key(), e));
      }
      return null;
    }
  }

  /**
   * From now on, deliveries are answered 503 at once, until a writer's probe obtains a live
   * connection ({@link #connect}), within {@value #PROBE_INTERVAL_MILLIS} ms of the database's return.
   */
  private void markUnreachable(Exception e) {
    if (unreachable == null) {
      log.warn("the ledger's database cannot be reached ({}): deliveries are answered 503 at once until it can",
          LedgerErrors.describe(e));
    }
    lastProbeNanos = System.nanoTime();
    unreachable = LedgerErrors.describe(e);
  }

  /**
   * Whether a statement failed because its connection was lost (closed under it, or the server
   * shutting down: SQL states 08 and 57P01-57P03): the database is then taken for unreachable until a
   * probe's live connection says otherwise. A connection broken alone while the database is up costs
   * the deliveries of that moment a 503 (the provider retries) until the next probe, a few hundred
   * milliseconds; without this, a pool handing out connections its last use broke (HikariCP checks
   * none used within half a second) made each delivery of a stopped database wait the pool's whole
   * connection timeout.
   */
  private static boolean connectionLost(Exception e) {
    if (LedgerErrors.isConnectionFailure(e)) {
      return true;
    }
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof SQLException sql && sql.getSQLState() != null && sql.getSQLState().startsWith("57P0")) {
        return true;
      }
    }
    return false;
  }

  private void writeBatch(List<Request> batch) {
    List<NewRow> rows = new ArrayList<>(batch.size());
    batch.forEach(r -> rows.add(r.row));
    boolean[] isNew = null;
    Exception countFailure = null;
    Connection connection = connect(batch);
    if (connection == null) {
      return;
    }
    try (Connection c = connection) {
      boolean autoCommit = c.getAutoCommit();
      if (!autoCommit) {
        c.setAutoCommit(true);
      }
      try {
        // in autocommit the insert is one statement and one transaction: one round trip, as the
        // hand-written INSERT a team would write, where BEGIN, INSERT, COMMIT took two. All of the
        // batch is written or none of it (a constraint deferred to the commit fails the statement)
        isNew = insert.insertRows(c, rows);
        batches.incrementAndGet();
        try {
          insert.countDuplicates(c, rows, isNew);
        } catch (SQLException | RuntimeException e) {
          countFailure = e; // the new rows are written: only the duplicates' answers fail
        }
      } finally {
        if (!autoCommit) {
          c.setAutoCommit(false);
        }
      }
    } catch (SQLException | RuntimeException e) {
      if (isNew == null && batch.size() > 1 && LedgerErrors.isRowDataError(e)) {
        // one row's data, not the database: write each half again, so only the row at fault fails
        log.debug("a batch of {} rows was refused for a row's data ({}); writing its halves apart", batch.size(),
            LedgerErrors.describe(e));
        int half = batch.size() / 2;
        writeBatch(new ArrayList<>(batch.subList(0, half)));
        writeBatch(new ArrayList<>(batch.subList(half, batch.size())));
        return;
      }
      if (isNew == null) {
        if (started && connectionLost(e)) {
          markUnreachable(e);
        }
        if (batch.size() == 1 && LedgerErrors.isRowDataError(e)) {
          log.warn("{}: the ledger refuses this row's data ({}); it alone is answered 503", batch.get(0).row.key(),
              LedgerErrors.describe(e));
        }
        log.debug("a batch of {} rows failed: {}", batch.size(), LedgerErrors.describe(e));
        for (Request r : batch) {
          fail(r, LedgerErrors.unavailable("record", r.row.key(), e));
        }
        return;
      }
      log.debug("the connection failed after a batch of {} rows was written: {}", batch.size(), LedgerErrors.describe(e));
    }
    if (countFailure != null) {
      log.debug("counting the duplicates of a batch of {} rows failed: {}", batch.size(),
          LedgerErrors.describe(countFailure));
    }
    for (int i = 0; i < batch.size(); i++) {
      Request r = batch.get(i);
      if (!isNew[i] && countFailure != null) {
        // its redelivery was not counted: a 503 has the provider send it again, to be counted then
        fail(r, LedgerErrors.unavailable("count the redelivery of", r.row.key(), countFailure));
        continue;
      }
      try {
        r.after.committed(isNew[i]);
      } catch (RuntimeException e) {
        log.error("{}: the hand-off after its commit failed; it waits for a poll", r.row.key(), e);
      }
      r.outcome.complete(isNew[i]);
    }
  }

  private static void fail(Request r, LedgerUnavailableException e) {
    try {
      r.after.failed();
    } catch (RuntimeException x) {
      log.error("{}: cleaning up after a failed write failed", r.row.key(), x);
    }
    r.outcome.completeExceptionally(e);
  }

  private static void failAll(List<Request> batch, LedgerUnavailableException e) {
    batch.stream().filter(r -> !r.outcome.isDone()).forEach(r -> fail(r, e));
  }

  /** How many batches have committed: with the rows recorded, how well commits are shared. */
  public long batchesCommitted() {
    return batches.get();
  }

  /** How many requests wait for a writer now. */
  public int waiting() {
    return queue.size();
  }

  /**
   * Stops taking requests; the writers write what is queued, then stop. Waits up to
   * {@code timeout} for them.
   */
  public void close(Duration timeout) {
    synchronized (this) {
      closed = true;
    }
    long deadline = System.nanoTime() + timeout.toNanos();
    for (Thread t : writers) {
      try {
        t.join(Math.max(1, (deadline - System.nanoTime()) / 1_000_000));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
    }
    List<Request> left = new ArrayList<>();
    queue.drainTo(left);
    failAll(left, new LedgerUnavailableException("the runtime closed before the delivery was recorded", null));
  }

  @Override
  public void close() {
    close(Duration.ofSeconds(10));
  }
}
