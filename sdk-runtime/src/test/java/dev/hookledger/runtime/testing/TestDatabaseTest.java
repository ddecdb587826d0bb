package dev.hookledger.runtime.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.platform.engine.discovery.DiscoverySelectors;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.postgresql.ds.PGSimpleDataSource;

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
      if (TestDatabase.embedded()) {
        // the binaries this build pins; a server named by HOOKLEDGER_TEST_DATABASE_URL is of its own version
        assertEquals(17, rs.getInt(2) / 10000, "PostgreSQL major version");
      }
    }
  }

  /** A test class of its own, run by the launcher below, that makes a database as test classes do. */
  static class MakesADatabase {
    static volatile String name;

    @Test
    void makesOne() {
      name = ((PGSimpleDataSource) TestDatabase.create().dataSource()).getDatabaseName();
    }
  }

  @Test
  void aTestClassesDatabasesAreDroppedOnceItHasFinished() {
    // the launcher registers the suite's listeners from META-INF/services, DropFinishedDatabases among them
    LauncherFactory.create().execute(LauncherDiscoveryRequestBuilder.request()
        .selectors(DiscoverySelectors.selectClass(MakesADatabase.class)).build());

    String name = MakesADatabase.name;
    assertNotNull(name, "the class ran");
    TestDatabase.Database other = TestDatabase.create();
    Await.until(name + " dropped", () -> LedgerRows.number(other.dataSource(),
        "select count(*) from pg_database where datname = ?", name) == 0);
  }
}
