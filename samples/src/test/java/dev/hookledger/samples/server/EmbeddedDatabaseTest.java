package dev.hookledger.samples.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EmbeddedDatabaseTest {
  @TempDir Path dir;

  @Test
  void persistentDatabaseKeepsCommittedRowsAcrossARestart() throws SQLException {
    Path data = dir.resolve("samples-db");
    try (EmbeddedDatabase db = EmbeddedDatabase.persistent(data)) {
      execute(db.dataSource(), "CREATE TABLE kept (v text); INSERT INTO kept VALUES ('before restart')");
    }
    try (EmbeddedDatabase db = EmbeddedDatabase.persistent(data)) {
      assertEquals("before restart", query(db.dataSource(), "SELECT v FROM kept"));
      assertEquals(data.toAbsolutePath(), db.dataDirectory());
    }
  }

  @Test
  void persistentDatabaseTurnsDurableCommitsBackOn() throws SQLException {
    try (EmbeddedDatabase db = EmbeddedDatabase.persistent(dir.resolve("db"))) {
      assertEquals("on", query(db.dataSource(), "SHOW fsync"));
      assertEquals("on", query(db.dataSource(), "SHOW synchronous_commit"));
      assertEquals("on", query(db.dataSource(), "SHOW full_page_writes"));
    }
  }

  @Test
  void secondServerOnTheSameDirectoryIsRefusedNamingTheDirectory() {
    Path data = dir.resolve("shared-db");
    try (EmbeddedDatabase first = EmbeddedDatabase.persistent(data)) {
      IllegalStateException e =
          assertThrows(IllegalStateException.class, () -> EmbeddedDatabase.persistent(data));
      assertEquals("the data directory " + data.toAbsolutePath()
          + " is in use by another process (is another 'serve' running?)", e.getMessage());
    }
  }

  @Test
  void aStartWhosePortAnotherServerTookIsGivenUpAndTriedAgainOnAFreeOne() throws SQLException {
    // as when another JVM binds the port zonky picked before our postmaster does: the readiness check
    // is answered by the other server, which must not be taken for ours
    try (EmbeddedDatabase other = EmbeddedDatabase.temporary(false)) {
      execute(other.dataSource(), "CREATE TABLE theirs (v int)");
      AtomicInteger starts = new AtomicInteger();
      try (EmbeddedDatabase db = EmbeddedDatabase.temporary(false,
          () -> starts.getAndIncrement() == 0 ? other.port() : 0)) {
        assertEquals(2, starts.get(), "the first start lost its port to the other server, the second did not");
        assertNotEquals(other.port(), db.port());
        assertEquals("0", query(db.dataSource(), "SELECT count(*) FROM pg_tables WHERE tablename = 'theirs'"));
      }
      assertEquals("1", query(other.dataSource(), "SELECT count(*) FROM pg_tables WHERE tablename = 'theirs'"),
          "giving up the lost start left the other server running");
    }
  }

  static void execute(DataSource ds, String sql) throws SQLException {
    try (Connection c = ds.getConnection(); Statement s = c.createStatement()) {
      s.execute(sql);
    }
  }

  static String query(DataSource ds, String sql) throws SQLException {
    try (Connection c = ds.getConnection(); Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      rs.next();
      return rs.getString(1);
    }
  }
}
