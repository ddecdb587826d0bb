package dev.hookledger.runtime.internal.ledger;

import javax.sql.DataSource;
import org.jooq.DSLContext;
import org.jooq.SQLDialect;
import org.jooq.conf.Settings;
import org.jooq.impl.DSL;

/** The jOOQ context every ledger statement runs through, the runtime's and the admin's alike. */
public final class LedgerDsl {
  static {
    // jOOQ prints its logo and a "tip of the day" on the first query: noise in an application's log
    // that no hookledger user asked for. Set before any jOOQ rendering class initialises; an explicit
    // -Dorg.jooq.no-logo=false (or no-tips) by the application is left alone.
    quiet("org.jooq.no-logo");
    quiet("org.jooq.no-tips");
  }

  private LedgerDsl() {}

  private static void quiet(String property) {
    if (System.getProperty(property) == null) {
      System.setProperty(property, "true");
    }
  }

  /**
   * A PostgreSQL context on {@code dataSource} with jOOQ's execute logging off: its debug log prints
   * bind values and fetched rows, webhook bodies among them.
   */
  public static DSLContext on(DataSource dataSource) {
    return DSL.using(dataSource, SQLDialect.POSTGRES, new Settings().withExecuteLogging(false));
  }
}
