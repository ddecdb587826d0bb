package dev.hookledger.runtime.internal.ledger;

import static org.jooq.impl.DSL.field;
import static org.jooq.impl.DSL.name;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.jooq.Condition;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Record;
import org.jooq.Table;
import org.jooq.impl.DSL;
import org.jooq.impl.SQLDataType;

/**
 * The {@code attempt} table (V4): one row per attempt of an event that failed, and one for a success
 * after failures. Written by one insert inside the transaction that reschedules, buries or settles
 * the event, so a row exists exactly when its outcome was recorded; read by the operator's
 * {@code show}. Times are the database's. Thread-safe.
 */
public final class AttemptRows {
  static final Field<String> PROVIDER = field(name("provider"), SQLDataType.VARCHAR);
  static final Field<String> SCOPE = field(name("scope"), SQLDataType.VARCHAR);
  static final Field<String> EVENT_ID = field(name("event_id"), SQLDataType.VARCHAR);
  static final Field<Integer> ATTEMPT = field(name("attempt"), SQLDataType.INTEGER);
  static final Field<String> NODE = field(name("node"), SQLDataType.VARCHAR);
  static final Field<Instant> STARTED_AT = field(name("started_at"), SQLDataType.INSTANT);
  static final Field<Instant> ENDED_AT = field(name("ended_at"), SQLDataType.INSTANT);
  static final Field<Long> DURATION_MS = field(name("duration_ms"), SQLDataType.BIGINT);
  static final Field<String> OUTCOME = field(name("outcome"), SQLDataType.VARCHAR);
  static final Field<String> CAUSE = field(name("cause"), SQLDataType.VARCHAR);
  static final Field<String> ERROR = field(name("error"), SQLDataType.VARCHAR);

  /**
   * One attempt as recorded.
   *
   * @param outcome {@code retry}, {@code dead} or the status it settled with ({@code done}, ...)
   * @param cause the root cause in one line; null for a success
   * @param error the whole error; null for a success
   */
  public record Attempt(int attempt, String node, Instant startedAt, Instant endedAt, Duration duration,
      String outcome, String cause, String error) {}

  private final Table<Record> table;

  public AttemptRows(String schema) {
    this.table = DSL.table(name(EventTable.requireSchemaName(schema), "attempt"));
  }

  /** Records {@code attempt} of {@code key}, ended now (the database's clock), inside {@code tx}. */
  public void record(DSLContext tx, EventKey key, int attempt, String node, Duration took, String outcome,
      String cause, String error) {
    long ms = took.toMillis();
    tx.insertInto(table)
        .set(PROVIDER, key.provider()).set(SCOPE, key.scope()).set(EVENT_ID, key.eventId()).set(ATTEMPT, attempt)
        .set(NODE, node)
        .set(STARTED_AT, DSL.field("now() - {0} * interval '1 millisecond'", SQLDataType.INSTANT, DSL.val(ms)))
        .set(ENDED_AT, LedgerTime.NOW).set(DURATION_MS, ms).set(OUTCOME, outcome).set(CAUSE, cause).set(ERROR, error)
        .execute();
  }

  /** The outcome of the row an operator's retry records. */
  public static final String OPERATOR_RETRY = "retried by an operator";
  /** The node of the row an operator's retry records. */
  public static final String OPERATOR = "operator";

  /**
   * Records, inside {@code tx} and before the retry changes them, an operator's retry of each event
   * row of {@code events} that {@code where} selects: numbered with the attempts the event had made,
   * so that the history reads failed attempts, the retry, then the attempts after it.
   */
  public void recordRetries(DSLContext tx, EventTable events, Condition where) {
    tx.insertInto(table, PROVIDER, SCOPE, EVENT_ID, ATTEMPT, NODE, STARTED_AT, ENDED_AT, DURATION_MS, OUTCOME, CAUSE,
            ERROR)
        .select(DSL.select(EventTable.PROVIDER, EventTable.SCOPE, EventTable.EVENT_ID, EventTable.ATTEMPTS,
                DSL.val(OPERATOR), LedgerTime.NOW, LedgerTime.NOW, DSL.val(0L), DSL.val(OPERATOR_RETRY),
                DSL.castNull(SQLDataType.VARCHAR), DSL.castNull(SQLDataType.VARCHAR))
            .from(events.table()).where(where))
        .execute();
  }

  /** Deletes the attempts of {@code keys} (events being pruned), inside {@code tx}. */
  public void deleteOf(DSLContext tx, List<EventKey> keys) {
    if (keys.isEmpty()) {
      return;
    }
    tx.deleteFrom(table)
        .where(DSL.row(PROVIDER, SCOPE, EVENT_ID).in(keys.stream()
            .map(k -> DSL.row(k.provider(), k.scope(), k.eventId())).toList()))
        .execute();
  }

  /** Every recorded attempt of {@code key}, oldest first (an operator's retry numbers them from 1 again). */
  public List<Attempt> of(DSLContext dsl, EventKey key) {
    return dsl.select(ATTEMPT, NODE, STARTED_AT, ENDED_AT, DURATION_MS, OUTCOME, CAUSE, ERROR).from(table)
        .where(PROVIDER.eq(key.provider())).and(SCOPE.eq(key.scope())).and(EVENT_ID.eq(key.eventId()))
        .orderBy(ENDED_AT, ATTEMPT)
        .fetch(r -> new Attempt(r.get(ATTEMPT), r.get(NODE), r.get(STARTED_AT), r.get(ENDED_AT),
            Duration.ofMillis(r.get(DURATION_MS)), r.get(OUTCOME), r.get(CAUSE), r.get(ERROR)));
  }
}
