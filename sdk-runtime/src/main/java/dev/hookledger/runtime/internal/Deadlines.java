package dev.hookledger.runtime.internal;

import java.time.Duration;

/**
 * The time limits of a runtime, as the builder validated them (the public
 * {@code dev.hookledger.runtime.Deadlines}, which owns their defaults): how long a handler may run,
 * how long one statement, one lock wait and one idle open transaction may last on the runtime's
 * sessions, and the JDBC connect and socket timeouts of the pool a runtime builds for itself. A zero
 * statement, lock or idle timeout turns that one off, as in PostgreSQL.
 *
 * @param fromPool whether the application's pool sets the session timeouts on its connections itself,
 *     so that the runtime sends none per transaction (and its statement, lock and idle ones are unused)
 */
public record Deadlines(Duration handler, Duration statement, Duration lock, Duration idleInTransaction,
    Duration connect, Duration socket, boolean fromPool) {
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

  /**
   * As {@link #localSql()}, for a transaction on a Citus coordinator: {@code SET LOCAL} commands, with
   * {@code citus.propagate_set_commands} set to {@code local} first, so that the coordinator sends them
   * on to the connections it opens to the workers in this transaction. Citus passes neither a session's
   * settings nor {@code set_config} to the workers: without these, a lock wait on a worker's shard
   * was bounded only by the coordinator's statement timeout, never by the lock timeout.
   */
  public String localSqlOnCitus() {
    return "set local citus.propagate_set_commands = 'local'; set local statement_timeout = " + statement.toMillis()
        + "; set local lock_timeout = " + lock.toMillis() + "; set local idle_in_transaction_session_timeout = "
        + idleInTransaction.toMillis();
  }
}
