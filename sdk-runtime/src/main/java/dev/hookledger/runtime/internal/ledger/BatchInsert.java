package dev.hookledger.runtime.internal.ledger;

import static dev.hookledger.runtime.internal.ledger.EventTable.*;

import dev.hookledger.WebhookEvent;
import dev.hookledger.internal.EventBytes;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicReferenceArray;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.InsertValuesStepN;
import org.jooq.Record;
import org.jooq.impl.DSL;

/**
 * Writes several new rows in one statement: {@code INSERT ... VALUES (...), (...) ON CONFLICT
 * (provider, scope, event_id) DO NOTHING RETURNING} the keys it inserted, then counts the
 * duplicates, on the caller's connection: inside the caller's transaction ({@link #write}), or each
 * step its own transaction in autocommit ({@link #insertRows}, then {@link #countDuplicates}).
 *
 * <p>Rows are written sorted by key. Two concurrent batches holding the same redelivered ids in
 * different orders deadlock: each waits for the other's uncommitted insert of a key it reaches
 * second (seen here). Sorted, the one that reaches a shared key first goes on and the other waits.
 * The duplicate counter's updates run in the same order for the same reason.
 *
 * <p>The SQL is rendered by jOOQ once per batch size, not per call, and bound by hand: rendering
 * was a fifth of the receive path's time. Thread-safe.
 */
final class BatchInsert {
  /** The columns of a new row, in the order they are written, as {@link EventTable#ROW} lists them. */
  private static final List<EventColumn> COLUMNS = EventTable.ROW.stream().filter(EventColumn::inserted).toList();
  /** The columns whose value is bound, in the order of their placeholders. */
  private static final List<EventColumn.Binder> BINDERS = COLUMNS.stream().map(EventColumn::binder)
      .filter(java.util.Objects::nonNull).toList();
  /** Bind values per row: those columns whose value is not the database's time alone. */
  private static final int BINDS_PER_ROW = BINDERS.size();
  /** The order batches write their rows in; any total order does, as long as every batch uses the same. */
  static final Comparator<EventKey> KEY_ORDER = Comparator.comparing(EventKey::provider)
      .thenComparing(EventKey::scope).thenComparing(EventKey::eventId);

  private final DSLContext render = RenderedSql.renderer();
  private final EventTable events;
  private final AtomicReferenceArray<String> insertSql;
  private final String countDuplicateSql;

  /** @param maxRows the most rows one call writes */
  BatchInsert(EventTable events, int maxRows) {
    this.events = events;
    this.insertSql = new AtomicReferenceArray<>(maxRows + 1);
    this.countDuplicateSql = RenderedSql.render(render.update(events.table())
        .set(DUPLICATES, DUPLICATES.plus(DSL.val(0)))
        .where(PROVIDER.eq(DSL.val("")).and(SCOPE.eq(DSL.val(""))).and(EVENT_ID.eq(DSL.val("")))), 4);
  }

  /**
   * Inserts {@code rows}, received at the database's {@code now()}, and counts the duplicates among them, in the
   * caller's transaction. Of several rows with one key, the first in {@code rows} is the one
   * that can be new; the others are duplicates of it.
   *
   * @return for each of {@code rows}, in order, whether its row was inserted
   */
  boolean[] write(Connection c, List<NewRow> rows) throws SQLException {
    boolean[] isNew = insertRows(c, rows);
    countDuplicates(c, rows, isNew);
    return isNew;
  }

  /**
   * Inserts {@code rows}, received at the database's {@code now()}, in one statement: in autocommit,
   * that statement is a transaction of its own, all of it written or none. Of several rows with one
   * key, the first in {@code rows} is the one that can be new.
   *
   * @return for each of {@code rows}, in order, whether its row was inserted
   */
  boolean[] insertRows(Connection c, List<NewRow> rows) throws SQLException {
    Map<EventKey, Integer> firstOfKey = new TreeMap<>(KEY_ORDER);
    for (int i = 0; i < rows.size(); i++) {
      firstOfKey.putIfAbsent(rows.get(i).key(), i);
    }
    List<NewRow> unique = new ArrayList<>(firstOfKey.size());
    firstOfKey.values().forEach(i -> unique.add(rows.get(i)));
    Set<EventKey> inserted = insert(c, unique);
    boolean[] isNew = new boolean[rows.size()];
    for (int i = 0; i < rows.size(); i++) {
      EventKey key = rows.get(i).key();
      isNew[i] = firstOfKey.get(key) == i && inserted.contains(key);
    }
    return isNew;
  }

  /**
   * Adds the deliveries of {@code rows} that were not new ({@code isNew} false) to their rows'
   * duplicate counters, in key order, in one round trip (one transaction in autocommit). A replay
   * finding what was received is not a redelivery and is not counted.
   *
   * @return whether there was anything to count
   */
  boolean countDuplicates(Connection c, List<NewRow> rows, boolean[] isNew) throws SQLException {
    Map<EventKey, Integer> duplicates = new TreeMap<>(KEY_ORDER);
    for (int i = 0; i < rows.size(); i++) {
      if (!isNew[i] && rows.get(i).source().isDelivery()) {
        duplicates.merge(rows.get(i).key(), 1, Integer::sum);
      }
    }
    countDuplicates(c, duplicates);
    return !duplicates.isEmpty();
  }

  private Set<EventKey> insert(Connection c, List<NewRow> rows) throws SQLException {
    Set<EventKey> inserted = new HashSet<>();
    try (PreparedStatement ps = c.prepareStatement(insertSql(rows.size()))) {
      int p = 0;
      for (NewRow row : rows) {
        p = bind(ps, p, row);
      }
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          inserted.add(new EventKey(rs.getString(1), rs.getString(2), rs.getString(3)));
        }
      }
    }
    return inserted;
  }

  /**
   * One update per duplicated key, sent as one JDBC batch (one round trip) in key order. It waits
   * for a claim or a settle holding the row, each a short statement just before its commit.
   */
  private void countDuplicates(Connection c, Map<EventKey, Integer> duplicates) throws SQLException {
    if (duplicates.isEmpty()) {
      return;
    }
    try (PreparedStatement ps = c.prepareStatement(countDuplicateSql)) {
      for (Map.Entry<EventKey, Integer> d : duplicates.entrySet()) {
        ps.setInt(1, d.getValue());
        ps.setString(2, d.getKey().provider());
        ps.setString(3, d.getKey().scope());
        ps.setString(4, d.getKey().eventId());
        ps.addBatch();
      }
      ps.executeBatch();
    }
  }

  private String insertSql(int rows) {
    String sql = insertSql.get(rows);
    if (sql == null) {
      InsertValuesStepN<Record> insert = render.insertInto(events.table(),
          COLUMNS.stream().<Field<?>>map(EventColumn::field).toList());
      List<Field<?>> placeholders = COLUMNS.stream().<Field<?>>map(EventColumn::insertValue).toList();
      for (int i = 0; i < rows; i++) {
        insert = insert.values(placeholders);
      }
      sql = RenderedSql.render(insert.onConflict(PROVIDER, SCOPE, EVENT_ID).doNothing()
          .returningResult(PROVIDER, SCOPE, EVENT_ID), rows * BINDS_PER_ROW);
      insertSql.set(rows, sql);
    }
    return sql;
  }

  /** Binds one row's values in the order of {@link #BINDERS}, after parameter {@code p}; returns the last one bound. */
  private static int bind(PreparedStatement ps, int p, NewRow row) throws SQLException {
    for (EventColumn.Binder binder : BINDERS) {
      binder.bind(ps, ++p, row);
    }
    return p;
  }

  /** The bytes of a row a batch's size is measured in: its body and, if apart, its payload. */
  static long rowBytes(NewRow row) {
    WebhookEvent e = row.event();
    return e.bodyLength() + (e.payloadWrapped() ? EventBytes.payloadJson(e).length : 0);
  }

  /** The most rows one statement can bind: PostgreSQL's protocol counts parameters in 16 bits. */
  static int maxRowsPerStatement() {
    return Short.MAX_VALUE / BINDS_PER_ROW;
  }
}
