package dev.hookledger.runtime.internal.ledger;

import java.sql.Array;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Record;
import org.jooq.Table;
import org.jooq.impl.DSL;
import org.jooq.impl.SQLDataType;

/**
 * The {@code handler_applied} table (V8): which named {@code @OnEvent} methods have applied which
 * event, written inside the handlers' own transaction by one statement per event for all of its
 * handlers, {@code INSERT ... SELECT unnest(?) ON CONFLICT DO NOTHING RETURNING handler}. A backfill
 * visit inserts before its handlers run, and only the names it returns run. Live processing inserts
 * after they ran, in the settle's own statement ({@link ProcessingRows#settleLeased}), which fails
 * a first attempt that finds one recorded already; a later attempt (a retry, a takeover) reads the
 * record first, since the attempt it took over may hold uncommitted rows of the key for as long as
 * its handler hangs. Live processing and a backfill never visit one event at once:
 * a backfill takes only settled events, under a row lock. So live processing, retries, replays and
 * backfills never apply one handler to one event twice. Thread-safe.
 *
 * <p>A {@code done} event with no row at all was settled before this bookkeeping existed (a
 * <em>legacy</em> event): every handler registered then applied it, which the ledger cannot name.
 *
 * <p>On a ledger distributed by Citus ({@link CitusLedger}) the insert names the event's key in each
 * row ({@code INSERT ... VALUES}, {@link #valuesSql}), a statement Citus routes to the event's shard.
 * Citus plans {@code INSERT ... SELECT unnest(?)} through the coordinator instead (its
 * {@code insert-select} executor), the rows computed there and copied to the shard.
 */
public final class AppliedRows {
  private static final Field<String> HANDLER = DSL.field(DSL.name("handler"), SQLDataType.VARCHAR);

  private final Table<Record> table;
  private final String schema;
  private final String recordSql;
  private final CitusLedger citus;

  public AppliedRows(String schema) {
    this(schema, CitusLedger.known(false));
  }

  /** @param citus whether the ledger is distributed: then each record is a statement routed to the event's shard */
  public AppliedRows(String schema, CitusLedger citus) {
    this.table = DSL.table(DSL.name(EventTable.requireSchemaName(schema), "handler_applied"));
    this.schema = schema;
    this.recordSql = recordSql(schema, "");
    this.citus = citus;
  }

  /**
   * The insert of {@link #record}, its four bind values the key's three and the names as an array,
   * rows inserted only where {@code condition} (SQL, empty for always) holds: {@link ProcessingRows}
   * runs it as a part of the settle, once the fence has settled the row.
   */
  static String recordSql(String schema, String condition) {
    // the key's order is the primary key's, so that concurrent inserts of several names lock in one order
    return "insert into \"" + schema + "\".handler_applied (provider, scope, event_id, handler) "
        + "select ?, ?, ?, h from unnest(?::text[]) as h " + (condition.isEmpty() ? "" : "where " + condition + " ")
        + "order by h on conflict (provider, scope, event_id, handler) do nothing returning handler";
  }

  /**
   * The insert of {@code count} names as {@code INSERT ... VALUES}, each row's four bind values the
   * key's three and a name ({@link #bindValues}), returning the names inserted: on Citus, a statement
   * routed to the key's shard.
   */
  static String valuesSql(String schema, int count) {
    StringBuilder sql = new StringBuilder("insert into \"").append(schema)
        .append("\".handler_applied (provider, scope, event_id, handler) values ");
    for (int i = 0; i < count; i++) {
      sql.append(i == 0 ? "" : ", ").append("(?, ?, ?, ?)");
    }
    return sql.append(" on conflict (provider, scope, event_id, handler) do nothing returning handler").toString();
  }

  /**
   * Binds {@link #valuesSql}'s values, the names sorted: concurrent inserts of several names lock them
   * in one order, as {@link #recordSql}'s {@code order by}.
   */
  static void bindValues(PreparedStatement ps, EventKey key, List<String> names) throws SQLException {
    int p = 1;
    for (String name : names.stream().sorted().toList()) {
      ps.setString(p++, key.provider());
      ps.setString(p++, key.scope());
      ps.setString(p++, key.eventId());
      ps.setString(p++, name);
    }
  }

  /**
   * The names, among {@code names}, that the ledger records as applied to {@code key}: a plain read,
   * which waits for no lock (a worker whose lease was taken over may hold uncommitted rows of the
   * same key for as long as its handler hangs).
   */
  public Set<String> appliedOf(DSLContext tx, EventKey key, List<String> names) {
    return new HashSet<>(tx.select(HANDLER).from(table)
        .where(AttemptRows.PROVIDER.eq(key.provider())).and(AttemptRows.SCOPE.eq(key.scope()))
        .and(AttemptRows.EVENT_ID.eq(key.eventId())).and(HANDLER.in(names))
        .fetch(HANDLER));
  }

  /**
   * Records {@code names} as applied to {@code key} inside {@code tx}.
   *
   * @return the names not recorded before (the ones to run); empty if every one was
   */
  public Set<String> record(DSLContext tx, EventKey key, List<String> names) {
    if (names.isEmpty()) {
      return Set.of();
    }
    if (citus.distributed()) {
      return tx.connectionResult(c -> {
        try (PreparedStatement ps = c.prepareStatement(valuesSql(schema, names.size()))) {
          bindValues(ps, key, names);
          return inserted(ps);
        }
      });
    }
    return tx.connectionResult(c -> {
      try (PreparedStatement ps = c.prepareStatement(recordSql)) {
        ps.setString(1, key.provider());
        ps.setString(2, key.scope());
        ps.setString(3, key.eventId());
        Array array = c.createArrayOf("text", names.toArray());
        try {
          ps.setArray(4, array);
          return inserted(ps);
        } finally {
          array.free();
        }
      }
    });
  }

  /** The names an insert returning {@code handler} recorded. */
  static Set<String> inserted(PreparedStatement ps) throws SQLException {
    Set<String> recorded = new HashSet<>();
    try (ResultSet rs = ps.executeQuery()) {
      while (rs.next()) {
        recorded.add(rs.getString(1));
      }
    }
    return recorded;
  }

  /** Deletes the records of {@code keys} (events being pruned), inside {@code tx}: none outlives its event. */
  public void deleteOf(DSLContext tx, List<EventKey> keys) {
    if (keys.isEmpty()) {
      return;
    }
    tx.deleteFrom(table)
        .where(DSL.row(AttemptRows.PROVIDER, AttemptRows.SCOPE, AttemptRows.EVENT_ID).in(keys.stream()
            .map(k -> DSL.row(k.provider(), k.scope(), k.eventId())).toList()))
        .execute();
  }
}
