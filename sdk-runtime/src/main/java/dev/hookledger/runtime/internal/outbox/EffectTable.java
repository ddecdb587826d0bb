package dev.hookledger.runtime.internal.outbox;

import static org.jooq.impl.DSL.field;
import static org.jooq.impl.DSL.inline;
import static org.jooq.impl.DSL.name;
import static org.jooq.impl.DSL.table;

import dev.hookledger.runtime.EffectStatus;
import dev.hookledger.runtime.internal.ledger.EventTable;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Function;
import org.jooq.Condition;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.JSONB;
import org.jooq.Record;
import org.jooq.Table;
import org.jooq.impl.SQLDataType;

/**
 * Typed jOOQ definitions of the outbox's tables of {@code V15__outbox.sql} ({@code effect},
 * {@code effect_attempt}, {@code destination_state}) in a configurable schema: the one definition
 * that the handlers' enqueue ({@link #ROW}), the senders' claims and settles, and the operator's
 * reads and changes (the admin API, and through it the command line, the page, the gauges and the
 * health check) share, as {@link EventTable} is the event row's. Columns are unqualified (the same
 * field serves any schema); {@link #of} qualifies one by its table's name where a statement reads
 * two tables with columns of the same name.
 *
 * <p>The statements of the senders' paths are built from these fields once, rendered to SQL text
 * with {@code ?} for each bind value, and run through {@link #update} and {@link #rows}: prepared on
 * the transaction's own connection, bound by position, never through jOOQ's plain-SQL templating on
 * each call (which reads braces and question marks of its own, and costs a rendering per call).
 */
public final class EffectTable {
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
  public static final Field<JSONB> HEADERS = field(name("headers"), SQLDataType.JSONB);
  public static final Field<byte[]> BODY = field(name("body"), SQLDataType.BLOB);
  public static final Field<String> CONTENT_TYPE = field(name("content_type"), SQLDataType.VARCHAR);
  public static final Field<String> PAYLOAD_TYPE = field(name("payload_type"), SQLDataType.VARCHAR);
  public static final Field<String> ORDERING_KEY = field(name("ordering_key"), SQLDataType.VARCHAR);
  public static final Field<Long> SEQ = field(name("seq"), SQLDataType.BIGINT);
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
  public static final Field<Double> TOKENS = field(name("tokens"), SQLDataType.DOUBLE);
  public static final Field<Instant> TOKENS_AT = field(name("tokens_at"), SQLDataType.INSTANT);
  public static final Field<Instant> UPDATED_AT = field(name("updated_at"), SQLDataType.INSTANT);

  /** One column an enqueue writes, and where its value comes from. */
  record Written(Field<?> field, Function<NewEffect, Object> value) {}

  /**
   * Every column an enqueue writes, in the insert's order: the one description of a new effect that
   * the insert ({@link EffectWriter}) and its binds derive from. The rest ({@code seq},
   * {@code status}, {@code attempts}, {@code available_at}, {@code created_at}) are the table's
   * defaults: pending, no attempt, due at the commit, by the database's clock.
   */
  static final List<Written> ROW = List.of(
      new Written(SCOPE, e -> e.event().scope()),
      new Written(KEY, NewEffect::key),
      new Written(PROVIDER, e -> e.event().provider()),
      new Written(EVENT_ID, e -> e.event().eventId()),
      new Written(HANDLER, NewEffect::handler),
      new Written(NAME, NewEffect::name),
      new Written(KIND, e -> e.row().kind()),
      new Written(DESTINATION, e -> e.row().destination()),
      new Written(METHOD, e -> e.row().method()),
      new Written(URL, e -> e.row().url()),
      new Written(HEADERS, e -> e.row().headers()),
      new Written(BODY, e -> e.row().body()),
      new Written(CONTENT_TYPE, e -> e.row().contentType()),
      new Written(PAYLOAD_TYPE, e -> e.row().payloadType()),
      new Written(ORDERING_KEY, e -> e.row().orderingKey()));

  /** The columns an effect's summary shows: what the operator's lists and an event's effects select. */
  public static final List<Field<?>> SUMMARY = List.of(SCOPE, KEY, PROVIDER, EVENT_ID, HANDLER, NAME, KIND,
      DESTINATION, METHOD, URL, PAYLOAD_TYPE, ORDERING_KEY, STATUS, ATTEMPTS, AVAILABLE_AT, LAST_STATUS_CODE,
      LAST_ERROR, CREATED_AT, SETTLED_AT);

  /** The schema-qualified names, for the statements written as SQL text ({@code "hookledger".effect}). */
  final String effect;
  final String attempt;
  final String state;
  private final Table<Record> effectTable;
  private final Table<Record> attemptTable;
  private final Table<Record> stateTable;

  /**
   * @throws IllegalArgumentException if {@code schema} is not a plain lower-case SQL identifier
   */
  public EffectTable(String schema) {
    EventTable.requireSchemaName(schema);
    String s = '"' + schema + '"';
    this.effect = s + ".effect";
    this.attempt = s + ".effect_attempt";
    this.state = s + ".destination_state";
    this.effectTable = table(name(schema, "effect"));
    this.attemptTable = table(name(schema, "effect_attempt"));
    this.stateTable = table(name(schema, "destination_state"));
  }

  /** The schema-qualified {@code effect} table. */
  public Table<Record> effect() {
    return effectTable;
  }

  /** The schema-qualified {@code effect_attempt} table. */
  public Table<Record> attempt() {
    return attemptTable;
  }

  /** The schema-qualified {@code destination_state} table. */
  public Table<Record> state() {
    return stateTable;
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

  /** The value of {@code status} for {@code s}, inlined for the same reason. */
  static Field<String> status(EffectStatus s) {
    return inline(s.displayText());
  }

  static int update(DSLContext tx, String sql, Object... binds) {
    return tx.connectionResult(c -> {
      try (PreparedStatement ps = prepare(c, sql, binds)) {
        return ps.executeUpdate();
      }
    });
  }

  /** The rows of a query, each a map of column label to value, in column order. */
  static List<Map<String, Object>> rows(DSLContext tx, String sql, Object... binds) {
    return tx.connectionResult(c -> {
      try (PreparedStatement ps = prepare(c, sql, binds); ResultSet rs = ps.executeQuery()) {
        List<Map<String, Object>> out = new ArrayList<>();
        int n = rs.getMetaData().getColumnCount();
        while (rs.next()) {
          Map<String, Object> row = new LinkedHashMap<>();
          for (int i = 1; i <= n; i++) {
            row.put(rs.getMetaData().getColumnLabel(i), rs.getObject(i));
          }
          out.add(row);
        }
        return out;
      }
    });
  }

  private static PreparedStatement prepare(Connection c, String sql, Object[] binds) throws SQLException {
    PreparedStatement ps = c.prepareStatement(sql);
    try {
      for (int i = 0; i < binds.length; i++) {
        ps.setObject(i + 1, binds[i]);
      }
      return ps;
    } catch (SQLException | RuntimeException e) {
      ps.close();
      throw e;
    }
  }
}
