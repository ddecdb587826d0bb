package dev.hookledger.runtime.internal.inbox;

import dev.hookledger.runtime.internal.background.PoolThreads;
import dev.hookledger.runtime.internal.ledger.BackfillRows;
import dev.hookledger.runtime.internal.ledger.BackfillRows.EventCursor;
import dev.hookledger.runtime.internal.ledger.BackfillRows.Held;
import dev.hookledger.runtime.internal.ledger.BackfillRows.Visit;
import dev.hookledger.runtime.internal.ledger.EventTable;
import dev.hookledger.runtime.internal.ledger.LedgerDsl;
import dev.hookledger.runtime.internal.ledger.LedgerErrors;
import dev.hookledger.runtime.internal.process.BackfillStep;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.jooq.DSLContext;
import org.jooq.exception.DataAccessException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One thread per runtime that runs backfills: it takes the oldest running backfill whose handlers
 * this node registers (a lease in the {@code backfill} row, so a backfill runs on one node at a
 * time and another node resumes it from its cursor when this one stops or dies), and visits its
 * events oldest first, one transaction each, at most its {@code maxPerSecond}, and only while at
 * most its {@code maxBacklog} events wait for live processing: live deliveries keep priority. One
 * worker per node, whatever the number of backfills, so a backfill never takes more than one
 * connection of the pool. Survives any failure of the database (logged, then tried again).
 */
public final class BackfillWorker implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(BackfillWorker.class);
  private static final int PAGE = 100;

  private final DSLContext dsl;
  private final EventTable events;
  private final BackfillRows rows;
  private final BackfillStep step;
  private final Set<String> handlers;
  private final String owner;
  private final Duration lease;
  private final Duration poll;
  private final LongSupplier liveDeliveries;
  private final Thread thread;
  /**
   * How much slower a backfill visits events while this node receives live deliveries. The backlog
   * pause only sees events that wait; a delivery acknowledged at once still shares the node's CPU with
   * the backfill, and at the full rate one client's acknowledgement took 1.7-2.2x as long (p50, bench
   * --backfill on an idle 2-core machine).
   */
  static final int LIVE_SLOWDOWN = 10;
  private volatile boolean stopped;
  /** Whether the thread runs a visit (handlers): never interrupted then. Written under {@code this} with {@link #stopped}'s check. */
  private boolean visiting;
  /** Counted down by {@link #close()}: a pause ends at once instead of holding close for up to a poll interval. */
  private final CountDownLatch stopping = new CountDownLatch(1);

  private BackfillWorker(DSLContext dsl, EventTable events, BackfillRows rows, BackfillStep step, Set<String> handlers,
      String owner, Duration lease, Duration poll, LongSupplier liveDeliveries, String name) {
    this.dsl = dsl;
    this.events = events;
    this.rows = rows;
    this.step = step;
    this.handlers = handlers;
    this.owner = owner;
    this.lease = lease;
    this.poll = poll;
    this.liveDeliveries = liveDeliveries;
    this.thread = new Thread(this::loop, name);
    thread.setDaemon(true);
  }

  /**
   * Starts the worker; {@code lease} is how long another node waits before it takes over a backfill of
   * a dead one; {@code liveDeliveries} counts the deliveries this node has received (any monotonic count):
   * while it moves, the backfill runs at a {@value #LIVE_SLOWDOWN}th of its rate.
   */
  public static BackfillWorker start(DSLContext dsl, EventTable events, BackfillRows rows, BackfillStep step,
      Set<String> handlers, String owner, Duration lease, Duration poll, LongSupplier liveDeliveries, String name) {
    BackfillWorker w = new BackfillWorker(dsl, events, rows, step, handlers, owner, lease, poll, liveDeliveries, name);
    w.thread.start();
    return w;
  }

  private void loop() {
    while (!stopped) {
      try {
        Optional<Held> held = LedgerDsl.inOwnTransaction(dsl, tx -> rows.claim(tx, owner, handlers, lease));
        if (held.isEmpty()) {
          pause(poll);
          continue;
        }
        log.info("backfill {}: running on this node (handlers {})", held.get().id(), held.get().handlers());
        try {
          run(held.get());
        } finally {
          if (stopped) {
            release(held.get().id());
          }
        }
      } catch (InterruptedException e) {
        return;
      } catch (Throwable t) {
        if (t instanceof DataAccessException e) {
          log.warn("backfill worker: ledger unavailable ({}); trying again", LedgerErrors.describe(e));
        } else {
          log.error("backfill worker: unexpected failure; trying again", t);
        }
        try {
          pause(poll);
        } catch (InterruptedException e) {
          return;
        }
      }
    }
  }

  /** Visits the backfill's events until it is done, this node loses it, or the worker stops. */
  private void run(Held held) throws InterruptedException {
    long intervalNanos = TimeUnit.SECONDS.toNanos(1) / held.maxPerSecond();
    long next = System.nanoTime();
    long live = liveDeliveries.getAsLong();
    EventCursor cursor = held.cursor();
    while (!stopped) {
      if (backlog(held.maxBacklog()) > held.maxBacklog()) {
        if (!LedgerDsl.inOwnTransaction(dsl, tx -> rows.renew(tx, held, owner, lease))) {
          return;
        }
        pause(poll);
        continue;
      }
      EventCursor from = cursor;
      List<EventCursor> page = LedgerDsl.inOwnTransaction(dsl, tx -> rows.page(tx, held, from, PAGE));
      if (page.isEmpty()) {
        LedgerDsl.inOwnTransaction(dsl, tx -> {
          rows.finish(tx, held, owner);
          return null;
        });
        log.info("backfill {}: done", held.id());
        return;
      }
      for (EventCursor at : page) {
        if (stopped) {
          return;
        }
        long wait = next - System.nanoTime();
        if (wait > 0) {
          pause(Duration.ofNanos(wait));
        }
        long seen = liveDeliveries.getAsLong();
        long interval = seen == live ? intervalNanos : intervalNanos * LIVE_SLOWDOWN;
        live = seen;
        next = Math.max(next, System.nanoTime() - interval) + interval;
        synchronized (this) {
          if (stopped) {
            return;
          }
          visiting = true;
        }
        Optional<Visit> visit;
        try {
          visit = step.visit(held, at);
        } finally {
          synchronized (this) {
            visiting = false;
          }
        }
        if (visit.isEmpty()) {
          return;
        }
        cursor = at;
      }
    }
  }

  /** Events waiting for live processing, counted up to {@code limit + 1} through the waiting rows' partial index. */
  private long backlog(int limit) {
    return LedgerDsl.inOwnTransaction(dsl, tx -> (long) tx.fetchCount(
        tx.selectOne().from(events.table()).where(EventTable.WAITING).limit(limit + 1)));
  }

  private void pause(Duration d) throws InterruptedException {
    stopping.await(d.toNanos(), TimeUnit.NANOSECONDS);
  }

  /**
   * Stops at the next event (the one in flight commits or rolls back whole; the thread is not
   * interrupted while it visits one, which would fail a handler's statement) and gives the backfill
   * back at once, so that another node resumes it without waiting for the lease to run out. Outside a
   * visit, a thread still alive after {@link PoolThreads#STOP_GRACE} waits for a connection to a
   * database that is gone, and is interrupted rather than waited for up to the pool's timeout.
   */
  @Override
  public void close() {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    stopped = true;
    stopping.countDown();
    PoolThreads.join(List.of(thread), System.nanoTime() + PoolThreads.STOP_GRACE.toNanos());
    synchronized (this) {
      if (thread.isAlive() && !visiting) {
        thread.interrupt();
      }
    }
    PoolThreads.join(List.of(thread), deadline);
  }

  private void release(long id) {
    try {
      LedgerDsl.inOwnTransaction(dsl, tx -> {
        rows.release(tx, id, owner);
        return null;
      });
    } catch (DataAccessException e) {
      log.warn("backfill {}: could not give it back ({}); another node takes it over when its lease runs out", id,
          LedgerErrors.describe(e));
    }
  }
}
