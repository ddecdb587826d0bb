package dev.hookledger.runtime.internal.ledger;

import java.sql.Array;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.jooq.DSLContext;
import org.jooq.Record;
import org.jooq.Table;
import org.jooq.impl.DSL;

/**
 * The {@code handler_applied} table (V8): which named {@code @OnEvent} methods have applied which
 * event. Written inside the handlers' own transaction, before they run, by one statement per event
 * for all of its handlers, {@code INSERT ... SELECT unnest(?) ON CONFLICT DO NOTHING RETURNING
 * handler}: the names it returns were not recorded yet, and only those run. The primary key decides
 * a race between a live attempt and a backfill of one event: the second insert waits for the first
 * transaction and then finds the row (it ran) or not (it rolled back). So live processing, retries,
 * replays and backfills never apply one handler to one event twice. Thread-safe.
 *
 * <p>A {@code done} event with no row at all was settled before this bookkeeping existed (a
 * <em>legacy</em> event): every handler registered then applied it, which the ledger cannot name.
 */
public final class AppliedRows {
  private final String recordSql;
  private final Table<Record> table;

  public AppliedRows(String schema) {
    this.table = DSL.table(DSL.name(EventTable.requireSchemaName(schema), "handler_applied"));
    // the key's order is the primary key's, so that concurrent inserts of several names lock in one order
    this.recordSql = "insert into \"" + schema + "\".handler_applied (provider, scope, event_id, handler) "
        + "select ?, ?, ?, h from unnest(?::text[]) as h order by h "
        + "on conflict (provider, scope, event_id, handler) do nothing returning handler";
  }

  /**
   * Records {@code names} as applied to {@code key} inside {@code tx}.
   *
   * @return the names not recorded before (the ones to run); empty if every one was
   */
  public Set<String> record(DSLContext tx, EventKey key, List<String> names) {
    return tx.connectionResult(c -> {
      try (PreparedStatement ps = c.prepareStatement(recordSql)) {
        ps.setString(1, key.provider());
        ps.setString(2, key.scope());
        ps.setString(3, key.eventId());
        Array array = c.createArrayOf("text", names.toArray());
        ps.setArray(4, array);
        Set<String> recorded = new HashSet<>();
        try (ResultSet rs = ps.executeQuery()) {
          while (rs.next()) {
            recorded.add(rs.getString(1));
          }
        }
        return recorded;
      }
    });
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
