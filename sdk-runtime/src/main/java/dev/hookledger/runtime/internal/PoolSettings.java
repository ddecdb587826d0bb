package dev.hookledger.runtime.internal;

import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.SQLException;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the pool a runtime was given hands out, read once at start and logged: whether its
 * connections come in autocommit, their isolation, and HikariCP's own settings when it is one. The
 * runtime is correct either way (every statement outside a handler's transaction runs in a
 * transaction of its own), and this line says what it found, for an operator wondering why.
 */
public final class PoolSettings {
  private static final Logger log = LoggerFactory.getLogger(PoolSettings.class);

  private PoolSettings() {}

  /**
   * Reads and logs the settings of {@code dataSource} on a daemon thread of its own, so that a pool
   * that waits for a database that is down never holds up the start.
   */
  public static void logInBackground(DataSource dataSource, String name) {
    Thread t = new Thread(() -> log.info("{}: {}", name, describe(dataSource)), name + "-pool-settings");
    t.setDaemon(true);
    t.start();
  }

  /** One line on the pool's connections; never a URL's password (no URL at all). */
  public static String describe(DataSource dataSource) {
    StringBuilder s = new StringBuilder();
    try {
      if (dataSource.isWrapperFor(HikariDataSource.class)) {
        HikariDataSource h = dataSource.unwrap(HikariDataSource.class);
        s.append("HikariCP pool '").append(h.getPoolName()).append("' (maximumPoolSize ")
            .append(h.getMaximumPoolSize()).append(", autoCommit ").append(h.isAutoCommit()).append("), ");
      } else {
        s.append(dataSource.getClass().getName()).append(", ");
      }
    } catch (SQLException e) {
      s.append(dataSource.getClass().getName()).append(", ");
    }
    try (Connection c = dataSource.getConnection()) {
      s.append("connections come with autoCommit=").append(c.getAutoCommit())
          .append(", isolation ").append(isolation(c.getTransactionIsolation()));
      if (!c.getAutoCommit()) {
        s.append(": the runtime's statements outside handler transactions run in transactions of their own");
      }
    } catch (SQLException | RuntimeException e) {
      s.append("its connections could not be read now (").append(e.getClass().getSimpleName()).append(")");
    }
    return s.toString();
  }

  private static String isolation(int level) {
    return switch (level) {
      case Connection.TRANSACTION_NONE -> "NONE";
      case Connection.TRANSACTION_READ_UNCOMMITTED -> "READ_UNCOMMITTED";
      case Connection.TRANSACTION_READ_COMMITTED -> "READ_COMMITTED";
      case Connection.TRANSACTION_REPEATABLE_READ -> "REPEATABLE_READ";
      case Connection.TRANSACTION_SERIALIZABLE -> "SERIALIZABLE";
      default -> String.valueOf(level);
    };
  }
}
