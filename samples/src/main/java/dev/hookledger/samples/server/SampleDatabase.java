package dev.hookledger.samples.server;

import static java.util.Objects.requireNonNull;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import javax.sql.DataSource;

/**
 * Where the sample application keeps its ledger and business tables: a PostgreSQL named by a JDBC
 * URL, or an embedded one. Owns a connection pool over it, and the embedded server if there is
 * one; {@link #close()} closes both, pool first.
 */
public final class SampleDatabase implements AutoCloseable {
  private static final int POOL_SIZE = 16;
  /** The runtime's default statement, lock and idle-in-transaction timeouts, as the pool sets them. */
  static final String SESSION_TIMEOUTS = "set statement_timeout = '5s'; set lock_timeout = '3s';"
      + " set idle_in_transaction_session_timeout = '60s'";

  private final EmbeddedDatabase embedded;
  private final HikariDataSource pool;
  private final String description;
  private final String jdbcUrl;

  private SampleDatabase(EmbeddedDatabase embedded, String jdbcUrl, DataSource unpooled,
      String description, int poolSize) {
    this.embedded = embedded;
    this.jdbcUrl = jdbcUrl;
    this.description = description;
    HikariConfig config = new HikariConfig();
    config.setPoolName("samples");
    config.setMaximumPoolSize(poolSize);
    // the runtime's default session timeouts on every connection as it opens: a runtime told
    // sessionTimeoutsFromPool(true) (bench's) then sends no SET LOCAL per transaction; one that is
    // not (serve's, whose timeouts are options) still sets its own per transaction over these
    config.setConnectionInitSql(SESSION_TIMEOUTS);
    if (unpooled != null) {
      config.setDataSource(unpooled);
    } else {
      config.setJdbcUrl(jdbcUrl);
    }
    this.pool = new HikariDataSource(config);
  }

  /** The PostgreSQL at {@code jdbcUrl} ({@code jdbc:postgresql://host:port/db?user=..&password=..}). */
  public static SampleDatabase external(String jdbcUrl) {
    return external(jdbcUrl, POOL_SIZE);
  }

  /** As {@link #external(String)}, pooled by up to {@code poolSize} connections (see {@link #temporary(boolean, int)}). */
  public static SampleDatabase external(String jdbcUrl, int poolSize) {
    requireNonNull(jdbcUrl, "jdbcUrl");
    if (!jdbcUrl.startsWith("jdbc:postgresql:")) {
      throw new IllegalArgumentException(
          "the database URL must start with jdbc:postgresql:, but was " + redact(jdbcUrl));
    }
    return new SampleDatabase(null, jdbcUrl, null, "PostgreSQL at " + redact(jdbcUrl), poolSize);
  }

  /** An embedded, durable PostgreSQL whose data lives in {@code dataDirectory} across restarts. */
  public static SampleDatabase embedded(Path dataDirectory) {
    EmbeddedDatabase db = EmbeddedDatabase.persistent(dataDirectory);
    return over(db, "embedded PostgreSQL 17, data in " + db.dataDirectory() + " (durable commits on)", POOL_SIZE);
  }

  /** An embedded PostgreSQL in a temporary directory, deleted on close. */
  public static SampleDatabase temporary(boolean durable) {
    return temporary(durable, POOL_SIZE);
  }

  /**
   * As {@link #temporary(boolean)}, pooled by up to {@code poolSize} connections: a runtime with
   * many workers needs one for each, beside its ledger writers, poller and notifier.
   */
  public static SampleDatabase temporary(boolean durable, int poolSize) {
    EmbeddedDatabase db = EmbeddedDatabase.temporary(durable);
    return over(db, "embedded PostgreSQL 17, temporary"
        + (durable ? " (durable commits on)" : " (durable commits off)"), poolSize);
  }

  private static SampleDatabase over(EmbeddedDatabase db, String description, int poolSize) {
    try {
      return new SampleDatabase(db, db.jdbcUrl(), db.dataSource(), description, poolSize);
    } catch (RuntimeException e) {
      db.close();
      throw e;
    }
  }

  /**
   * A second database named {@code name}, created now and empty, on this one's embedded server,
   * pooled by up to {@code poolSize} connections: two ledgers on one server, as {@code bench
   * --history} compares them. Closing it closes its pool only: close it before this one.
   *
   * @throws IllegalArgumentException if {@code name} is not a lower-case SQL identifier
   * @throws IllegalStateException if this database is not embedded, or the database cannot be created
   */
  public SampleDatabase beside(String name, int poolSize) {
    requireNonNull(name, "name");
    if (!name.matches("[a-z_][a-z0-9_]{0,62}")) {
      throw new IllegalArgumentException("a database name must be a lower-case SQL identifier, but was " + name);
    }
    if (embedded == null) {
      throw new IllegalStateException("a database beside this one is made on an embedded server only");
    }
    // the unpooled superuser connection: no session timeouts on a statement that copies a template
    try (Connection c = embedded.dataSource().getConnection(); Statement s = c.createStatement()) {
      s.execute("CREATE DATABASE " + name);
    } catch (SQLException e) {
      throw new IllegalStateException("cannot create the database " + name + ": " + e.getMessage(), e);
    }
    return new SampleDatabase(null, embedded.jdbcUrl(name), null,
        "database " + name + " on the same embedded PostgreSQL", poolSize);
  }

  /** The pooled data source; valid until {@link #close()}. */
  public DataSource dataSource() {
    return pool;
  }

  /** A JDBC URL of the same database, for the operations commands. May hold a password. */
  public String jdbcUrl() {
    return jdbcUrl;
  }

  /** What and where this database is, for a start-up line; never shows a password. */
  public String description() {
    return description;
  }

  @Override
  public void close() {
    pool.close();
    if (embedded != null) {
      embedded.close();
    }
  }

  /** {@code jdbcUrl} without the value of a {@code password} parameter. */
  static String redact(String jdbcUrl) {
    return jdbcUrl.replaceAll("(?i)(password=)[^&]*", "$1***");
  }
}
