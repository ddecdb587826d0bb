package dev.hookledger.runtime.internal.ledger;

import static org.jooq.impl.DSL.field;
import static org.jooq.impl.DSL.inline;
import static org.jooq.impl.DSL.name;

import dev.hookledger.internal.EventBytes;
import dev.hookledger.runtime.EventSource;
import dev.hookledger.runtime.EventStatus;
import dev.hookledger.runtime.internal.CamelCase;
import java.sql.Types;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.regex.Pattern;
import org.jooq.Condition;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.JSONB;
import org.jooq.Record;
import org.jooq.SelectField;
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
   * Every column of the row, in the order the insert writes them: the one description of the row
   * that the insert ({@link BatchInsert}), its binds and the readers of events ({@link EventRows})
   * derive from. Times are the database's ({@link LedgerTime}): {@code available_at} and
   * {@code lease_until} are {@code now()} plus a bound lease in milliseconds (a row not leased is due
   * at once and has no lease end), {@code received_at} is {@code now()}, {@code settled_at}
   * {@code now()} for a row inserted settled.
   */
  static final List<EventColumn> ROW = List.of(
      EventColumn.event(PROVIDER, (ps, p, row) -> ps.setString(p, row.event().provider()),
          (r, e) -> e.provider(r.get(PROVIDER))).inSummary(),
      EventColumn.event(SCOPE, (ps, p, row) -> ps.setString(p, row.event().scope()),
          (r, e) -> e.scope(r.get(SCOPE))).inSummary(),
      EventColumn.event(EVENT_ID, (ps, p, row) -> ps.setString(p, row.event().eventId()),
          (r, e) -> e.eventId(r.get(EVENT_ID))).inSummary(),
      EventColumn.event(TYPE, (ps, p, row) -> ps.setString(p, row.event().type()),
          (r, e) -> e.type(r.get(TYPE))).inSummary(),
      EventColumn.event(API_VERSION, (ps, p, row) -> ps.setString(p, row.event().apiVersion().orElse(null)),
          (r, e) -> e.apiVersion(r.get(API_VERSION))),
      EventColumn.event(ENTITY_KEY, (ps, p, row) -> ps.setString(p, row.event().entityKey().orElse(null)),
          (r, e) -> e.entityKey(r.get(ENTITY_KEY))),
      EventColumn.event(ENTITY_VERSION, (ps, p, row) -> ps.setObject(p,
              row.event().entityVersion().isPresent() ? row.event().entityVersion().getAsLong() : null, Types.BIGINT),
          (r, e) -> e.entityVersion(r.get(ENTITY_VERSION))),
      EventColumn.event(OCCURRED_AT, (ps, p, row) -> RenderedSql.setInstant(ps, p, row.event().occurredAt().orElse(null)),
          (r, e) -> e.occurredAt(r.get(OCCURRED_AT))),
      EventColumn.event(LIVEMODE, (ps, p, row) -> ps.setObject(p, row.event().livemode().orElse(null), Types.BOOLEAN),
          (r, e) -> e.livemode(r.get(LIVEMODE))),
      EventColumn.event(DELIVERY_ID, (ps, p, row) -> ps.setString(p, row.event().deliveryId().orElse(null)),
          (r, e) -> e.deliveryId(r.get(DELIVERY_ID))),
      // the arrays themselves: a copy per insert would double the memory of a 25 MiB body
      EventColumn.event(BODY, (ps, p, row) -> ps.setBytes(p, EventBytes.body(row.event())), (r, e) -> e.body(r.get(BODY))),
      EventColumn.event(PAYLOAD, (ps, p, row) -> ps.setBytes(p,
              row.event().payloadWrapped() ? EventBytes.payloadJson(row.event()) : null),
          (r, e) -> e.payloadJson(r.get(PAYLOAD))),
      EventColumn.event(HEADERS, (ps, p, row) -> ps.setString(p, HeadersJson.write(row.event().headers()).data()),
          (r, e) -> HeadersJson.read(r.get(HEADERS)).forEach(e::header)),
      // a replay was not verified: no secret matched it
      EventColumn.event(SECRET_ID, (ps, p, row) -> ps.setString(p,
              row.source() == EventSource.REPLAY ? null : row.event().secretId().orElse(null)),
          (r, e) -> e.secretId(r.get(SECRET_ID))),
      EventColumn.event(SIGNED_AT, (ps, p, row) -> RenderedSql.setInstant(ps, p, row.event().signedAt().orElse(null)),
          (r, e) -> e.signedAt(r.get(SIGNED_AT))),
      EventColumn.state(SOURCE, DSL.val(null, SOURCE), (ps, p, row) -> ps.setString(p, SourceColumn.sql(row.source()))).inSummary(),
      EventColumn.state(STATUS, DSL.val(null, STATUS), (ps, p, row) -> ps.setString(p, StatusColumn.sql(row.status()))).inSummary(),
      EventColumn.state(ATTEMPTS, DSL.val(null, ATTEMPTS), (ps, p, row) -> ps.setInt(p, row.attempts())).inSummary(),
      // a leased row is due when its lease runs out, as a claimed one is: then any worker takes it over
      EventColumn.state(AVAILABLE_AT, LedgerTime.nowPlusMillis(DSL.val(0L)),
          (ps, p, row) -> ps.setLong(p, row.lease() == null ? 0L : row.lease().toMillis())).inSummary(),
      EventColumn.state(LEASE_OWNER, DSL.val(null, LEASE_OWNER), (ps, p, row) -> ps.setString(p, row.leaseOwner())),
      EventColumn.state(LEASE_UNTIL, LedgerTime.nowPlusMillis(DSL.val(0L)),
          (ps, p, row) -> ps.setObject(p, row.lease() == null ? null : row.lease().toMillis(), Types.BIGINT)),
      EventColumn.state(RECEIVED_AT, LedgerTime.NOW, null).inSummary(),
      EventColumn.state(SETTLED_AT, DSL.when(DSL.val(false), LedgerTime.NOW), (ps, p, row) -> ps.setBoolean(p, row.settled())).inSummary(),
      EventColumn.laterOnly(LAST_ERROR).inSummary(),
      EventColumn.laterOnly(DUPLICATES).inSummary(),
      // set on a row its insert settles as its first attempt (INLINE), else by whatever settles or fails it
      EventColumn.state(MAX_ATTEMPTS, DSL.val(null, MAX_ATTEMPTS),
          (ps, p, row) -> ps.setObject(p, row.maxAttempts(), Types.INTEGER)).inSummary());

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

  /** The columns an event's summary shows, in {@link #ROW}'s order: what a reader of summaries selects. */
  public static List<Field<?>> summaryColumns() {
    return ROW.stream().filter(EventColumn::summary).<Field<?>>map(EventColumn::field).toList();
  }

  /** A column's name as the admin's JSON gives it: {@code event_id} is {@code eventId}. */
  public static String jsonName(Field<?> column) {
    return CamelCase.of(column.getName(), "_");
  }


  /** Every column of the row, in {@link #ROW}'s order: what a reader of whole rows selects. */
  public static List<Field<?>> columns() {
    return ROW.stream().<Field<?>>map(EventColumn::field).toList();
  }

  /** The primary-key condition for one event. */
  public static Condition is(EventKey key) {
    return PROVIDER.eq(key.provider()).and(SCOPE.eq(key.scope())).and(EVENT_ID.eq(key.eventId()));
  }

  /**
   * Reads {@code columns} of the row of {@code key} and locks it for the rest of {@code tx}; null if
   * there is none. The way to change one event whose status must be judged first: select by the key
   * alone, judge in Java, change by the key. A single statement that tested the key and a status would
   * be planned, on a ledger analysed while few rows had that status (any ledger analysed idle), on the
   * status's partial index with the key as a filter, reading every row of that status
   * ({@code FencedStatementPlanTest}). By the key it is one shard's router query on Citus.
   */
  public Record lockByKey(DSLContext tx, EventKey key, Collection<? extends SelectField<?>> columns) {
    return tx.select(columns).from(table).where(is(key)).forUpdate().fetchOne();
  }
}
