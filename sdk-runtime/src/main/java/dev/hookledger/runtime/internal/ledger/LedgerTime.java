package dev.hookledger.runtime.internal.ledger;

import java.time.Duration;
import java.time.Instant;
import org.jooq.Field;
import org.jooq.impl.DSL;
import org.jooq.impl.SQLDataType;

/**
 * Due times, leases and settle times as SQL on the database's clock, never a JVM's: one clock for
 * every node, so that a node whose clock runs fast does not see the leases of the others as run out
 * (nor a slow one delay its retries). {@code now()} is the start of the transaction: the statements
 * using it run in short transactions of their own (claim, renewal, reschedule, group commit).
 */
public final class LedgerTime {
  /** The database's {@code now()}. */
  public static final Field<Instant> NOW = DSL.field("now()", SQLDataType.INSTANT);

  /**
   * The start of the current statement: for a settle, the last statement of a transaction that may
   * have run a slow handler, whose {@code now()} is when the handler started.
   */
  static final Field<Instant> STATEMENT_TIME = DSL.field("statement_timestamp()", SQLDataType.INSTANT);

  private LedgerTime() {}

  /** {@code now()} plus {@code length}, bound in milliseconds. */
  public static Field<Instant> nowPlus(Duration length) {
    return nowPlusMillis(DSL.val(length.toMillis()));
  }

  /** {@code now()} plus a number of milliseconds; null if {@code millis} is null. */
  public static Field<Instant> nowPlusMillis(Field<Long> millis) {
    return DSL.field("(now() + {0} * interval '1 millisecond')", SQLDataType.INSTANT, millis);
  }
}
