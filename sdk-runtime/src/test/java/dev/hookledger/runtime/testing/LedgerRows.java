package dev.hookledger.runtime.testing;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import javax.sql.DataSource;

/** Reads the ledger and fixture tables with plain JDBC, apart from the code under test. */
public final class LedgerRows {
  private LedgerRows() {}

  /** The {@code event} row of {@code eventId} (any provider and scope), as column name to value. */
  public static Optional<Map<String, Object>> event(DataSource ds, String schema, String eventId) {
    return first(ds, "select * from " + schema + ".event where event_id = ?", eventId);
  }

  /** The number of rows in {@code schema.event}. */
  public static long events(DataSource ds, String schema) {
    return number(ds, "select count(*) from " + schema + ".event");
  }

  /** The first column of the first row of a query that returns one number. */
  public static long number(DataSource ds, String sql, Object... args) {
    return first(ds, sql, args).map(r -> ((Number) r.values().iterator().next()).longValue())
        .orElseThrow(() -> new IllegalStateException("no row: " + sql));
  }

  /** The first row of a query, as column name to value. */
  public static Optional<Map<String, Object>> first(DataSource ds, String sql, Object... args) {
    try (Connection c = ds.getConnection(); PreparedStatement s = c.prepareStatement(sql)) {
      for (int i = 0; i < args.length; i++) {
        s.setObject(i + 1, args[i]);
      }
      try (ResultSet rs = s.executeQuery()) {
        if (!rs.next()) {
          return Optional.empty();
        }
        ResultSetMetaData md = rs.getMetaData();
        Map<String, Object> row = new LinkedHashMap<>();
        for (int i = 1; i <= md.getColumnCount(); i++) {
          row.put(md.getColumnLabel(i), rs.getObject(i));
        }
        return Optional.of(row);
      }
    } catch (SQLException e) {
      throw new IllegalStateException("test query failed: " + sql, e);
    }
  }
}
