package dev.hookledger.runtime.internal.outbox;

import static org.jooq.impl.DSL.field;
import static org.jooq.impl.DSL.inline;
import static org.jooq.impl.DSL.name;
import static org.jooq.impl.DSL.table;

import dev.hookledger.runtime.EffectStatus;
import java.time.Instant;
import java.util.Collection;
import java.util.UUID;
import org.jooq.Condition;
import org.jooq.Field;
import org.jooq.Record;
import org.jooq.Table;
import org.jooq.impl.SQLDataType;

/**
 * Typed jOOQ names of the outbox's tables of {@code V15__outbox.sql} ({@code effect},
 * {@code effect_attempt}, {@code destination_state}) for the operator's reads and changes: the
 * admin API, and through it the command line, the page, the gauges and the health check. Columns
 * are unqualified (the same field serves any schema); {@link #of} qualifies one by its table's name
 * where a statement reads two tables with columns of the same name.
 */
public final class OutboxColumns {
  // effect
  public static final Field<String> SCOPE = field(name("scope"), SQLDataType.VARCHAR);
  public static final Field<UUID> KEY = field(name("idempotency_key"), SQLDataType.UUID);
  public static final Field<String> PROVIDER = field(name("provider"), SQLDataType.VARCHAR);
  public static final Field<String> EVENT_ID = field(name("event_id"), SQLDataType.VARCHAR);
  public static final Field<String> HANDLER = field(name("handler"), SQLDataType.VARCHAR);
  public static final Field<String> NAME = field(name("name"), SQLDataType.VARCHAR);
  public static final Field<String> KIND = field(name("kind"), SQLDataType.VARCHAR);
  public static final Field<String> DESTINATION = field(name("destination"), SQLDataType.VARCHAR);
  public static final Field<String> METHOD = field(name("method"), SQLDataType.VARCHAR);
  public static final Field<String> URL = field(name("url"), SQLDataType.VARCHAR);
  public static final Field<String> ORDERING_KEY = field(name("ordering_key"), SQLDataType.VARCHAR);
  public static final Field<String> STATUS = field(name("status"), SQLDataType.VARCHAR);
  public static final Field<Integer> ATTEMPTS = field(name("attempts"), SQLDataType.INTEGER);
  public static final Field<Instant> AVAILABLE_AT = field(name("available_at"), SQLDataType.INSTANT);
  public static final Field<String> LEASE_OWNER = field(name("lease_owner"), SQLDataType.VARCHAR);
  public static final Field<Instant> LEASE_UNTIL = field(name("lease_until"), SQLDataType.INSTANT);
  public static final Field<Integer> LAST_STATUS_CODE = field(name("last_status_code"), SQLDataType.INTEGER);
  public static final Field<String> LAST_ERROR = field(name("last_error"), SQLDataType.VARCHAR);
  public static final Field<Instant> CREATED_AT = field(name("created_at"), SQLDataType.INSTANT);
  public static final Field<Instant> SETTLED_AT = field(name("settled_at"), SQLDataType.INSTANT);

  // effect_attempt (with SCOPE and KEY)
  public static final Field<Integer> ATTEMPT = field(name("attempt"), SQLDataType.INTEGER);
  public static final Field<String> NODE = field(name("node"), SQLDataType.VARCHAR);
  public static final Field<Instant> STARTED_AT = field(name("started_at"), SQLDataType.INSTANT);
  public static final Field<Instant> ENDED_AT = field(name("ended_at"), SQLDataType.INSTANT);
  public static final Field<Long> DURATION_MS = field(name("duration_ms"), SQLDataType.BIGINT);
  public static final Field<Integer> STATUS_CODE = field(name("status_code"), SQLDataType.INTEGER);
  public static final Field<String> OUTCOME = field(name("outcome"), SQLDataType.VARCHAR);
  public static final Field<String> RESPONSE_EXCERPT = field(name("response_excerpt"), SQLDataType.VARCHAR);
  public static final Field<String> ERROR = field(name("error"), SQLDataType.VARCHAR);

  // destination_state (with DESTINATION)
  public static final Field<String> BREAKER = field(name("breaker"), SQLDataType.VARCHAR);
  public static final Field<Integer> CONSECUTIVE_FAILURES = field(name("consecutive_failures"), SQLDataType.INTEGER);
  public static final Field<Instant> OPENED_AT = field(name("opened_at"), SQLDataType.INSTANT);
  public static final Field<Instant> PROBE_AT = field(name("probe_at"), SQLDataType.INSTANT);
  public static final Field<Boolean> PAUSED = field(name("paused"), SQLDataType.BOOLEAN);
  public static final Field<Instant> PAUSED_AT = field(name("paused_at"), SQLDataType.INSTANT);
  public static final Field<Instant> UPDATED_AT = field(name("updated_at"), SQLDataType.INSTANT);

  private final String schema;

  public OutboxColumns(String schema) {
    this.schema = schema;
  }

  public Table<Record> effect() {
    return table(name(schema, "effect"));
  }

  public Table<Record> attempt() {
    return table(name(schema, "effect_attempt"));
  }

  public Table<Record> state() {
    return table(name(schema, "destination_state"));
  }

  /** {@code column} qualified by the unqualified name of {@code table} ({@code effect.status}). */
  public static <T> Field<T> of(Table<?> table, Field<T> column) {
    return field(name(table.getName(), column.getName()), column.getDataType());
  }

  /**
   * {@code status IN (...)} with the statuses inlined, so that the partial indexes on waiting and
   * dead effects serve the statement (a bind parameter would hide the predicate from the planner).
   */
  public static Condition statusIn(Collection<EffectStatus> statuses) {
    return STATUS.in(statuses.stream().map(s -> inline(s.displayText())).toList());
  }
}
