package dev.hookledger.runtime.internal.process;

import dev.hookledger.WebhookEvent;
import dev.hookledger.runtime.EventStatus;
import dev.hookledger.runtime.HandlerFailedException;
import dev.hookledger.runtime.Settlement;
import dev.hookledger.runtime.WebhookListener;
import dev.hookledger.runtime.internal.dispatch.Dispatcher;
import dev.hookledger.runtime.internal.dispatch.Invocation;
import dev.hookledger.runtime.internal.dispatch.Outboxes;
import dev.hookledger.runtime.internal.dispatch.TransactionEventContext;
import dev.hookledger.runtime.internal.ledger.AppliedRows;
import dev.hookledger.runtime.internal.ledger.EventKey;
import dev.hookledger.runtime.internal.ledger.Lease;
import dev.hookledger.runtime.internal.ledger.LedgerErrors;
import dev.hookledger.runtime.internal.ledger.NewRow;
import dev.hookledger.runtime.internal.ledger.ProcessingRows;
import dev.hookledger.runtime.internal.ledger.StatusColumn;
import dev.hookledger.runtime.internal.observe.EventMdc;
import dev.hookledger.runtime.internal.observe.EventTracing;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import org.jooq.DSLContext;
import org.jooq.exception.DataAccessException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One attempt at one leased event, in one transaction: check the lease unless it is fresh, ask the
 * ordering guard, run the matching {@code @OnEvent} methods with that transaction, then settle the
 * row with one statement fenced by the lease's owner and attempt; after the commit, run the
 * {@code afterCommit} actions. A fresh event costs, besides its handlers' own statements, one round
 * trip (two with the ordering guard): the settle, which also records its handlers
 * ({@link AppliedRows}: one insert for all their names, after they ran) and, where the runtime's
 * transactions are jOOQ's own, carries the COMMIT. A later attempt (a retry, a takeover) reads that
 * record first and records after its handlers, so that it never waits for the uncommitted rows of
 * an attempt it took over. A handler failure
 * rolls all of it back and is then recorded by {@link Retries}; a lease taken over meanwhile rolls
 * it back and records nothing (the new holder decides). Thread-safe; any number of threads may
 * process at once.
 */
public final class EventProcessor {
  private static final Logger log = LoggerFactory.getLogger(EventProcessor.class);

  /**
   * For {@code bench} only, never for an application: while this system property is {@code true}, a
   * first attempt does not record its handlers ({@code handler_applied}), so that the statement's
   * cost can be measured against the same runtime without it. Read per event, so a benchmark can
   * flip it between phases. A ledger run so has events that backfills and retries count as not
   * applied.
   */
  public static final String BENCH_SKIP_BOOKKEEPING = "hookledger.bench.skipHandlerBookkeeping";

  private final DSLContext dsl;
  private final ProcessingRows rows;
  private final Dispatcher dispatcher;
  private final OrderingGuard guard;
  private final Retries retries;
  private final WebhookListener listener;
  private final HandlerDeadline deadline;
  private final AppliedRows applied;
  private final EventTracing tracing;
  private final boolean settleAndCommit;
  private final Outboxes effects;

  /** @param effects writes the handlers' outbox effects into their transactions */
  public EventProcessor(DSLContext dsl, ProcessingRows rows, Dispatcher dispatcher, OrderingGuard guard,
      Retries retries, WebhookListener listener, HandlerDeadline deadline, AppliedRows applied, EventTracing tracing,
      Outboxes effects) {
    this.dsl = dsl;
    this.rows = rows;
    this.dispatcher = dispatcher;
    this.guard = guard;
    this.retries = retries;
    this.listener = listener;
    this.deadline = deadline;
    this.applied = applied;
    this.tracing = tracing;
    this.settleAndCommit = rows.commitsWithSettle();
    this.effects = effects;
  }

  /**
   * Makes the attempt {@code lease} stands for. Never throws for a handler or database failure: the
   * first is recorded on the row, the second leaves the lease to run out; both are logged.
   *
   * @return the status the row was settled with; empty if the attempt failed or lost its lease
   */
  // the resource is a scope (a lease kept alive, a log context, a probe's connection): closing it is its use
  @SuppressWarnings("try")
  public Optional<EventStatus> process(Lease lease) {
    // every line logged meanwhile on this thread, the handlers' and the retry's too, names the event
    try (EventMdc mdc = EventMdc.of(lease.event(), lease.attempt())) {
      return tracing.process(lease.event(), lease.attempt(), () -> attempt(lease));
    }
  }

  private Optional<EventStatus> attempt(Lease lease) {
    long start = System.nanoTime();
    try {
      Settled settled;
      try {
        settled = attempt(lease, start, lease.attempt() > 1, false);
      } catch (NotSettled e) {
        settled = attempt(lease, start, true, true);
      }
      return Optional.of(committed(settled, start));
    } catch (LeaseLostException e) {
      log.warn("{}: {}", lease.key(), e.getMessage());
    } catch (HandlerFailedException e) {
      retries.failed(lease, e, e.getCause(), Duration.ofNanos(System.nanoTime() - start));
    } catch (DataAccessException e) {
      // a handler that swallowed a SQL error, a deferred constraint failing at commit, or an outage
      log.warn("{} attempt {} failed in its transaction: {}", lease.key(), lease.attempt(), LedgerErrors.describe(e));
      retries.failed(lease, e, e, Duration.ofNanos(System.nanoTime() - start));
    }
    return Optional.empty();
  }

  /**
   * @param read whether to read the record of applied handlers before they run (see {@link #dispatch})
   * @param again whether a first run of this attempt failed to settle: its lease was lost, or its
   *     handlers were found applied by a committed transaction; the lease is checked first
   */
  private Settled attempt(Lease lease, long start, boolean read, boolean again) {
    return dsl.transactionResult(cfg -> {
      DSLContext tx = cfg.dsl();
      // fail fast for a lease that may have been lost while queued: a fresh one cannot have been,
      // and the check that counts is the fenced settle below
      if ((again || !lease.fresh()) && !rows.holds(tx, lease, false)) {
        throw new LeaseLostException(lease, again ? "while its handlers ran" : "before it started");
      }
      List<String> ran = new ArrayList<>();
      Settled s = dispatch(tx, lease.event(), lease.attempt(), read, ran::addAll);
      rows.recordSuccess(tx, lease, s.status(), Duration.ofNanos(System.nanoTime() - start));
      ProcessingRows.Applied applied = !read && Boolean.getBoolean(BENCH_SKIP_BOOKKEEPING) ? ProcessingRows.Applied.NONE
          : new ProcessingRows.Applied(ran, !read);
      // the fenced settle, which also records the handlers that ran, is the last statement; where the
      // runtime commits itself, the COMMIT rides in its round trip, and the server fails the
      // transaction when the settle fails
      boolean held = settleAndCommit ? rows.settleLeasedAndCommit(tx, lease, s.status(), applied)
          : rows.settleLeased(tx, lease, s.status(), applied);
      if (!held && read) {
        throw new LeaseLostException(lease, "while its handlers ran");
      }
      if (!held) {
        throw new NotSettled();
      }
      return s;
    });
  }

  /**
   * Rolls back a first attempt whose settle failed: either its lease was lost or its handlers were
   * found applied by a committed transaction; the attempt runs again, reading that record first.
   */
  private static final class NotSettled extends RuntimeException {
    NotSettled() {
      super(null, null, false, false);
    }
  }

  /**
   * The row an {@code INLINE} event is inserted as, before {@link #runInTransaction} in the same
   * transaction: settled {@code done} by the insert, so that the common outcome costs no update.
   */
  public NewRow inlineRow(WebhookEvent event) {
    return rows.doneByInsert(event);
  }

  /**
   * Runs the handlers inside the caller's transaction, on the row {@link #inlineRow} the caller has
   * just inserted (the {@code INLINE} mode), and settles it otherwise if they did not make it
   * {@code done}. The caller commits, then calls {@link #committed}.
   *
   * @throws HandlerFailedException if a handler failed; the caller must roll back
   */
  public Settled runInTransaction(DSLContext tx, WebhookEvent event, int attempt) {
    EventKey key = EventKey.of(event);
    boolean read = attempt > 1;
    Settled settled = dispatch(tx, event, attempt, read, names -> {
      if (applied.record(tx, key, names).size() != names.size() && !read) {
        throw new IllegalStateException(key + " was applied already by " + names + " before its first attempt");
      }
    });
    if (settled.status() != EventStatus.DONE || attempt != 1) {
      rows.settle(tx, key, settled.status(), attempt); // stale or ignored: the insert said done
    }
    return settled;
  }

  /** After the commit: hands its effects to the senders, runs the {@code afterCommit} actions and tells the listener. */
  public EventStatus committed(Settled settled, long startNanos) {
    settled.context().committed(listener);
    Duration elapsed = Duration.ofNanos(System.nanoTime() - startNanos);
    log.debug("{} settled {} on attempt {} in {} ms", settled.event(), StatusColumn.sql(settled.status()), settled.attempt(),
        elapsed.toMillis());
    listener.processed(settled.event(), Settlement.of(settled.status()), settled.attempt(), elapsed);
    return settled.status();
  }

  /**
   * The guard, then the handlers. The guard runs only for events that a {@code skipStale} method
   * matches: the entity's version is the newest one those methods have seen.
   *
   * @param read whether to read the record of applied handlers first: a retry, a takeover, or a first
   *     attempt whose settle failed. A first attempt reads nothing (an event just received has no
   *     record): its handlers run and are then recorded by the settle, which fails if one is found
   *     recorded by a committed transaction meanwhile, rolling the attempt back to run again reading
   *     first. Recording after the handlers, never before, means an attempt never waits for the
   *     uncommitted record of an attempt it took over while that one's handler hangs.
   * @param ran told the names of the handlers that ran, to record
   */
  private Settled dispatch(DSLContext tx, WebhookEvent event, int attempt, boolean read, Consumer<List<String>> ran) {
    TransactionEventContext context = new TransactionEventContext(event, attempt, effects);
    boolean stale = dispatcher.skipsStale(event) && guard.isStale(tx, event);
    Dispatcher.AppliedHandlers record = new Dispatcher.AppliedHandlers() {
      @Override
      public Set<String> record(Invocation invocation, List<String> names) {
        if (!read) {
          return Set.copyOf(names);
        }
        Set<String> toRun = new HashSet<>(names);
        toRun.removeAll(applied.appliedOf(tx, EventKey.of(event), names));
        return toRun;
      }

      @Override
      public void ran(Invocation invocation, List<String> names) {
        ran.accept(names);
      }
    };
    Dispatcher.Dispatched d = deadline.run(tx, event,
        () -> dispatcher.dispatch(new Invocation(event, tx, context), stale, null, record));
    EventStatus status = d.invoked() + d.alreadyApplied() > 0 ? EventStatus.DONE : d.skippedStale() > 0 ? EventStatus.STALE : EventStatus.IGNORED;
    return new Settled(event, status, attempt, context);
  }
}
