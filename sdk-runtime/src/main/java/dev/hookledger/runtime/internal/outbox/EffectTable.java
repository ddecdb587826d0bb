package dev.hookledger.runtime.internal.outbox;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jooq.DSLContext;

/**
 * The outbox's tables of one schema ({@code effect}, {@code effect_attempt},
 * {@code destination_state}, made by V15) and the few JDBC calls every statement on them goes
 * through: prepared on the transaction's own connection, binds by position, so that no statement
 * passes through jOOQ's plain-SQL templating (which reads braces and question marks of its own).
 */
final class EffectTable {
  final String effect;
  final String attempt;
  final String state;

  EffectTable(String schema) {
    String s = '"' + schema + '"';
    this.effect = s + ".effect";
    this.attempt = s + ".effect_attempt";
    this.state = s + ".destination_state";
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
