package dev.hookledger.runtime.internal;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.time.Duration;

/** The HikariCP pool a runtime builds for itself when it is given a JDBC URL. */
public final class Pools {
  /** How long a request waits for a connection before it is answered 503. */
  public static final Duration CONNECTION_TIMEOUT = Duration.ofSeconds(5);

  private Pools() {}

  /**
   * A pool of {@code size} connections that does not need the database at start: the runtime can be
   * built while it is down, and deliveries are answered 503 until it is back.
   */
  public static HikariDataSource create(String jdbcUrl, String user, String password, int size, String name) {
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
    c.setInitializationFailTimeout(-1);
    return new HikariDataSource(c);
  }
}
