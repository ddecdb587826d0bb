package dev.hookledger.runtime.internal.ledger;

import static org.jooq.impl.DSL.field;
import static org.jooq.impl.DSL.name;

import java.time.Instant;
import java.util.List;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Record;
import org.jooq.Table;
import org.jooq.impl.DSL;
import org.jooq.impl.SQLDataType;

/**
 * The {@code after_commit_failure} table of V16: per provider, how many {@code afterCommit} actions
 * threw, and the last one's time, event and error. One row a provider, counted up in place, so that
 * a failing action on every event costs one short upsert each and never a growing table.
 */
public final class AfterCommitFailureRows {
  static final Field<String> PROVIDER = field(name("provider"), SQLDataType.VARCHAR);
  static final Field<Long> FAILURES = field(name("failures"), SQLDataType.BIGINT);
  static final Field<Instant> LAST_AT = field(name("last_at"), SQLDataType.INSTANT);
  static final Field<String> LAST_EVENT_ID = field(name("last_event_id"), SQLDataType.VARCHAR);
  static final Field<String> LAST_ERROR = field(name("last_error"), SQLDataType.VARCHAR);
  /** The error kept: its first line, bounded, as the event's own last_error is shown. */
  private static final int ERROR_CHARS = 500;

  /** One provider's count. */
  public record Row(String provider, long failures, Instant lastAt, String lastEventId, String lastError) {}

  private final Table<Record> table;

  public AfterCommitFailureRows(String schema) {
    this.table = DSL.table(name(EventTable.requireSchemaName(schema), "after_commit_failure"));
  }

  /** Counts one failure of an action of {@code eventId}, in {@code tx}. */
  public void record(DSLContext tx, String provider, String eventId, String error) {
    String line = error == null ? "" : error.lines().findFirst().orElse("");
    String kept = line.length() > ERROR_CHARS ? line.substring(0, ERROR_CHARS) : line;
    tx.insertInto(table).columns(PROVIDER, FAILURES, LAST_AT, LAST_EVENT_ID, LAST_ERROR)
        .values(DSL.val(provider), DSL.inline(1L), LedgerTime.NOW, DSL.val(eventId), DSL.val(kept))
        .onConflict(PROVIDER).doUpdate()
        // qualified: in DO UPDATE an unqualified column could be the stored row's or excluded's
        .set(FAILURES, field(name(table.getName(), FAILURES.getName()), SQLDataType.BIGINT).plus(DSL.inline(1L)))
        .set(LAST_AT, LedgerTime.NOW)
        .set(LAST_EVENT_ID, DSL.excluded(LAST_EVENT_ID))
        .set(LAST_ERROR, DSL.excluded(LAST_ERROR))
        .execute();
  }

  /** Every provider's count, by provider. */
  public List<Row> all(DSLContext db) {
    return db.select(PROVIDER, FAILURES, LAST_AT, LAST_EVENT_ID, LAST_ERROR).from(table).orderBy(PROVIDER)
        .fetch(r -> new Row(r.value1(), r.value2(), r.value3(), r.value4(), r.value5()));
  }
}
