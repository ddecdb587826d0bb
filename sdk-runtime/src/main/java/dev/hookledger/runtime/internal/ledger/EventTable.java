package dev.hookledger.runtime.internal.ledger;

import static org.jooq.impl.DSL.field;
import static org.jooq.impl.DSL.inline;
import static org.jooq.impl.DSL.name;

import dev.hookledger.runtime.EventStatus;
import java.time.Instant;
import java.util.Collection;
import java.util.regex.Pattern;
import org.jooq.Condition;
import org.jooq.Field;
import org.jooq.JSONB;
import org.jooq.Record;
import org.jooq.Table;
import org.jooq.impl.DSL;
import org.jooq.impl.SQLDataType;

/**
 * Typed jOOQ definitions of the {@code event} table of {@code V1__ledger.sql}, in a configurable
 * schema: the one definition the receive path, the workers and the admin operations share. Columns
 * are unqualified so that the same fields serve any schema.
 */
public final class EventTable {
  /** Plain lower-case identifiers only: the name is put into DDL, so nothing else may pass. */
  private static final Pattern SCHEMA_NAME = Pattern.compile("[a-z_][a-z0-9_]{0,62}");

  public static final Field<String> PROVIDER = field(name("provider"), SQLDataType.VARCHAR);
  public static final Field<String> SCOPE = field(name("scope"), SQLDataType.VARCHAR);
  public static final Field<String> EVENT_ID = field(name("event_id"), SQLDataType.VARCHAR);
  public static final Field<String> TYPE = field(name("type"), SQLDataType.VARCHAR);
  public static final Field<String> API_VERSION = field(name("api_version"), SQLDataType.VARCHAR);
  public static final Field<String> ENTITY_KEY = field(name("entity_key"), SQLDataType.VARCHAR);
  public static final Field<Long> ENTITY_VERSION = field(name("entity_version"), SQLDataType.BIGINT);
  public static final Field<Instant> OCCURRED_AT = field(name("occurred_at"), SQLDataType.INSTANT);
  public static final Field<Boolean> LIVEMODE = field(name("livemode"), SQLDataType.BOOLEAN);
  public static final Field<String> DELIVERY_ID = field(name("delivery_id"), SQLDataType.VARCHAR);
  public static final Field<byte[]> BODY = field(name("body"), SQLDataType.BLOB);
  public static final Field<byte[]> PAYLOAD = field(name("payload"), SQLDataType.BLOB);
  public static final Field<JSONB> HEADERS = field(name("headers"), SQLDataType.JSONB);
  public static final Field<String> SECRET_ID = field(name("secret_id"), SQLDataType.VARCHAR);
  public static final Field<Instant> SIGNED_AT = field(name("signed_at"), SQLDataType.INSTANT);
  public static final Field<String> SOURCE = field(name("source"), SQLDataType.VARCHAR);
  public static final Field<String> STATUS = field(name("status"), SQLDataType.VARCHAR);
  public static final Field<Integer> ATTEMPTS = field(name("attempts"), SQLDataType.INTEGER);
  public static final Field<Instant> AVAILABLE_AT = field(name("available_at"), SQLDataType.INSTANT);
  public static final Field<String> LEASE_OWNER = field(name("lease_owner"), SQLDataType.VARCHAR);
  public static final Field<Instant> LEASE_UNTIL = field(name("lease_until"), SQLDataType.INSTANT);
  public static final Field<String> LAST_ERROR = field(name("last_error"), SQLDataType.VARCHAR);
  public static final Field<Integer> DUPLICATES = field(name("duplicates"), SQLDataType.INTEGER);
  public static final Field<Instant> RECEIVED_AT = field(name("received_at"), SQLDataType.INSTANT);
  public static final Field<Instant> SETTLED_AT = field(name("settled_at"), SQLDataType.INSTANT);
  /** The attempts the event was allowed, as its last settling or failing runtime counted (V4); null before. */
  public static final Field<Integer> MAX_ATTEMPTS = field(name("max_attempts"), SQLDataType.INTEGER);

  /**
   * Rows still waiting for a worker. Inlined, not bound: with bind values a generic plan cannot
   * prove the partial index's predicate ({@code status IN ('pending', 'processing')}).
   */
  public static final Condition WAITING = STATUS.in(inline(StatusColumn.sql(EventStatus.PENDING)), inline(StatusColumn.sql(EventStatus.PROCESSING)));

  private final String schema;
  private final Table<Record> table;

  /**
   * @throws IllegalArgumentException if {@code schema} is not a plain lower-case SQL identifier
   */
  public EventTable(String schema) {
    this.schema = requireSchemaName(schema);
    this.table = DSL.table(name(schema, "event"));
  }

  /**
   * Returns {@code schema} if it is a lower-case SQL identifier of at most 63 characters.
   *
   * @throws IllegalArgumentException naming the bad value
   */
  public static String requireSchemaName(String schema) {
    if (schema == null || !SCHEMA_NAME.matcher(schema).matches()) {
      throw new IllegalArgumentException("schema must be a lower-case SQL identifier ([a-z_][a-z0-9_]*, "
          + "at most 63 characters), but was '" + schema + "'");
    }
    return schema;
  }

  /** The schema name, unquoted. */
  public String schema() {
    return schema;
  }

  /** The schema-qualified table. */
  public Table<Record> table() {
    return table;
  }

  /**
   * {@code status IN (...)} with the values inlined, not bound: with bind values a generic plan
   * cannot prove a partial index's predicate ({@code status IN ('pending', 'processing')},
   * {@code status = 'dead'}, the settled statuses) and would scan the table.
   */
  public static Condition statusIn(Collection<EventStatus> statuses) {
    return STATUS.in(statuses.stream().map(s -> DSL.inline(StatusColumn.sql(s))).toList());
  }

  /** The primary-key condition for one event. */
  public static Condition is(EventKey key) {
    return PROVIDER.eq(key.provider()).and(SCOPE.eq(key.scope())).and(EVENT_ID.eq(key.eventId()));
  }
}
