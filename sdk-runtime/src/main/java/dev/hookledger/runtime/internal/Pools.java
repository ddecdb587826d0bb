package dev.hookledger.runtime.internal;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.time.Duration;

/** The HikariCP pool a runtime builds for itself when it is given a JDBC URL. */
public final class Pools {
  /**
   * How long a request waits for a connection (a free one, a new one, or one checked alive) before it
   * is answered 503. With the socket timeout after it (the first statement on a connection that
   * stopped answering waits that long), it makes the bound on a silent database's 503: 3 s + 6 s by
   * default, within the 10 s GitHub waits for an answer.
   */
  public static final Duration CONNECTION_TIMEOUT = Duration.ofSeconds(3);
  /** How long the pool's check of an idle connection may take; several fit in {@link #CONNECTION_TIMEOUT}. */
  public static final Duration VALIDATION_TIMEOUT = Duration.ofSeconds(1);

  private Pools() {}

  /**
   * A pool of {@code size} connections that does not need the database at start: the runtime can be
   * built while it is down, and deliveries are answered 503 until it is back. Every connection has
   * the {@code deadlines}: the driver's connect, login and socket timeouts (so that a database that
   * stops answering fails a statement instead of hanging its thread), and the session's statement,
   * lock and idle-in-transaction timeouts. A parameter of the same name in the URL wins.
   */
  public static HikariDataSource create(String jdbcUrl, String user, String password, int size, String name,
      Deadlines deadlines) {
    HikariConfig c = new HikariConfig();
    c.setJdbcUrl(jdbcUrl);
    if (user != null) {
      c.setUsername(user);
    }
    if (password != null) {
      c.setPassword(password);
    }
    c.setPoolName(name);
    c.setMaximumPoolSize(size);
    c.setConnectionTimeout(CONNECTION_TIMEOUT.toMillis());
    c.setValidationTimeout(VALIDATION_TIMEOUT.toMillis());
    c.setInitializationFailTimeout(-1);
    c.addDataSourceProperty("connectTimeout", String.valueOf(seconds(deadlines.connect())));
    c.addDataSourceProperty("loginTimeout", String.valueOf(seconds(CONNECTION_TIMEOUT)));
    c.addDataSourceProperty("socketTimeout", String.valueOf(seconds(deadlines.socket())));
    c.addDataSourceProperty("options", deadlines.sessionOptions());
    return new HikariDataSource(c);
  }

  /** Whole seconds, the driver's unit, rounded up so that a limit is never shortened (0 stays off). */
  private static long seconds(Duration d) {
    return (d.toMillis() + 999) / 1000;
  }
}
