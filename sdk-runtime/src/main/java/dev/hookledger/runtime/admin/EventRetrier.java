package dev.hookledger.runtime.admin;

import static dev.hookledger.runtime.internal.ledger.EventTable.ATTEMPTS;
import static dev.hookledger.runtime.internal.ledger.EventTable.AVAILABLE_AT;
import static dev.hookledger.runtime.internal.ledger.EventTable.LEASE_OWNER;
import static dev.hookledger.runtime.internal.ledger.EventTable.LEASE_UNTIL;
import static dev.hookledger.runtime.internal.ledger.EventTable.SETTLED_AT;
import static dev.hookledger.runtime.internal.ledger.EventTable.STATUS;

import dev.hookledger.runtime.EventStatus;
import dev.hookledger.runtime.internal.ledger.AttemptRows;
import dev.hookledger.runtime.internal.ledger.EventKey;
import dev.hookledger.runtime.internal.ledger.EventTable;
import dev.hookledger.runtime.internal.ledger.LedgerDsl;
import dev.hookledger.runtime.internal.ledger.LedgerTime;
import dev.hookledger.runtime.internal.ledger.StatusColumn;
import java.util.ArrayList;
import java.util.List;
import org.jooq.Condition;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Record;
import org.jooq.UpdateSetMoreStep;
import org.jooq.impl.DSL;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Puts events back in the queue: {@code status = pending}, {@code available_at = now},
 * {@code attempts = 0} (a retried event gets the full retry budget again), lease and
 * {@code settled_at} cleared. {@code last_error} is kept until the next attempt overwrites it, so
 * the operator can still see why the event died. A failing event backing off is made due now,
 * keeping its attempts: "retry now" once its cause is fixed, without waiting out the backoff.
 */
final class EventRetrier {
  private static final Logger log = LoggerFactory.getLogger(EventRetrier.class);

  private final DSLContext db;
  private final EventTable events;
  private final EventReader reader;
  private final AttemptRows attempts;

  EventRetrier(DSLContext db, EventTable events, EventReader reader) {
    this.db = db;
    this.events = events;
    this.reader = reader;
    this.attempts = new AttemptRows(events.schema());
  }

  /**
   * Retries one event that is {@code dead}, or, with {@code force}, settled; or makes a
   * {@code pending} event that is not due yet (a failing one, backing off) due now.
   *
   * @throws OperationRefusedException if the event does not exist, is due or processing already,
   *     or is settled and {@code force} is false; nothing is changed
   */
  void retry(String provider, String scope, String eventId, boolean force) {
    List<EventStatus> allowed = new ArrayList<>(List.of(EventStatus.DEAD));
    if (force) {
      allowed.addAll(StatusColumn.SETTLED);
    }
    EventKey key = new EventKey(provider, scope, eventId);
    String name = key.toString();
    // found by its key alone, locked, judged here, changed by key (EventTable.lockByKey says why)
    Field<Boolean> notDue = DSL.field(AVAILABLE_AT.gt(LedgerTime.NOW));
    String refusal = LedgerDsl.inOwnTransaction(db, tx -> {
      Record row = events.lockByKey(tx, key, List.of(STATUS, notDue));
      if (row == null) {
        return reader.notFound(key);
      }
      String status = row.get(STATUS);
      if (allowed.stream().anyMatch(s -> StatusColumn.sql(s).equals(status))) {
        attempts.recordRetries(tx, events, EventTable.is(key));
        requeue(tx).where(EventTable.is(key)).execute();
        log.info("{} set back to pending by an operator", name);
        return null;
      }
      if (StatusColumn.sql(EventStatus.PENDING).equals(status) && Boolean.TRUE.equals(row.get(notDue))) {
        // backing off: due now, attempts kept (the budget goes on), lease untouched (there is none)
        attempts.recordRetries(tx, events, EventTable.is(key));
        tx.update(events.table()).set(AVAILABLE_AT, LedgerTime.NOW).where(EventTable.is(key)).execute();
        log.info("{} made due now by an operator", name);
        return null;
      }
      return refusal(name, status);
    });
    if (refusal != null) {
      throw new OperationRefusedException(refusal);
    }
  }

  /** Retries every dead event; returns how many. */
  int retryDead() {
    // inlined, so that the partial index on dead rows serves the statement
    int updated = LedgerDsl.inOwnTransaction(db, tx -> requeueDead(tx, EventTable.statusIn(List.of(EventStatus.DEAD))));
    log.info("{} dead events set back to pending by an operator", updated);
    return updated;
  }

  /**
   * Retries every dead event if there are exactly {@code confirmed} of them, as the operator was
   * shown; else changes nothing. The update itself counts them, each row locked as it is set back, so
   * that none dies or is retried by someone else between the count and the change; a count that
   * differs rolls it back. (Not a {@code SELECT ... FOR UPDATE} first: Citus refuses one across shards.)
   *
   * @throws OperationRefusedException if the count differs, naming both
   */
  int retryDead(long confirmed) {
    return db.transactionResult(cfg -> {
      int dead = requeueDead(cfg.dsl(), EventTable.statusIn(List.of(EventStatus.DEAD)));
      ConfirmedCount.require(dead, confirmed, "dead events");
      log.info("{} dead events set back to pending by an operator (confirmed {})", dead, confirmed);
      return dead;
    });
  }

  private static String refusal(String name, String status) {
    if (StatusColumn.SETTLED.stream().anyMatch(s -> StatusColumn.sql(s).equals(status))) {
      return name + " is " + status + ", not dead: only dead and failing events are retried"
          + " (pass --force to run a settled event's handlers again)";
    }
    if (StatusColumn.sql(EventStatus.PROCESSING).equals(status)) {
      return name + " is processing: a worker is running an attempt now";
    }
    // pending and due already, or dead again after a concurrent change: nothing to do now
    return name + " is " + status + " and due already: it is waiting for a worker";
  }

  /** Puts the dead rows {@code where} selects back in the queue, each retry recorded in its event's history. */
  int requeueDead(DSLContext tx, Condition where) {
    attempts.recordRetries(tx, events, where);
    return requeue(tx).where(where).execute();
  }

  /** Records an operator's retry of the rows {@code where} selects, in each event's history, inside {@code tx}. */
  void recordRetries(DSLContext tx, Condition where) {
    attempts.recordRetries(tx, events, where);
  }

  /** The update that puts dead (or settled) rows back in the queue, to be narrowed by a {@code where}. */
  UpdateSetMoreStep<org.jooq.Record> requeue(DSLContext dsl) {
    return dsl.update(events.table())
        .set(STATUS, StatusColumn.sql(EventStatus.PENDING))
        .set(ATTEMPTS, 0)
        .set(AVAILABLE_AT, LedgerTime.NOW)
        .setNull(LEASE_OWNER)
        .setNull(LEASE_UNTIL)
        .setNull(SETTLED_AT);
  }
}
