package dev.hookledger.runtime.internal.ledger;

import static org.jooq.impl.DSL.field;
import static org.jooq.impl.DSL.name;

import org.jooq.Field;
import org.jooq.Record;
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
 */
public final class StatusCountTable {
  public static final Field<String> PROVIDER = field(name("provider"), SQLDataType.VARCHAR);
  public static final Field<String> STATUS = field(name("status"), SQLDataType.VARCHAR);
  public static final Field<Long> EVENTS = field(name("events"), SQLDataType.BIGINT);
  public static final Field<Long> DUPLICATES = field(name("duplicates"), SQLDataType.BIGINT);

  private StatusCountTable() {}

  /** The table in {@code events}' schema. */
  public static Table<Record> of(EventTable events) {
    return DSL.table(name(events.schema(), "status_count"));
  }
}
