package dev.hookledger.runtime.internal.ledger;

import javax.sql.DataSource;
import org.jooq.DSLContext;
import org.jooq.SQLDialect;
import org.jooq.conf.Settings;
import org.jooq.impl.DSL;

/** The jOOQ context every ledger statement runs through, the runtime's and the admin's alike. */
public final class LedgerDsl {
  private LedgerDsl() {}

  /**
   * A PostgreSQL context on {@code dataSource} with jOOQ's execute logging off: its debug log prints
   * bind values and fetched rows, webhook bodies among them.
   */
  public static DSLContext on(DataSource dataSource) {
    return DSL.using(dataSource, SQLDialect.POSTGRES, new Settings().withExecuteLogging(false));
  }
}
