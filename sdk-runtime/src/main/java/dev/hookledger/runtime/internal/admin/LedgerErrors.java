package dev.hookledger.runtime.internal.admin;

import dev.hookledger.LedgerUnavailableException;
import java.sql.SQLException;
import java.util.function.Supplier;
import org.jooq.exception.DataAccessException;

/**
 * Turns jOOQ's database failures into {@link LedgerUnavailableException} with the database's own
 * one-line reason (jOOQ's message repeats the whole SQL statement), and says "run migrate" when
 * the ledger tables are missing.
 */
public final class LedgerErrors {
  private static final String UNDEFINED_TABLE = "42P01";

  private LedgerErrors() {}

  /** Runs {@code work}, translating a database failure. */
  public static <T> T guard(LedgerTables tables, Supplier<T> work) {
    try {
      return work.get();
    } catch (DataAccessException e) {
      throw translate(tables, e);
    }
  }

  static LedgerUnavailableException translate(LedgerTables tables, DataAccessException e) {
    SQLException sql = e.getCause(SQLException.class);
    if (sql == null) {
      return new LedgerUnavailableException("ledger database failure: " + e.getMessage(), e);
    }
    if (UNDEFINED_TABLE.equals(sql.getSQLState())) {
      return new LedgerUnavailableException("the ledger tables do not exist in schema " + tables.schema()
          + " of this database; run migrate first", e);
    }
    return new LedgerUnavailableException("ledger database failure: " + firstLine(sql.getMessage()), e);
  }

  private static String firstLine(String message) {
    if (message == null) {
      return "(no message)";
    }
    int nl = message.indexOf('\n');
    return nl < 0 ? message : message.substring(0, nl);
  }
}
