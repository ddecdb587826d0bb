package dev.hookledger.runtime.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import org.junit.jupiter.api.Test;

class TestDatabaseTest {
  @Test
  void eachDatabaseIsFreshAndReal() throws Exception {
    TestDatabase.Database a = TestDatabase.create();
    TestDatabase.Database b = TestDatabase.create();
    a.execute("CREATE TABLE t (x int); INSERT INTO t VALUES (1)");
    b.execute("CREATE TABLE t (x int)");
    try (Connection c = b.dataSource().getConnection(); Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT count(*), current_setting('server_version_num') FROM t")) {
      rs.next();
      assertEquals(0, rs.getInt(1));
      assertEquals(17, rs.getInt(2) / 10000, "PostgreSQL major version");
    }
  }
}
