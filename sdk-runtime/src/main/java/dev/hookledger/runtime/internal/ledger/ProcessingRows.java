package dev.hookledger.runtime.internal.ledger;

import static dev.hookledger.runtime.internal.ledger.EventTable.*;

import static org.jooq.impl.DSL.inline;
import static org.jooq.impl.DSL.val;

import dev.hookledger.runtime.EventStatus;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.jooq.Condition;
import org.jooq.DSLContext;
import org.jooq.Record1;
import org.jooq.SelectConditionStep;

/**
 * The ledger statements of the processing path: check a lease, settle a row, reschedule or bury a
 * failed attempt. Every statement on a leased row is fenced by the lease's owner and attempt, so a
 * worker whose lease was taken over changes nothing. Thread-safe.
 */
public final class ProcessingRows {
  private final DSLContext dsl;
  private final EventTable events;
  private final String settleLeasedSql;

  public ProcessingRows(DSLContext dsl, EventTable events) {
    this.dsl = dsl;
    this.events = events;
    this.settleLeasedSql = RenderedSql.render(RenderedSql.renderer().update(events.table())
        .set(STATUS, val(""))
        .set(SETTLED_AT, LedgerTime.STATEMENT_TIME)
        .set(LAST_ERROR, inline((String) null, LAST_ERROR))
        .set(LEASE_OWNER, inline((String) null, LEASE_OWNER))
        .set(LEASE_UNTIL, inline((Instant) null, LEASE_UNTIL))
        .where(PROVIDER.eq(val(""))).and(SCOPE.eq(val(""))).and(EVENT_ID.eq(val("")))
        .and(STATUS.eq(inline(StatusColumn.sql(EventStatus.PROCESSING))))
        .and(LEASE_OWNER.eq(val(""))).and(ATTEMPTS.eq(val(0))), 6);
  }

  /**
   * Settles a leased row if {@code lease} still holds, in one statement: the fenced
   * {@code UPDATE ... WHERE lease_owner = ? AND attempts = ?} both checks the lease under the row's
   * lock and settles it, so no claim can take the event over between the check and the commit.
   * It is the last statement before the commit, so the row is locked only for that long (a
   * duplicate delivery's counter waits for it), while a slow handler before it does not keep an
   * expired lease from being taken over.
   *
   * @return false if the lease no longer held (taken over): nothing was changed, and the caller
   *     must roll back
   */
  public boolean settleLeased(DSLContext tx, Lease lease, EventStatus status) {
    return tx.connectionResult(c -> {
      try (PreparedStatement ps = c.prepareStatement(settleLeasedSql)) {
        ps.setString(1, StatusColumn.sql(status));
        ps.setString(2, lease.key().provider());
        ps.setString(3, lease.key().scope());
        ps.setString(4, lease.key().eventId());
        ps.setString(5, lease.owner());
        ps.setInt(6, lease.attempt());
        return ps.executeUpdate() == 1;
      }
    });
  }

  /**
   * Whether {@code lease} still holds: the row is {@code processing} under this owner and attempt.
   *
   * @param lock whether to lock the row {@code FOR UPDATE} for the rest of {@code tx}
   */
  public boolean holds(DSLContext tx, Lease lease, boolean lock) {
    SelectConditionStep<Record1<Integer>> select = tx.select(ATTEMPTS).from(events.table()).where(leased(lease));
    return (lock ? select.forUpdate().fetchOptional() : select.fetchOptional()).isPresent();
  }

  /** Settles a row the caller has just inserted ({@code INLINE}): its final status, the attempt, when; lease cleared. */
  public void settle(DSLContext tx, EventKey key, EventStatus status, int attempt) {
    tx.update(events.table())
        .set(STATUS, StatusColumn.sql(status))
        .set(ATTEMPTS, attempt)
        .set(SETTLED_AT, LedgerTime.STATEMENT_TIME)
        .setNull(LAST_ERROR)
        .setNull(LEASE_OWNER)
        .setNull(LEASE_UNTIL)
        .where(EventTable.is(key))
        .execute();
  }

  /**
   * Records a failed attempt, in a transaction of its own (the attempt's was rolled back): the row
   * is {@code pending} again {@code delay} after the database's {@code now()}, with {@code last_error}
   * set and the lease cleared.
   *
   * @return when the event is due again, by the database's clock; empty if the lease no longer held
   *     (taken over), so nothing was changed
   */
  public Optional<Instant> reschedule(Lease lease, Duration delay, String error) {
    return LedgerDsl.inOwnTransaction(dsl, tx -> tx.update(events.table())
        .set(STATUS, StatusColumn.sql(EventStatus.PENDING))
        .set(AVAILABLE_AT, LedgerTime.nowPlus(delay))
        .set(LAST_ERROR, error)
        .setNull(LEASE_OWNER)
        .setNull(LEASE_UNTIL)
        .where(leased(lease))
        .returningResult(AVAILABLE_AT)
        .fetchOptional(AVAILABLE_AT));
  }

  /**
   * Records the failure of the last allowed attempt: the row is {@code dead}, keeps the error, and
   * waits for an operator.
   *
   * @return false if the lease no longer held (taken over), so nothing was changed
   */
  public boolean bury(Lease lease, String error) {
    return LedgerDsl.inOwnTransaction(dsl, tx -> tx.update(events.table())
        .set(STATUS, StatusColumn.sql(EventStatus.DEAD))
        .set(LAST_ERROR, error)
        .setNull(LEASE_OWNER)
        .setNull(LEASE_UNTIL)
        .where(leased(lease))
        .execute()) == 1;
  }

  private static Condition leased(Lease lease) {
    return EventTable.is(lease.key())
        .and(STATUS.eq(StatusColumn.sql(EventStatus.PROCESSING)))
        .and(LEASE_OWNER.eq(lease.owner()))
        .and(ATTEMPTS.eq(lease.attempt()));
  }
}
