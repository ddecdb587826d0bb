package dev.hookledger.runtime.internal.ledger;

import static org.jooq.impl.DSL.field;
import static org.jooq.impl.DSL.name;

import dev.hookledger.runtime.EventStatus;
import java.time.Instant;
import java.util.List;
import org.jooq.Condition;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Record;
import org.jooq.Record4;
import org.jooq.Select;
import org.jooq.Table;
import org.jooq.impl.DSL;
import org.jooq.impl.SQLDataType;

/**
 * The {@code status_count} table of {@code V2__status_counts.sql}: finished events (done, ignored,
 * stale, dead) and their duplicate deliveries per provider and status, kept by triggers on the event
 * table as rows settle, change status and are deleted, in stripes (one per backend, modulo 64) that
 * a reader adds up; from version 14 an inserted or updated row's change is appended in a stripe of its
 * own (64 and up) until {@link MinuteRollUp} folds it into stripe 0. Waiting rows are not in it: they
 * are counted through their partial index.
 *
 * <p>From version 22 it counts, as {@code minute_count} does, the finished rows settled before
 * {@code minute_roll_up.closed_before} (or with no settle time): the pass adds the rows of the times
 * it closes, and a reader adds those settled since, in the same statement ({@link #counted}). A live
 * settle writes no count row.
 */
public final class StatusCountTable {
  public static final Field<String> PROVIDER = field(name("provider"), SQLDataType.VARCHAR);
  public static final Field<String> STATUS = field(name("status"), SQLDataType.VARCHAR);
  public static final Field<Long> EVENTS = field(name("events"), SQLDataType.BIGINT);
  public static final Field<Long> DUPLICATES = field(name("duplicates"), SQLDataType.BIGINT);

  private static final Field<Instant> CLOSED_BEFORE = field(name("closed_before"), SQLDataType.INSTANT);

  private StatusCountTable() {}

  /** The table in {@code events}' schema. */
  public static Table<Record> of(EventTable events) {
    return DSL.table(name(events.schema(), "status_count"));
  }

  /**
   * Whether the ledger in {@code events}' schema counts finished rows by the roll-up pass (version 22
   * on, not on Citus): the table then lacks the rows settled since {@code closed_before}.
   */
  public static boolean rolledUp(DSLContext db, EventTable events) {
    return db.fetchSingle("select exists (select 1 from pg_trigger where tgrelid = to_regclass(?)"
        + " and tgname = 'minute_roll_up_status_count')", '"' + events.schema() + "\".minute_roll_up")
        .get(0, Boolean.class);
  }

  /**
   * The finished events per provider and status, as rows of {@link #PROVIDER}, {@link #STATUS},
   * {@link #EVENTS} and {@link #DUPLICATES} for a reader to add up (only those of {@code statuses}):
   * the table's rows, and where the pass keeps it ({@code rolledUp}) one row per finished event
   * settled since {@code closed_before}, read through the settled-at indexes in the same statement,
   * so that a pass committing meanwhile is counted once.
   */
  public static Table<?> counted(EventTable events, boolean rolledUp, List<EventStatus> statuses) {
    Condition mine = STATUS.in(statuses.stream().map(StatusColumn::sql).toList());
    var table = DSL.select(PROVIDER, STATUS, EVENTS, DUPLICATES).from(of(events)).where(mine);
    if (!rolledUp) {
      return table.asTable("counted");
    }
    Field<Instant> closed = DSL.field(DSL.select(CLOSED_BEFORE).from(DSL.table(name(events.schema(), "minute_roll_up"))));
    Field<Long> one = DSL.inline(1L);
    Field<Long> duplicates = EventTable.DUPLICATES.cast(SQLDataType.BIGINT);
    List<EventStatus> settled = statuses.stream().filter(StatusColumn.SETTLED::contains).toList();
    Select<Record4<String, String, Long, Long>> all = table;
    // each arm spelled as a settled-at index's predicate (inlined), so that it reads that index
    if (!settled.isEmpty()) {
      all = all.unionAll(DSL.select(EventTable.PROVIDER, EventTable.STATUS, one, duplicates).from(events.table())
          .where(EventTable.statusIn(StatusColumn.SETTLED), EventTable.SETTLED_AT.ge(closed),
              EventTable.statusIn(settled)));
    }
    if (statuses.contains(EventStatus.DEAD)) {
      all = all.unionAll(DSL.select(EventTable.PROVIDER, EventTable.STATUS, one, duplicates).from(events.table())
          .where(EventTable.statusIn(List.of(EventStatus.DEAD)), EventTable.SETTLED_AT.ge(closed)));
    }
    return all.asTable("counted");
  }
}
