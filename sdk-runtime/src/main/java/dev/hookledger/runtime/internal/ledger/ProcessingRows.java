package dev.hookledger.runtime.internal.ledger;

import static dev.hookledger.runtime.internal.ledger.EventTable.*;

import dev.hookledger.WebhookEvent;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.jooq.DSLContext;
import org.jooq.Field;

/**
 * The ledger statements of the processing path: lock a waiting row, settle it, record a failure,
 * list what waits. Thread-safe.
 */
public final class ProcessingRows {
  private final DSLContext dsl;
  private final EventTable events;

  public ProcessingRows(DSLContext dsl, EventTable events) {
    this.dsl = dsl;
    this.events = events;
  }

  /**
   * A waiting row locked for the rest of {@code tx}, or empty if the row is no longer waiting (another
   * attempt settled it while this one waited for the lock: PostgreSQL re-checks the condition on
   * the row it waited for). This is where a lease check belongs when leases exist. The lock is
   * {@code FOR UPDATE}, the one mode that makes the duplicate counter's guard skip the row (see
   * {@link Ledger}), so that a duplicate delivery never waits for a handler.
   *
   * @param withEvent whether to read the whole event (the caller does not hold it in memory)
   */
  public Optional<Locked> lockWaiting(DSLContext tx, EventKey key, boolean withEvent) {
    List<Field<?>> columns = new ArrayList<>(List.of(ATTEMPTS));
    if (withEvent) {
      columns.addAll(EventRows.EVENT_COLUMNS);
    }
    return tx.select(columns).from(events.table())
        .where(EventTable.is(key)).and(STATUS.eq(EventStatus.PENDING.sql()))
        .forUpdate()
        .fetchOptional()
        .map(r -> new Locked(r.get(ATTEMPTS), withEvent ? EventRows.toEvent(r) : null));
  }

  /** Settles a locked row: its final status, the attempt that settled it, when. */
  public void settle(DSLContext tx, EventKey key, EventStatus status, int attempt, Instant now) {
    tx.update(events.table())
        .set(STATUS, status.sql())
        .set(ATTEMPTS, attempt)
        .set(SETTLED_AT, now)
        .setNull(LAST_ERROR)
        .setNull(LEASE_OWNER)
        .setNull(LEASE_UNTIL)
        .where(EventTable.is(key))
        .execute();
  }

  /**
   * Records a failed attempt, in a transaction of its own (the attempt's was rolled back): the row
   * stays {@code pending} with {@code attempts} and {@code last_error} set.
   *
   * @return when the row is available again
   */
  public Optional<Instant> recordFailure(EventKey key, int attempt, String error) {
    return dsl.update(events.table())
        .set(ATTEMPTS, attempt)
        .set(LAST_ERROR, error)
        .where(EventTable.is(key)).and(STATUS.eq(EventStatus.PENDING.sql()))
        .returningResult(AVAILABLE_AT)
        .fetchOptional()
        .map(r -> r.value1());
  }

  /** Up to {@code limit} waiting events available at {@code now}, oldest first; served by the partial index. */
  public List<EventKey> waiting(Instant now, int limit) {
    return dsl.select(PROVIDER, SCOPE, EVENT_ID).from(events.table())
        .where(STATUS.eq(EventStatus.PENDING.sql())).and(AVAILABLE_AT.le(now))
        .orderBy(AVAILABLE_AT)
        .limit(limit)
        .fetch(r -> new EventKey(r.value1(), r.value2(), r.value3()));
  }

  /**
   * A locked row.
   *
   * @param attempts attempts made before this one
   * @param event the event, if it was asked for; else null
   */
  public record Locked(int attempts, WebhookEvent event) {}
}
