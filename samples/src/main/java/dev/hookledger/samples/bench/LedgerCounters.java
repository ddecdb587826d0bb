package dev.hookledger.samples.bench;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import javax.sql.DataSource;

/**
 * What a phase cost the database, read from its own counters before and after: WAL written (every
 * durable commit flushes it, so its volume per event is what history can make grow: index pages
 * first touched since a checkpoint are written whole) and how many of the event table's updates
 * were HOT (no index entry written, the new row version on the same page).
 *
 * @param walBytes the WAL position, in bytes
 * @param updates updates of the event table so far
 * @param hotUpdates of those, HOT ones
 */
record LedgerCounters(long walBytes, long updates, long hotUpdates) {

  /** No WAL, no updates: where a sum of phases starts. */
  static final LedgerCounters NONE = new LedgerCounters(0, 0, 0);

  /** What happened from {@code before} to these counters. */
  LedgerCounters minus(LedgerCounters before) {
    return new LedgerCounters(walBytes - before.walBytes, updates - before.updates, hotUpdates - before.hotUpdates);
  }

  /** These counters and {@code other}'s together: phases added up. */
  LedgerCounters plus(LedgerCounters other) {
    return new LedgerCounters(walBytes + other.walBytes, updates + other.updates, hotUpdates + other.hotUpdates);
  }

  /** The counters now. Statistics are flushed by each backend at its transaction ends, so a phase's settle count is near, not exact. */
  static LedgerCounters read(DataSource dataSource, String schema) throws SQLException {
    try (Connection c = dataSource.getConnection();
        PreparedStatement ps = c.prepareStatement("SELECT pg_current_wal_lsn() - '0/0'::pg_lsn,"
            + " coalesce((SELECT n_tup_upd FROM pg_stat_user_tables WHERE schemaname = ? AND relname = 'event'), 0),"
            + " coalesce((SELECT n_tup_hot_upd FROM pg_stat_user_tables WHERE schemaname = ? AND relname = 'event'), 0)")) {
      ps.setString(1, schema);
      ps.setString(2, schema);
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return new LedgerCounters(rs.getLong(1), rs.getLong(2), rs.getLong(3));
      }
    }
  }

  /** What happened since {@code before}, per event of {@code events}: WAL KiB per event, updates per event, HOT share. */
  String since(LedgerCounters before, int events) {
    long updated = updates - before.updates;
    long hot = hotUpdates - before.hotUpdates;
    return String.format("%.1f KiB of WAL, %.1f updates of the event row per event (%.0f%% HOT)",
        (walBytes - before.walBytes) / 1024.0 / events, (double) updated / events,
        updated == 0 ? 0.0 : hot * 100.0 / updated);
  }
}
