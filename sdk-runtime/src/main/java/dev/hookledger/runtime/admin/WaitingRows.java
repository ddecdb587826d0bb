package dev.hookledger.runtime.admin;

import static dev.hookledger.runtime.internal.ledger.EventTable.ATTEMPTS;
import static dev.hookledger.runtime.internal.ledger.EventTable.AVAILABLE_AT;
import static dev.hookledger.runtime.internal.ledger.EventTable.LAST_ERROR;
import static dev.hookledger.runtime.internal.ledger.EventTable.STATUS;
import static org.jooq.impl.DSL.inline;

import dev.hookledger.runtime.EventStatus;
import dev.hookledger.runtime.internal.ledger.EventTable;
import dev.hookledger.runtime.internal.ledger.LedgerDsl;
import dev.hookledger.runtime.internal.ledger.LedgerTime;
import dev.hookledger.runtime.internal.ledger.StatusColumn;
import java.time.Duration;
import java.time.Instant;
import java.util.function.Function;
import org.jooq.Condition;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.impl.DSL;
import org.jooq.impl.SQLDataType;

/**
 * The operator's groups of waiting rows as SQL, one definition for the counts, the lists and the
 * summaries. Every condition includes {@link EventTable#WAITING} (inlined), so that the partial
 * index on waiting rows serves it, and judges time by the database's {@code now()}, as the claims do.
 */
final class WaitingRows {
  private static final Condition PENDING = STATUS.eq(inline(StatusColumn.sql(EventStatus.PENDING)));
  private static final Condition PROCESSING = STATUS.eq(inline(StatusColumn.sql(EventStatus.PROCESSING)));

  /**
   * Waiting after at least one failed attempt: {@code pending} with an attempt counted and an error
   * kept, or {@code processing} its second attempt or later (a claim counts the attempt it starts).
   * A retried dead event (attempts back to 0, error kept) is not failing until it fails again.
   */
  static final Condition FAILING = EventTable.WAITING.and(LAST_ERROR.isNotNull())
      .and(PENDING.and(ATTEMPTS.ge(inline(1))).or(PROCESSING.and(ATTEMPTS.ge(inline(2)))));

  /**
   * Failing and not due yet: {@code pending} after a failed attempt, waiting out its backoff; what
   * "retry now" makes due. No worker claims such a row until it is due.
   */
  static final Condition BACKING_OFF = FAILING.and(PENDING).and(AVAILABLE_AT.gt(LedgerTime.NOW));

  private WaitingRows() {}

  /**
   * Runs {@code read} in a transaction of its own whose plans read indexes in their order, never
   * a bitmap of every matching row nor the table: so that a read that stops at its limit
   * ({@code ORDER BY} an index's key, {@code LIMIT}) is planned to stop there whatever the table's
   * statistics say. After a bulk retry they say that few rows wait until the next analyze (a retry
   * of 100,000 events in a ledger of 10 million triggers none), and on that estimate the planner
   * read every waiting row into a bitmap and sorted them, to keep the first 10,001: all of them read,
   * the cost the limit was there to bound.
   */
  static <T> T inIndexOrder(DSLContext db, Function<DSLContext, T> read) {
    return LedgerDsl.inOwnTransaction(db, tx -> {
      // one round trip, as SET LOCAL: for this transaction only
      tx.fetch("select set_config('enable_bitmapscan', 'off', true), set_config('enable_seqscan', 'off', true)");
      return read.apply(tx);
    });
  }

  /**
   * Due for longer than {@code after} and not taken: a {@code processing} row's due time is its
   * lease's end (claims and renewals set both), so this is an expired lease no live worker took
   * over, or a {@code pending} event no worker claimed.
   */
  static Condition stuck(Duration after) {
    return EventTable.WAITING.and(AVAILABLE_AT.lt(minus(after)));
  }

  /** {@link #stuck} as a column of a select. */
  static Field<Boolean> stuckField(Duration after) {
    return DSL.field(stuck(after)).as("stuck");
  }

  private static Field<Instant> minus(Duration d) {
    return DSL.field("(now() - {0} * interval '1 millisecond')", SQLDataType.INSTANT, DSL.val(d.toMillis()));
  }
}
