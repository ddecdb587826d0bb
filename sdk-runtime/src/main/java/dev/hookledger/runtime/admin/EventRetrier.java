package dev.hookledger.runtime.admin;

import static dev.hookledger.runtime.internal.ledger.EventTable.ATTEMPTS;
import static dev.hookledger.runtime.internal.ledger.EventTable.AVAILABLE_AT;
import static dev.hookledger.runtime.internal.ledger.EventTable.LEASE_OWNER;
import static dev.hookledger.runtime.internal.ledger.EventTable.LEASE_UNTIL;
import static dev.hookledger.runtime.internal.ledger.EventTable.SETTLED_AT;
import static dev.hookledger.runtime.internal.ledger.EventTable.STATUS;

import dev.hookledger.runtime.EventStatus;
import dev.hookledger.runtime.internal.ledger.EventKey;
import dev.hookledger.runtime.internal.ledger.EventTable;
import dev.hookledger.runtime.internal.ledger.LedgerTime;
import dev.hookledger.runtime.internal.ledger.StatusColumn;
import java.util.ArrayList;
import java.util.List;
import org.jooq.DSLContext;
import org.jooq.UpdateSetMoreStep;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Puts events back in the queue: {@code status = pending}, {@code available_at = now},
 * {@code attempts = 0} (a retried event gets the full retry budget again), lease and
 * {@code settled_at} cleared. {@code last_error} is kept until the next attempt overwrites it, so
 * the operator can still see why the event died.
 */
final class EventRetrier {
  private static final Logger log = LoggerFactory.getLogger(EventRetrier.class);

  private final DSLContext db;
  private final EventTable events;

  EventRetrier(DSLContext db, EventTable events) {
    this.db = db;
    this.events = events;
  }

  /**
   * Retries one event that is {@code dead}, or, with {@code force}, settled.
   *
   * @throws OperationRefusedException if the event does not exist, is still waiting, or is settled
   *     and {@code force} is false; nothing is changed
   */
  void retry(String provider, String scope, String eventId, boolean force) {
    List<EventStatus> allowed = new ArrayList<>(List.of(EventStatus.DEAD));
    if (force) {
      allowed.addAll(StatusColumn.SETTLED);
    }
    EventKey key = new EventKey(provider, scope, eventId);
    int updated = requeue().where(EventTable.is(key), EventTable.statusIn(allowed)).execute();
    String name = key.toString();
    if (updated == 1) {
      log.info("{} set back to pending by an operator", name);
      return;
    }
    String status = db.select(STATUS).from(events.table()).where(EventTable.is(key)).fetchOne(STATUS);
    throw new OperationRefusedException(refusal(name, status));
  }

  /** Retries every dead event; returns how many. */
  int retryDead() {
    // inlined, so that the partial index on dead rows serves the statement
    int updated = requeue().where(EventTable.statusIn(List.of(EventStatus.DEAD))).execute();
    log.info("{} dead events set back to pending by an operator", updated);
    return updated;
  }

  private static String refusal(String name, String status) {
    if (status == null) {
      return name + " is not in the ledger";
    }
    if (StatusColumn.SETTLED.stream().anyMatch(s -> StatusColumn.sql(s).equals(status))) {
      return name + " is " + status + ", not dead: only dead events are retried"
          + " (force it to run a settled event's handlers again)";
    }
    // pending or processing, or dead again after a concurrent change: nothing to do now
    return name + " is " + status + ": it is already waiting for a worker";
  }

  private UpdateSetMoreStep<org.jooq.Record> requeue() {
    return db.update(events.table())
        .set(STATUS, StatusColumn.sql(EventStatus.PENDING))
        .set(ATTEMPTS, 0)
        .set(AVAILABLE_AT, LedgerTime.NOW)
        .setNull(LEASE_OWNER)
        .setNull(LEASE_UNTIL)
        .setNull(SETTLED_AT);
  }
}
