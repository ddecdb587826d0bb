package dev.hookledger.runtime.internal;

import java.time.Duration;

/**
 * The time limits of a runtime, as the builder validated them: how long a handler may run, how long
 * one statement, one lock wait and one idle open transaction may last on the runtime's sessions,
 * and the JDBC connect and socket timeouts of the pool a runtime builds for itself. A zero
 * statement, lock or idle timeout turns that one off, as in PostgreSQL.
 *
 * @param fromPool whether the application's pool sets the session timeouts on its connections itself,
 *     so that the runtime sends none per transaction (and its statement, lock and idle ones are unused)
 */
public record Deadlines(Duration handler, Duration statement, Duration lock, Duration idleInTransaction,
    Duration connect, Duration socket, boolean fromPool) {
  public static final Duration DEFAULT_HANDLER = Duration.ofSeconds(30);
  public static final Duration DEFAULT_STATEMENT = Duration.ofSeconds(5);
  public static final Duration DEFAULT_LOCK = Duration.ofSeconds(3);
  public static final Duration DEFAULT_IDLE_IN_TRANSACTION = Duration.ofSeconds(60);
  public static final Duration DEFAULT_CONNECT = Duration.ofSeconds(3);
  public static final Duration DEFAULT_SOCKET = Duration.ofSeconds(6);

  public static Deadlines defaults() {
    return new Deadlines(DEFAULT_HANDLER, DEFAULT_STATEMENT, DEFAULT_LOCK, DEFAULT_IDLE_IN_TRANSACTION,
        DEFAULT_CONNECT, DEFAULT_SOCKET, false);
  }

  /**
   * The PostgreSQL JDBC {@code options} property that sets the three session timeouts when a
   * connection opens, so that they cost no round trip.
   */
  public String sessionOptions() {
    return "-c statement_timeout=" + statement.toMillis() + " -c lock_timeout=" + lock.toMillis()
        + " -c idle_in_transaction_session_timeout=" + idleInTransaction.toMillis();
  }

  /**
   * One statement that sets the three session timeouts for the rest of the current transaction only
   * ({@code set_config(..., true)}, as {@code SET LOCAL}), the values inlined: for a data source the
   * application gives, whose sessions the runtime must not change for good. Constant, so that the
   * driver caches it by its text and the server plans it once per session.
   */
  public String localSql() {
    return "select set_config('statement_timeout', '" + statement.toMillis() + "', true), set_config('lock_timeout', '"
        + lock.toMillis() + "', true), set_config('idle_in_transaction_session_timeout', '"
        + idleInTransaction.toMillis() + "', true)";
  }
}
