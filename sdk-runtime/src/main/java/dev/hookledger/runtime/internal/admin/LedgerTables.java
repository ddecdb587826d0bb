package dev.hookledger.runtime.internal.admin;

import static org.jooq.impl.DSL.field;
import static org.jooq.impl.DSL.name;
import static org.jooq.impl.DSL.table;

import java.time.Instant;
import java.util.List;
import java.util.regex.Pattern;
import org.jooq.Field;
import org.jooq.JSONB;
import org.jooq.Record;
import org.jooq.Table;
import org.jooq.impl.SQLDataType;

/**
 * The ledger's {@code event} table as typed jOOQ fields, without code generation. Column names
 * follow {@code db/hookledger/V1__ledger.sql}; the table is qualified by the configured schema.
 */
public final class LedgerTables {
  /** Plain lower-case identifiers only: the name is put into DDL, so nothing else may pass. */
  private static final Pattern SCHEMA_NAME = Pattern.compile("[a-z_][a-z0-9_]{0,62}");

  public static final String PENDING = "pending";
  public static final String PROCESSING = "processing";
  public static final String DONE = "done";
  public static final String IGNORED = "ignored";
  public static final String STALE = "stale";
  public static final String DEAD = "dead";
  /** Statuses of rows still waiting for a worker. */
  public static final List<String> WAITING = List.of(PENDING, PROCESSING);
  /** Statuses of rows that are finished and may be pruned. */
  public static final List<String> SETTLED = List.of(DONE, IGNORED, STALE);
  /** Every status, in the order a person reads them. */
  public static final List<String> STATUSES = List.of(PENDING, PROCESSING, DONE, IGNORED, STALE, DEAD);

  public static final Field<String> PROVIDER = field(name("provider"), SQLDataType.CLOB);
  public static final Field<String> SCOPE = field(name("scope"), SQLDataType.CLOB);
  public static final Field<String> EVENT_ID = field(name("event_id"), SQLDataType.CLOB);
  public static final Field<String> TYPE = field(name("type"), SQLDataType.CLOB);
  public static final Field<String> API_VERSION = field(name("api_version"), SQLDataType.CLOB);
  public static final Field<String> ENTITY_KEY = field(name("entity_key"), SQLDataType.CLOB);
  public static final Field<Long> ENTITY_VERSION = field(name("entity_version"), SQLDataType.BIGINT);
  public static final Field<Instant> OCCURRED_AT = field(name("occurred_at"), SQLDataType.INSTANT);
  public static final Field<Boolean> LIVEMODE = field(name("livemode"), SQLDataType.BOOLEAN);
  public static final Field<String> DELIVERY_ID = field(name("delivery_id"), SQLDataType.CLOB);
  public static final Field<byte[]> BODY = field(name("body"), SQLDataType.BLOB);
  public static final Field<byte[]> PAYLOAD = field(name("payload"), SQLDataType.BLOB);
  public static final Field<JSONB> HEADERS = field(name("headers"), SQLDataType.JSONB);
  public static final Field<String> SECRET_ID = field(name("secret_id"), SQLDataType.CLOB);
  public static final Field<Instant> SIGNED_AT = field(name("signed_at"), SQLDataType.INSTANT);
  public static final Field<String> SOURCE = field(name("source"), SQLDataType.CLOB);
  public static final Field<String> STATUS = field(name("status"), SQLDataType.CLOB);
  public static final Field<Integer> ATTEMPTS = field(name("attempts"), SQLDataType.INTEGER);
  public static final Field<Instant> AVAILABLE_AT = field(name("available_at"), SQLDataType.INSTANT);
  public static final Field<String> LEASE_OWNER = field(name("lease_owner"), SQLDataType.CLOB);
  public static final Field<Instant> LEASE_UNTIL = field(name("lease_until"), SQLDataType.INSTANT);
  public static final Field<String> LAST_ERROR = field(name("last_error"), SQLDataType.CLOB);
  public static final Field<Integer> DUPLICATES = field(name("duplicates"), SQLDataType.INTEGER);
  public static final Field<Instant> RECEIVED_AT = field(name("received_at"), SQLDataType.INSTANT);
  public static final Field<Instant> SETTLED_AT = field(name("settled_at"), SQLDataType.INSTANT);

  private final String schema;
  private final Table<Record> event;

  private LedgerTables(String schema) {
    this.schema = schema;
    this.event = table(name(schema, "event"));
  }

  /**
   * The tables in {@code schema}.
   *
   * @throws IllegalArgumentException if the name is not a plain lower-case SQL identifier
   */
  public static LedgerTables in(String schema) {
    if (schema == null || !SCHEMA_NAME.matcher(schema).matches()) {
      throw new IllegalArgumentException(
          "schema must be a lower-case SQL identifier ([a-z_][a-z0-9_]*, at most 63 characters), but was '"
              + schema + "'");
    }
    return new LedgerTables(schema);
  }

  public String schema() {
    return schema;
  }

  public Table<Record> event() {
    return event;
  }
}
