package dev.hookledger.runtime.internal.process;

import dev.hookledger.WebhookEvent;
import dev.hookledger.runtime.EventStatus;
import dev.hookledger.runtime.HandlerFailedException;
import dev.hookledger.runtime.RetryPolicy;
import dev.hookledger.runtime.internal.dispatch.Dispatcher;
import dev.hookledger.runtime.internal.dispatch.Invocation;
import dev.hookledger.runtime.internal.dispatch.Outboxes;
import dev.hookledger.runtime.internal.dispatch.TransactionEventContext;
import dev.hookledger.runtime.internal.ledger.AppliedRows;
import dev.hookledger.runtime.internal.ledger.AttemptRows;
import dev.hookledger.runtime.internal.ledger.BackfillRows;
import dev.hookledger.runtime.internal.ledger.BackfillRows.EventCursor;
import dev.hookledger.runtime.internal.ledger.BackfillRows.Held;
import dev.hookledger.runtime.internal.ledger.BackfillRows.Visit;
import dev.hookledger.runtime.internal.ledger.CitusLedger;
import dev.hookledger.runtime.internal.ledger.EventKey;
import dev.hookledger.runtime.internal.ledger.EventRows;
import dev.hookledger.runtime.internal.ledger.EventTable;
import dev.hookledger.runtime.internal.ledger.LedgerDsl;
import dev.hookledger.runtime.internal.ledger.LedgerErrors;
import dev.hookledger.runtime.internal.ledger.LedgerTime;
import dev.hookledger.runtime.internal.ledger.StatusColumn;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Record;
import org.jooq.exception.DataAccessException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Applies a backfill's handlers to one stored event, in the event's own transaction, as live
 * processing would: the row locked and re-read (an event waiting for live processing is left to it,
 * which runs every handler not yet applied), legacy events treated as the backfill says, the ordering
 * guard asked, the handlers' names recorded before they run (so a handler already applied is not run
 * again), and the backfill's cursor advanced fenced by its lease, so that the effects and the cursor
 * commit together or not at all. A handler failure puts the event back in the live queue as a failed
 * first attempt: the workers retry it with the runtime's retry policy (running only the handlers not
 * yet applied), and it is dead after the last attempt, visible as any other. Thread-safe.
 *
 * <p>On a ledger distributed by Citus ({@link CitusLedger}) the cursor is advanced just after the
 * event's commit, in a transaction of its own: {@code backfill} is a reference table, a copy on every
 * node, and its write in the event's transaction made that transaction write every node (a two-phase
 * commit per visited event) where the event's own statements touch one shard. The visit checks the
 * lease by a read instead, at its start. A node that stops between the two commits leaves the cursor
 * one event behind: the next holder visits that event again, finds its handlers recorded as applied
 * and counts it skipped. The handlers still apply once; the applied count may be one short per such
 * stop.
 */
public final class BackfillStep {
  private static final Logger log = LoggerFactory.getLogger(BackfillStep.class);
  private static final List<Field<?>> COLUMNS = new ArrayList<>(EventRows.EVENT_COLUMNS);

  static {
    COLUMNS.add(EventTable.STATUS);
  }

  private final DSLContext dsl;
  private final EventTable events;
  private final BackfillRows backfills;
  private final AppliedRows applied;
  private final AttemptRows attempts;
  private final Dispatcher dispatcher;
  private final OrderingGuard guard;
  private final HandlerDeadline deadline;
  private final RetryPolicy policy;
  private final String owner;
  private final Duration lease;
  private final Outboxes effects;
  private final CitusLedger citus;

  /**
   * @param effects writes the handlers' outbox effects, keyed as a live attempt's would be
   * @param citus whether the ledger is distributed: then the cursor advances after each visit's commit
   */
  public BackfillStep(DSLContext dsl, EventTable events, BackfillRows backfills, AppliedRows applied, AttemptRows attempts,
      Dispatcher dispatcher, OrderingGuard guard, HandlerDeadline deadline, RetryPolicy policy, String owner,
      Duration lease, Outboxes effects, CitusLedger citus) {
    this.dsl = dsl;
    this.events = events;
    this.backfills = backfills;
    this.applied = applied;
    this.attempts = attempts;
    this.dispatcher = dispatcher;
    this.guard = guard;
    this.deadline = deadline;
    this.policy = policy;
    this.owner = owner;
    this.lease = lease;
    this.effects = effects;
    this.citus = citus;
  }

  /**
   * Visits one event.
   *
   * @return what it did; empty if this node no longer holds the backfill (nothing was committed; on
   *     Citus, also where the visit committed and its cursor could not be moved after it)
   */
  public Optional<Visit> visit(Held held, EventCursor at) {
    long start = System.nanoTime();
    TransactionEventContext[] context = new TransactionEventContext[1];
    boolean[] legacy = new boolean[1];
    WebhookEvent[] event = new WebhookEvent[1];
    boolean apart = citus.distributed();
    try {
      Visit visit = dsl.transactionResult(cfg -> {
        DSLContext tx = cfg.dsl();
        if (apart && !backfills.holds(tx, held, owner)) {
          throw new NotHeld();
        }
        Visit v = apply(tx, held, at.key(), context, legacy, event);
        if (!apart && !backfills.advance(tx, held, owner, at, v, lease)) {
          throw new NotHeld();
        }
        return v;
      });
      if (context[0] != null) {
        context[0].committed();
      }
      return apart ? advanceApart(held, at, visit) : Optional.of(visit);
    } catch (NotHeld e) {
      log.info("backfill {}: taken over by another node or cancelled; this node stops here", held.id());
      return Optional.empty();
    } catch (HandlerFailedException | DataAccessException e) {
      return failed(held, at, event[0], legacy[0], e, Duration.ofNanos(System.nanoTime() - start));
    }
  }

  private Visit apply(DSLContext tx, Held held, EventKey key, TransactionEventContext[] context, boolean[] legacy,
      WebhookEvent[] event) {
    Record row = events.lockByKey(tx, key, COLUMNS);
    if (row == null) {
      return Visit.SKIPPED; // pruned meanwhile
    }
    String status = row.get(EventTable.STATUS);
    boolean done = status.equals(StatusColumn.sql(EventStatus.DONE));
    if (!done && !status.equals(StatusColumn.sql(EventStatus.IGNORED))
        && !status.equals(StatusColumn.sql(EventStatus.STALE))) {
      return Visit.SKIPPED; // back in the live queue since it was selected: live processing runs every handler
    }
    legacy[0] = done && backfills.isLegacy(tx, key);
    if (legacy[0] && !held.applyLegacy()) {
      return Visit.SKIPPED;
    }
    WebhookEvent e = EventRows.toEvent(row);
    event[0] = e;
    TransactionEventContext ctx = new TransactionEventContext(e, 1, effects);
    boolean stale = dispatcher.skipsStale(e, held.handlers()) && guard.isStale(tx, e);
    boolean keepLegacy = legacy[0];
    Dispatcher.AppliedHandlers record = (invocation, names) -> {
      if (keepLegacy) {
        // rows of its own would make a legacy event look settled under bookkeeping: keep it marked
        applied.record(tx, key, List.of(BackfillRows.LEGACY_MARK));
      }
      return applied.record(tx, key, names);
    };
    Dispatcher.Dispatched d = deadline.run(tx, e,
        () -> dispatcher.dispatch(new Invocation(e, tx, ctx), stale, held.handlers(), record));
    if (d.invoked() == 0) {
      return Visit.SKIPPED;
    }
    if (!done) {
      // an ignored (or stale) event that a handler has now applied is done, as live processing would settle it
      tx.update(events.table()).set(EventTable.STATUS, StatusColumn.sql(EventStatus.DONE))
          .where(EventTable.is(key)).execute();
    }
    context[0] = ctx;
    return Visit.APPLIED;
  }

  /**
   * Records a failed visit in a transaction of its own: the event waits again as after a failed first
   * attempt (or is dead if the policy allows one attempt), with the attempt and its cause kept, and
   * the cursor moves on. A legacy event first gets every other matching handler recorded as applied,
   * so that the live retry runs only the ones not applied yet.
   */
  private Optional<Visit> failed(Held held, EventCursor at, WebhookEvent event, boolean legacy, RuntimeException e,
      Duration took) {
    String text = FailureText.of(e);
    EventKey key = at.key();
    boolean last = policy.isLast(1);
    boolean apart = citus.distributed();
    try {
      boolean advanced = dsl.transactionResult(cfg -> {
        DSLContext tx = cfg.dsl();
        if (event != null && legacy) {
          List<String> others = new ArrayList<>(dispatcher.names(event));
          others.removeAll(held.handlers());
          others.add(BackfillRows.LEGACY_MARK);
          applied.record(tx, key, others);
        }
        tx.update(events.table())
            .set(EventTable.STATUS, StatusColumn.sql(last ? EventStatus.DEAD : EventStatus.PENDING))
            .set(EventTable.ATTEMPTS, 1)
            .set(EventTable.MAX_ATTEMPTS, policy.maxAttempts())
            .set(EventTable.AVAILABLE_AT, LedgerTime.nowPlus(policy.delayAfter(1, ThreadLocalRandom.current())))
            .set(EventTable.LAST_ERROR, text)
            .setNull(EventTable.SETTLED_AT)
            .setNull(EventTable.LEASE_OWNER)
            .setNull(EventTable.LEASE_UNTIL)
            .where(EventTable.is(key))
            .and(EventTable.STATUS.in(StatusColumn.sql(EventStatus.DONE), StatusColumn.sql(EventStatus.IGNORED),
                StatusColumn.sql(EventStatus.STALE)))
            .execute();
        attempts.record(tx, key, 1, owner, took, last ? "dead" : "retry", RootCause.of(text), text);
        return apart || backfills.advance(tx, held, owner, at, Visit.FAILED, lease);
      }) && (!apart || advanceApart(held, at, Visit.FAILED).isPresent());
      if (!advanced) {
        return Optional.empty();
      }
      log.warn("backfill {}: {} failed; {}: {}", held.id(), key, last ? "the event is dead" : "it is retried as a live"
          + " event", e.getMessage());
      return Optional.of(Visit.FAILED);
    } catch (DataAccessException d) {
      log.warn("backfill {}: the failure on {} could not be recorded ({}); it is visited again", held.id(), key,
          LedgerErrors.describe(d));
      return Optional.empty();
    }
  }

  /**
   * On Citus: moves the cursor past a committed visit, in a transaction of its own.
   *
   * @return the visit; empty if this node no longer holds the backfill, or the cursor could not be
   *     moved (the event is then visited again by the next holder, which finds it applied)
   */
  private Optional<Visit> advanceApart(Held held, EventCursor at, Visit visit) {
    try {
      if (LedgerDsl.inOwnTransaction(dsl, tx -> backfills.advance(tx, held, owner, at, visit, lease))) {
        return Optional.of(visit);
      }
      log.info("backfill {}: taken over by another node or cancelled; this node stops here", held.id());
    } catch (DataAccessException e) {
      log.warn("backfill {}: the cursor could not be moved past {} ({}); it is visited again", held.id(), at.key(),
          LedgerErrors.describe(e));
    }
    return Optional.empty();
  }

  /** Rolls back a visit whose backfill this node no longer holds. */
  private static final class NotHeld extends RuntimeException {
    NotHeld() {
      super(null, null, false, false);
    }
  }
}
