package dev.hookledger.runtime.internal.ledger;

import static org.jooq.impl.DSL.field;
import static org.jooq.impl.DSL.name;

import java.time.Instant;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Record;
import org.jooq.Table;
import org.jooq.impl.DSL;
import org.jooq.impl.SQLDataType;

/**
 * The {@code minute_count} table of {@code V10__minute_counts.sql}: events received (by
 * {@code received_at}) and finished (by {@code settled_at}: done, ignored, stale, dead) per minute,
 * kept by the event table's statement triggers, in stripes (one per backend, modulo 64) that a
 * reader adds up; from version 13 the rows before {@link #closedBefore} only (from version 20 the
 * minute that holds it in part), counted by
 * {@link MinuteRollUp} and corrected by the triggers for rows written into them later (from version
 * 14 each correction appended in a stripe of its own, 64 and up, until the pass folds it into 0). Not made on a
 * database with the {@code citus} extension, where V2's row triggers keep the counts and nothing keeps
 * this table.
 */
public final class MinuteCountTable {
  public static final Field<Instant> MINUTE = field(name("minute"), SQLDataType.INSTANT);
  public static final Field<Long> RECEIVED = field(name("received"), SQLDataType.BIGINT);
  public static final Field<Long> SETTLED = field(name("settled"), SQLDataType.BIGINT);

  private MinuteCountTable() {}

  /** The table in {@code events}' schema. */
  public static Table<Record> of(EventTable events) {
    return DSL.table(name(events.schema(), "minute_count"));
  }

  /**
   * Where the roll-up pass has counted to ({@code minute_roll_up.closed_before}): the table counts
   * the rows before it, by minute (from version 20 it may fall within a minute, whose row then
   * counts that minute's rows before it). Only on a ledger that {@link #rolledUp} says has the pass.
   */
  public static Instant closedBefore(DSLContext db, EventTable events) {
    return db.fetchSingle("select closed_before from \"" + events.schema() + "\".minute_roll_up").get(0, Instant.class);
  }

  /**
   * Whether the table of the ledger in {@code events}' schema is kept by the roll-up pass
   * ({@link MinuteRollUp}, version 13 or later, not on Citus) rather than by the triggers alone
   * (versions 10 to 12, every minute).
   */
  public static boolean rolledUp(DSLContext db, EventTable events) {
    return exists(db, events, "minute_roll_up");
  }

  /** Whether the ledger in {@code events}' schema keeps the table (version 10 or later, not on Citus). */
  public static boolean kept(DSLContext db, EventTable events) {
    return exists(db, events, "minute_count");
  }

  private static boolean exists(DSLContext db, EventTable events, String table) {
    return db.fetchSingle("select to_regclass(?) is not null", '"' + events.schema() + "\"." + table).get(0, Boolean.class);
  }
}
