package dev.hookledger.runtime.internal.ledger;

import static dev.hookledger.runtime.internal.ledger.EventTable.*;
import static org.jooq.impl.DSL.inline;
import static org.jooq.impl.DSL.val;

import dev.hookledger.WebhookEvent;
import dev.hookledger.runtime.EventSource;
import dev.hookledger.runtime.EventStatus;
import java.sql.Array;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.jooq.Condition;
import org.jooq.DSLContext;
import org.jooq.Record1;
import org.jooq.SelectConditionStep;
import org.jooq.impl.DefaultTransactionProvider;

/**
 * The ledger statements of the processing path: check a lease, settle a row, reschedule or bury a
 * failed attempt. Every statement on a leased row is fenced by the lease's owner and attempt, so a
 * worker whose lease was taken over changes nothing. Thread-safe.
 */
public final class ProcessingRows {
  private final DSLContext dsl;
  private final EventTable events;
  private final AttemptRows attempts;
  private final int maxAttempts;
  /**
   * The fenced settle and the record of the handlers that ran, in one statement: the insert into
   * {@code handler_applied} runs only once the fenced update settled the row (so it follows the
   * event row's lock, in the order a backfill takes them), and the statement's one value divides
   * one by the settled rows and by whether the insert recorded as many names as it must, so that a
   * lost lease or a handler found applied already fails it (division by zero) and, with it, the
   * transaction on the server.
   */
  private final String settleLeasedSql;
  /**
   * {@link #settleLeasedSql} and {@code COMMIT} as one request, one round trip: when the settle fails,
   * the server skips the {@code COMMIT} that follows it in the same request (an error discards the
   * rest up to the Sync), leaving the transaction aborted for the caller to roll back.
   */
  private final String settleLeasedAndCommitSql;
  /** Whether the runtime's transactions are jOOQ's own on a connection of their own, which it may commit itself. */
  private final boolean commitsItself;

  /** On Citus: the fenced settle alone, then the record as a multi-row insert; see {@link #settleOnOneShard}. */
  private final String settleUpdateSql;
  private final CitusLedger citus;

  /** @param maxAttempts the retry policy's, recorded on each row this settles or fails */
  public ProcessingRows(DSLContext dsl, EventTable events, int maxAttempts) {
    this(dsl, events, maxAttempts, CitusLedger.known(false));
  }

  /** @param citus whether the ledger is distributed: then the settle goes as statements Citus routes to one shard */
  public ProcessingRows(DSLContext dsl, EventTable events, int maxAttempts, CitusLedger citus) {
    this.citus = citus;
    this.dsl = dsl;
    this.events = events;
    this.attempts = new AttemptRows(events.schema());
    this.maxAttempts = maxAttempts;
    String update = RenderedSql.render(RenderedSql.renderer().update(events.table())
        .set(STATUS, val(""))
        .set(MAX_ATTEMPTS, val(0))
        .set(SETTLED_AT, LedgerTime.STATEMENT_TIME)
        .set(LAST_ERROR, inline((String) null, LAST_ERROR))
        .set(LEASE_OWNER, inline((String) null, LEASE_OWNER))
        .set(LEASE_UNTIL, inline((Instant) null, LEASE_UNTIL))
        .where(PROVIDER.eq(val(""))).and(SCOPE.eq(val(""))).and(EVENT_ID.eq(val("")))
        .and(LEASE_OWNER.eq(val(""))).and(ATTEMPTS.eq(val(0))), 7); // leased(lease), bound: no status test
    this.settleUpdateSql = update;
    this.settleLeasedSql = "with settled as (" + update + " returning 1),"
        + " recorded as (" + AppliedRows.recordSql(events.schema(), "exists (select from settled)") + ")"
        + " select 1 / (select count(*) from settled) / ((select count(*) from recorded) >= ?)::int";
    this.settleLeasedAndCommitSql = settleLeasedSql + "; commit";
    this.commitsItself = dsl.configuration().transactionProvider() instanceof DefaultTransactionProvider;
  }

  /**
   * Whether {@link #settleLeasedAndCommit} may be used: the runtime's transactions are jOOQ's own. Under an
   * application's transaction manager (Spring's) only that manager commits.
   */
  public boolean commitsWithSettle() {
    return commitsItself;
  }

  /**
   * As {@link #settleLeased}, and commits the transaction in the same round trip: the server fails
   * the transaction instead of committing it when the settle fails. The connection's commit that
   * follows (jOOQ's) then finds no transaction open and sends nothing. Only where
   * {@link #commitsWithSettle()}.
   *
   * @return false if the settle failed: nothing was committed, and the caller must roll back
   */
  public boolean settleLeasedAndCommit(DSLContext tx, Lease lease, EventStatus status, Applied applied) {
    return settle(tx, settleLeasedAndCommitSql, lease, status, applied);
  }

  /**
   * Settles a leased row if {@code lease} still holds, and records the handlers that applied the
   * event, in one statement: the fenced {@code UPDATE ... WHERE lease_owner = ? AND attempts = ?}
   * both checks the lease under the row's lock and settles it, so no claim can take the event over
   * between the check and the commit. It is the last statement before the commit, so the row is
   * locked only for that long (a duplicate delivery's counter waits for it), while a slow handler
   * before it does not keep an expired lease from being taken over.
   *
   * @return false if the settle failed, the lease no longer holding (taken over) or, where
   *     {@link Applied#allNew}, a handler recorded as applied already by a committed transaction:
   *     the transaction is failed, and the caller must roll back
   */
  public boolean settleLeased(DSLContext tx, Lease lease, EventStatus status, Applied applied) {
    return settle(tx, settleLeasedSql, lease, status, applied);
  }

  private boolean settle(DSLContext tx, String sql, Lease lease, EventStatus status, Applied applied) {
    if (citus.distributed()) {
      return settleOnOneShard(tx, lease, status, applied);
    }
    return tx.connectionResult(c -> {
      try (PreparedStatement ps = c.prepareStatement(sql)) {
        bindFencedUpdate(ps, status, lease);
        ps.setString(8, lease.key().provider());
        ps.setString(9, lease.key().scope());
        ps.setString(10, lease.key().eventId());
        Array names = c.createArrayOf("text", applied.handlers().toArray());
        try {
          ps.setArray(11, names);
          ps.setInt(12, applied.allNew() ? applied.handlers().size() : 0);
          ps.execute();
          return true;
        } finally {
          names.free();
        }
      } catch (SQLException e) {
        if (DIVISION_BY_ZERO.equals(e.getSQLState())) {
          return false;
        }
        throw e;
      }
    });
  }

  /**
   * The settle on a ledger distributed by Citus: the fenced update, then the record of the handlers as
   * an {@code INSERT ... VALUES} of the event's key, each a statement Citus routes to the event's
   * shard. The one-statement settle's CTEs and {@code INSERT ... SELECT unnest(?)} are planned by
   * Citus through the coordinator, with intermediate results copied to the workers: every settle was a
   * transaction on both workers of a cluster, committed in two phases. The transaction is the same;
   * a second round trip where handlers ran; the commit is the caller's.
   */
  private boolean settleOnOneShard(DSLContext tx, Lease lease, EventStatus status, Applied applied) {
    return tx.connectionResult(c -> {
      try (PreparedStatement ps = c.prepareStatement(settleUpdateSql)) {
        bindFencedUpdate(ps, status, lease);
        if (ps.executeUpdate() != 1) {
          return false;
        }
      }
      if (applied.handlers().isEmpty()) {
        return true;
      }
      List<String> names = applied.handlers();
      try (PreparedStatement ps = c.prepareStatement(AppliedRows.valuesSql(events.schema(), names.size()))) {
        AppliedRows.bindValues(ps, lease.key(), names);
        int recorded = AppliedRows.inserted(ps).size();
        return !applied.allNew() || recorded == names.size();
      }
    });
  }

  /** Binds the fenced update's seven values, the first of the settle's statement. */
  private void bindFencedUpdate(PreparedStatement ps, EventStatus status, Lease lease) throws SQLException {
    ps.setString(1, StatusColumn.sql(status));
    ps.setInt(2, maxAttempts);
    ps.setString(3, lease.key().provider());
    ps.setString(4, lease.key().scope());
    ps.setString(5, lease.key().eventId());
    ps.setString(6, lease.owner());
    ps.setInt(7, lease.attempt());
  }

  /** What the settle's fence raises, and only it can in that statement: nothing settled or recorded as it must be. */
  private static final String DIVISION_BY_ZERO = "22012";

  /**
   * The handlers an attempt ran, recorded in {@code handler_applied} by its settle.
   *
   * @param handlers their names, never null (empty when none ran)
   * @param allNew whether each must be new to the record, else the settle fails: a first attempt,
   *     which did not read the record before its handlers ran
   */
  public record Applied(List<String> handlers, boolean allNew) {
    /** No handler ran: nothing to record. */
    public static final Applied NONE = new Applied(List.of(), false);
  }

  /**
   * Records, inside the settling transaction {@code tx}, the attempt that succeeded after failures,
   * or after an operator's retry of a failed event (a first attempt that succeeds records none: the
   * event row says it all, and the hot path stays one statement).
   */
  public void recordSuccess(DSLContext tx, Lease lease, EventStatus status, Duration took) {
    if (lease.attempt() > 1 || lease.afterFailure()) {
      attempts.record(tx, lease.key(), lease.attempt(), lease.owner(), took, StatusColumn.sql(status), null, null);
    }
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

  /**
   * The row of an event whose first attempt runs in the transaction that inserts it ({@code INLINE}):
   * settled {@code done} by the insert, with this policy's attempts; {@link #settle} changes it if the
   * attempt ends otherwise.
   */
  public NewRow doneByInsert(WebhookEvent event) {
    return NewRow.doneInline(event, EventSource.DELIVERY, maxAttempts);
  }

  /** Settles a row the caller has just inserted ({@code INLINE}): its final status, the attempt, when; lease cleared. */
  public void settle(DSLContext tx, EventKey key, EventStatus status, int attempt) {
    tx.update(events.table())
        .set(STATUS, StatusColumn.sql(status))
        .set(ATTEMPTS, attempt)
        .set(MAX_ATTEMPTS, maxAttempts)
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
  public Optional<Instant> reschedule(Lease lease, Duration delay, Failure failure) {
    return LedgerDsl.inOwnTransaction(dsl, tx -> {
      Optional<Instant> due = tx.update(events.table())
          .set(STATUS, StatusColumn.sql(EventStatus.PENDING))
          .set(AVAILABLE_AT, LedgerTime.nowPlus(delay))
          .set(LAST_ERROR, failure.error())
          .set(MAX_ATTEMPTS, maxAttempts)
          .setNull(LEASE_OWNER)
          .setNull(LEASE_UNTIL)
          .where(leased(lease))
          .returningResult(AVAILABLE_AT)
          .fetchOptional(AVAILABLE_AT);
      due.ifPresent(d -> recordFailure(tx, lease, "retry", failure));
      return due;
    });
  }

  /**
   * A failed attempt as it is kept.
   *
   * @param error the whole error
   * @param cause its root cause in one line
   * @param took how long the attempt ran
   */
  public record Failure(String error, String cause, Duration took) {}

  private void recordFailure(DSLContext tx, Lease lease, String outcome, Failure failure) {
    attempts.record(tx, lease.key(), lease.attempt(), lease.owner(), failure.took(), outcome, failure.cause(),
        failure.error());
  }

  /**
   * Records the failure of the last allowed attempt: the row is {@code dead}, keeps the error, and
   * waits for an operator.
   *
   * @return false if the lease no longer held (taken over), so nothing was changed
   */
  public boolean bury(Lease lease, Failure failure) {
    return LedgerDsl.inOwnTransaction(dsl, tx -> {
      boolean buried = tx.update(events.table())
          .set(STATUS, StatusColumn.sql(EventStatus.DEAD))
          .set(LAST_ERROR, failure.error())
          .set(MAX_ATTEMPTS, maxAttempts)
          .setNull(LEASE_OWNER)
          .setNull(LEASE_UNTIL)
          .where(leased(lease))
          .execute() == 1;
      if (buried) {
        recordFailure(tx, lease, "dead", failure);
      }
      return buried;
    });
  }

  /**
   * The fence of every statement on a leased row: its key, owner and attempt. A row has a
   * {@code lease_owner} exactly while it is {@code processing} (each claim sets both; each settle,
   * reschedule, burial, release and operator's retry clears the owner as it leaves the status; a new
   * row is inserted {@code processing} only with its owner, {@link NewRow}), so the owner stands for
   * the status. The status is deliberately not tested as well: {@code status = 'processing'} implies
   * the predicate of {@code event_waiting_idx}, and where statistics were taken with few rows waiting
   * (any ledger analysed while idle) the planner then reads that index with the key as a mere filter,
   * every waiting row per statement: a settle cost 883 buffer touches and 5.4 ms behind a backlog of
   * thousands on a 10-million-event ledger, 43 and 0.6 ms by its key.
   */
  static Condition leased(Lease lease) {
    return EventTable.is(lease.key())
        .and(LEASE_OWNER.eq(lease.owner()))
        .and(ATTEMPTS.eq(lease.attempt()));
  }
}
