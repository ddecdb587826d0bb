package dev.hookledger.runtime.testing;

import javax.sql.DataSource;
import org.jooq.DSLContext;
import org.jooq.exception.DataAccessException;
import org.junit.jupiter.api.Assumptions;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * A login role of its own that may read and write a ledger's tables but is no superuser: it cannot
 * see other roles' sessions in {@code pg_stat_activity}, as an application's role usually cannot.
 * Aborts the test where the test database's user may not create roles; dropped with what it owns.
 */
public final class LedgerRole implements AutoCloseable {
  private final DSLContext admin;
  private final String name;
  private final PGSimpleDataSource dataSource = new PGSimpleDataSource();

  /**
   * @param admin a superuser's connection to the database
   * @param jdbcUrl the database's URL, whose parameters (the superuser) are left out
   * @param schema the ledger's schema, whose tables and sequences the role is given
   */
  public LedgerRole(DSLContext admin, String jdbcUrl, String schema) {
    this.admin = admin;
    this.name = "hl_role_" + Long.toHexString(System.nanoTime());
    try {
      admin.execute("create role " + name + " login password 'p'");
    } catch (DataAccessException e) {
      Assumptions.abort("the test database's user cannot create a role: " + e.getMessage());
    }
    admin.execute("grant usage on schema " + schema + " to " + name);
    admin.execute("grant select, insert, update, delete on all tables in schema " + schema + " to " + name);
    admin.execute("grant usage on all sequences in schema " + schema + " to " + name);
    dataSource.setURL(jdbcUrl.replaceFirst("\\?.*$", ""));
    dataSource.setUser(name);
    dataSource.setPassword("p");
  }

  /** Connections as the role. */
  public DataSource dataSource() {
    return dataSource;
  }

  @Override
  public void close() {
    admin.execute("drop owned by " + name);
    admin.execute("drop role " + name);
  }
}
