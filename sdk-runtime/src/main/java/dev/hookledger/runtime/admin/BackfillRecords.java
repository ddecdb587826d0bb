package dev.hookledger.runtime.admin;

import static dev.hookledger.runtime.internal.ledger.BackfillRows.*;
import static org.jooq.impl.DSL.field;
import static org.jooq.impl.DSL.name;

import dev.hookledger.runtime.internal.ledger.BackfillRows;
import dev.hookledger.runtime.internal.ledger.EventTable;
import dev.hookledger.runtime.internal.ledger.LedgerTime;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.jooq.Condition;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Record;
import org.jooq.Table;
import org.jooq.impl.DSL;
import org.jooq.impl.SQLDataType;

/**
 * The operator's side of the backfill table: records a backfill, counts what one would do, lists,
 * finds and cancels them, as the public {@link Backfill} values. The workers' side (claim, page,
 * advance) is {@link BackfillRows}, which knows none of the public types. Thread-safe.
 */
final class BackfillRecords {
  private final EventTable events;
  private final BackfillRows rows;
  private final Table<Record> applied;

  BackfillRecords(EventTable events) {
    this.events = events;
    this.rows = new BackfillRows(events);
    this.applied = DSL.table(name(events.schema(), "handler_applied"));
  }

  /** Records a new backfill, its window's end fixed now if the request has none; returns it. */
  Backfill create(DSLContext tx, BackfillRequest r) {
    Instant until = r.until().orElseGet(() -> tx.select(LedgerTime.NOW).fetchSingle().value1());
    long selected = tx.fetchCount(events.table(), BackfillRows.selection(r.provider().orElse(null), r.type(),
        r.since().orElse(null), until));
    long id = tx.insertInto(rows.table())
        .set(HANDLERS, r.handlers().toArray(String[]::new))
        .set(PROVIDER, r.provider().orElse(null))
        .set(TYPE_PATTERN, r.type())
        .set(SINCE, r.since().orElse(null))
        .set(UNTIL, until)
        .set(LEGACY, r.legacy().name().toLowerCase(Locale.ROOT))
        .set(MAX_PER_SECOND, r.maxPerSecond())
        .set(MAX_BACKLOG, r.maxBacklog())
        .set(SELECTED, selected)
        .returningResult(ID).fetchSingle().value1();
    return find(tx, id).orElseThrow();
  }

  /** Counts what {@code r} would do now; writes nothing. */
  BackfillPlan plan(DSLContext dsl, BackfillRequest r) {
    Instant until = r.until().orElse(null);
    Condition window = BackfillRows.selection(r.provider().orElse(null), r.type(), r.since().orElse(null), until);
    String[] names = r.handlers().toArray(String[]::new);
    Field<Integer> named = DSL.selectCount().from(applied).where(rows.sameEvent())
        .and(field(name("handler"), SQLDataType.VARCHAR).in(Arrays.asList(names))).asField();
    Condition allApplied = named.eq(names.length);
    Condition legacy = rows.legacy();
    Record rec = dsl.select(DSL.count(), DSL.count().filterWhere(allApplied),
            DSL.count().filterWhere(legacy.andNot(allApplied)),
            DSL.count().filterWhere(r.legacy() == LegacyEvents.SKIP ? allApplied.not().andNot(legacy) : allApplied.not()))
        .from(events.table()).where(window)
        .fetchSingle();
    return new BackfillPlan(rec.get(0, Long.class), rec.get(1, Long.class), rec.get(2, Long.class),
        rec.get(3, Long.class));
  }

  /** Every backfill, newest first, up to {@code limit}. */
  List<Backfill> list(DSLContext dsl, int limit) {
    return dsl.select(BackfillRows.columns()).from(rows.table()).orderBy(ID.desc()).limit(limit).fetch(BackfillRecords::toBackfill);
  }

  Optional<Backfill> find(DSLContext dsl, long id) {
    return dsl.select(BackfillRows.columns()).from(rows.table()).where(ID.eq(id)).fetchOptional(BackfillRecords::toBackfill);
  }

  /** Cancels a running backfill; false if there is none of that id running. */
  boolean cancel(DSLContext tx, long id) {
    return tx.update(rows.table()).set(STATUS, "cancelled").set(FINISHED_AT, LedgerTime.NOW).set(UPDATED_AT, LedgerTime.NOW)
        .setNull(LEASE_OWNER).setNull(LEASE_UNTIL)
        .where(ID.eq(id)).and(STATUS.eq("running")).execute() == 1;
  }

  private static LegacyEvents legacy(String sql) {
    return LegacyEvents.valueOf(sql.toUpperCase(Locale.ROOT));
  }

  private static Backfill toBackfill(Record r) {
    return new Backfill(r.get(ID), List.of(r.get(HANDLERS)), r.get(PROVIDER), r.get(TYPE_PATTERN), r.get(SINCE),
        r.get(UNTIL), legacy(r.get(LEGACY)), BackfillStatus.valueOf(r.get(STATUS).toUpperCase(Locale.ROOT)),
        r.get(SELECTED), r.get(APPLIED), r.get(SKIPPED), r.get(FAILED), r.get(LEASE_OWNER), r.get(CREATED_AT),
        r.get(FINISHED_AT));
  }
}
