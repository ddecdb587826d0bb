package dev.hookledger.runtime.internal.ledger;

import dev.hookledger.LedgerUnavailableException;
import java.sql.SQLException;
import java.util.function.Supplier;
import org.jooq.exception.DataAccessException;

/**
 * Turns database failures into {@link LedgerUnavailableException}. On the receive and processing
 * paths the message names the event and the SQL state only: a driver's own message can quote row
 * values (a body among them). Admin operations, which write no event data, add the database's
 * one-line reason, and say "run migrate" when the ledger tables are missing.
 */
public final class LedgerErrors {
  private static final String UNDEFINED_TABLE = "42P01";

  private LedgerErrors() {}

  public static LedgerUnavailableException unavailable(String action, EventKey key, Throwable cause) {
    return new LedgerUnavailableException("cannot " + action + " " + key + " in the ledger: " + describe(cause)
        + (UNDEFINED_TABLE.equals(sqlState(cause)) ? ": the ledger tables do not exist; run migrate first" : ""), cause);
  }

  /**
   * Whether the database refused a statement for the data of a row, not for its own state: SQL
   * state class 22 (data exception: a value out of range, a bad encoding), 23 (integrity
   * constraint) but for a unique violation, which {@code ON CONFLICT} already decides, and 54
   * (program limit: an index entry larger than a B-tree page allows). Written again without that
   * row, the rest of its batch succeeds.
   */
  public static boolean isRowDataError(Throwable error) {
    String state = sqlState(error);
    if (state == null || state.length() != 5 || state.equals("23505")) {
      return false;
    }
    String sqlClass = state.substring(0, 2);
    return sqlClass.equals("22") || sqlClass.equals("23") || sqlClass.equals("54");
  }

  /**
   * Whether a failure to obtain a connection says that the database cannot be reached (refused,
   * unknown host, no answer to the connect): SQL state class 08 (connection exception) anywhere in the
   * chain, as the driver sets it and HikariCP passes on in its timeout, or a {@link java.net.ConnectException}.
   * A pool that merely had no free connection in time (no state) is not.
   */
  public static boolean isConnectionFailure(Throwable error) {
    for (Throwable t = error; t != null; t = t.getCause()) {
      if (t instanceof java.net.ConnectException
          || t instanceof SQLException sql && sql.getSQLState() != null && sql.getSQLState().startsWith("08")) {
        return true;
      }
    }
    return false;
  }

  /** The first SQL exception's class and state, e.g. {@code PSQLException (SQL state 08001)}. */
  public static String describe(Throwable error) {
    SQLException sql = firstSql(error);
    return sql == null ? error.getClass().getSimpleName()
        : sql.getClass().getSimpleName() + " (SQL state " + sql.getSQLState() + ")";
  }

  /** The first SQL exception's own message, for statements whose errors cannot quote event data (DDL). */
  public static String sqlMessage(Throwable error) {
    SQLException sql = firstSql(error);
    return String.valueOf(sql == null ? error.getMessage() : sql.getMessage());
  }

  /** Runs an admin operation on the ledger in {@code schema}, translating a database failure. */
  public static <T> T guard(String schema, Supplier<T> work) {
    try {
      return work.get();
    } catch (DataAccessException e) {
      throw translate(schema, e);
    }
  }

  private static LedgerUnavailableException translate(String schema, DataAccessException e) {
    SQLException sql = firstSql(e);
    if (sql == null) {
      return new LedgerUnavailableException("ledger database failure: " + e.getMessage(), e);
    }
    if (UNDEFINED_TABLE.equals(sql.getSQLState())) {
      return new LedgerUnavailableException("the ledger tables do not exist in schema " + schema
          + " of this database; run migrate first", e);
    }
    // the first line only: PostgreSQL's DETAIL line can quote the values of a row
    return new LedgerUnavailableException("ledger database failure: " + firstLine(sql.getMessage()), e);
  }

  private static SQLException firstSql(Throwable error) {
    for (Throwable t = error; t != null; t = t.getCause()) {
      if (t instanceof SQLException sql) {
        return sql;
      }
    }
    return null;
  }

  /**
   * Whether the database gave up waiting for a lock ({@code lock_timeout}, SQL state 55P03) anywhere
   * in the chain: a statement that takes a lock only when it comes at once, and tries again later.
   */
  public static boolean isLockNotAvailable(Throwable error) {
    return "55P03".equals(sqlState(error));
  }

  /**
   * Whether a statement was cancelled (SQL state 57014) anywhere in the chain: past its
   * {@code statement_timeout}, or by a cancel request.
   */
  public static boolean isStatementTimeout(Throwable error) {
    return "57014".equals(sqlState(error));
  }

  private static String sqlState(Throwable error) {
    SQLException sql = firstSql(error);
    return sql == null ? null : sql.getSQLState();
  }

  private static String firstLine(String message) {
    if (message == null) {
      return "(no message)";
    }
    int nl = message.indexOf('\n');
    return nl < 0 ? message : message.substring(0, nl);
  }
}
