package dev.hookledger.runtime.internal.ledger;

import dev.hookledger.LedgerUnavailableException;
import java.sql.SQLException;

/**
 * Turns a database failure into a {@link LedgerUnavailableException} whose message names the event
 * and the SQL state only: a driver's own message can quote row values (a body among them).
 */
public final class LedgerErrors {
  private LedgerErrors() {}

  public static LedgerUnavailableException unavailable(String action, EventKey key, Throwable cause) {
    return new LedgerUnavailableException(
        "cannot " + action + " " + key + " in the ledger: " + describe(cause), cause);
  }

  /** The first SQL exception's class and state, e.g. {@code PSQLException (SQL state 08001)}. */
  public static String describe(Throwable error) {
    for (Throwable t = error; t != null; t = t.getCause()) {
      if (t instanceof SQLException sql) {
        return sql.getClass().getSimpleName() + " (SQL state " + sql.getSQLState() + ")";
      }
    }
    return error.getClass().getSimpleName();
  }

  /** The first SQL exception's own message, for statements whose errors cannot quote event data (DDL). */
  public static String sqlMessage(Throwable error) {
    for (Throwable t = error; t != null; t = t.getCause()) {
      if (t instanceof SQLException sql) {
        return String.valueOf(sql.getMessage());
      }
    }
    return String.valueOf(error.getMessage());
  }
}
