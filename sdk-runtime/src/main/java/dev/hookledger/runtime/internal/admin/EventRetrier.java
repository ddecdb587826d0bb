package dev.hookledger.runtime.internal.admin;

import static dev.hookledger.runtime.internal.admin.LedgerTables.ATTEMPTS;
import static dev.hookledger.runtime.internal.admin.LedgerTables.AVAILABLE_AT;
import static dev.hookledger.runtime.internal.admin.LedgerTables.DEAD;
import static dev.hookledger.runtime.internal.admin.LedgerTables.EVENT_ID;
import static dev.hookledger.runtime.internal.admin.LedgerTables.LEASE_OWNER;
import static dev.hookledger.runtime.internal.admin.LedgerTables.LEASE_UNTIL;
import static dev.hookledger.runtime.internal.admin.LedgerTables.PENDING;
import static dev.hookledger.runtime.internal.admin.LedgerTables.PROVIDER;
import static dev.hookledger.runtime.internal.admin.LedgerTables.SCOPE;
import static dev.hookledger.runtime.internal.admin.LedgerTables.SETTLED;
import static dev.hookledger.runtime.internal.admin.LedgerTables.SETTLED_AT;
import static dev.hookledger.runtime.internal.admin.LedgerTables.STATUS;
import static org.jooq.impl.DSL.inline;

import dev.hookledger.runtime.admin.OperationRefusedException;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.jooq.Condition;
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
public final class EventRetrier {
  private static final Logger log = LoggerFactory.getLogger(EventRetrier.class);

  private final DSLContext db;
  private final LedgerTables tables;
  private final Clock clock;

  public EventRetrier(DSLContext db, LedgerTables tables, Clock clock) {
    this.db = db;
    this.tables = tables;
    this.clock = clock;
  }

  /**
   * Retries one event that is {@code dead}, or, with {@code force}, settled.
   *
   * @throws OperationRefusedException if the event does not exist, is still waiting, or is settled
   *     and {@code force} is false; nothing is changed
   */
  public void retry(String provider, String scope, String eventId, boolean force) {
    List<String> allowed = new ArrayList<>(List.of(DEAD));
    if (force) {
      allowed.addAll(SETTLED);
    }
    int updated = requeue()
        .where(PROVIDER.eq(provider), SCOPE.eq(scope), EVENT_ID.eq(eventId), STATUS.in(allowed))
        .execute();
    String name = provider + " event " + eventId + (scope.isEmpty() ? "" : " (scope " + scope + ")");
    if (updated == 1) {
      log.info("{} set back to pending by an operator", name);
      return;
    }
    String status = db.select(STATUS).from(tables.event())
        .where(PROVIDER.eq(provider), SCOPE.eq(scope), EVENT_ID.eq(eventId))
        .fetchOne(STATUS);
    throw new OperationRefusedException(refusal(name, status));
  }

  /** Retries every dead event; returns how many. */
  public int retryDead() {
    int updated = requeue().where(deadOnly()).execute();
    log.info("{} dead events set back to pending by an operator", updated);
    return updated;
  }

  private static String refusal(String name, String status) {
    if (status == null) {
      return name + " is not in the ledger";
    }
    if (SETTLED.contains(status)) {
      return name + " is " + status + ", not dead: only dead events are retried"
          + " (force it to run a settled event's handlers again)";
    }
    // pending or processing, or dead again after a concurrent change: nothing to do now
    return name + " is " + status + ": it is already waiting for a worker";
  }

  private UpdateSetMoreStep<org.jooq.Record> requeue() {
    Instant now = clock.instant();
    return db.update(tables.event())
        .set(STATUS, PENDING)
        .set(ATTEMPTS, 0)
        .set(AVAILABLE_AT, now)
        .setNull(LEASE_OWNER)
        .setNull(LEASE_UNTIL)
        .setNull(SETTLED_AT);
  }

  /** Inlined so that the partial index on dead rows serves the statement. */
  private static Condition deadOnly() {
    return STATUS.eq(inline(DEAD));
  }
}
