package dev.hookledger.runtime.internal.admin;

import static java.util.Objects.requireNonNull;

import dev.hookledger.LedgerUnavailableException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.regex.Pattern;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Applies the ledger DDL ({@code db/hookledger/V1__ledger.sql}) to a database, with the schema name
 * {@code hookledger} replaced by the configured one. The one {@code migrate} implementation: the
 * admin API, the command line and {@code WebhookRuntime.migrate()} all call this.
 *
 * <p>The script is idempotent ({@code IF NOT EXISTS} throughout) and runs in one transaction under
 * a transaction-scoped advisory lock, so that several application instances starting at once
 * (each calling {@code migrate()}) do not race: concurrent {@code CREATE TABLE IF NOT EXISTS} in
 * PostgreSQL can fail with a unique violation on the catalog instead of waiting.
 */
public final class LedgerMigrator {
  private static final Logger log = LoggerFactory.getLogger(LedgerMigrator.class);
  private static final String RESOURCE = "db/hookledger/V1__ledger.sql";
  private static final Pattern COMMENT = Pattern.compile("--[^\\n]*");
  private static final Pattern SCHEMA_WORD = Pattern.compile("\\bhookledger\\b");

  private final DataSource dataSource;
  private final LedgerTables tables;

  public LedgerMigrator(DataSource dataSource, String schema) {
    this.dataSource = requireNonNull(dataSource, "dataSource");
    this.tables = LedgerTables.in(schema);
  }

  /** The script as it will be run: comments removed, the schema name substituted. */
  public String script() {
    String sql = COMMENT.matcher(readResource()).replaceAll("");
    return SCHEMA_WORD.matcher(sql).replaceAll(tables.schema());
  }

  /**
   * Creates whatever part of the ledger is missing; changes nothing that exists.
   *
   * @throws LedgerUnavailableException if the database refuses or cannot be reached (nothing is
   *     half-applied: the transaction rolls back)
   */
  public void migrate() {
    String script = script();
    try (Connection c = dataSource.getConnection()) {
      boolean autoCommit = c.getAutoCommit();
      c.setAutoCommit(false);
      try {
        try (PreparedStatement lock = c.prepareStatement("SELECT pg_advisory_xact_lock(hashtext(?))")) {
          lock.setString(1, "hookledger.migrate." + tables.schema());
          lock.execute();
        }
        try (Statement s = c.createStatement()) {
          s.execute(script);
        }
        c.commit();
      } catch (SQLException | RuntimeException e) {
        c.rollback();
        throw e;
      } finally {
        c.setAutoCommit(autoCommit);
      }
    } catch (SQLException e) {
      throw new LedgerUnavailableException(
          "cannot apply the ledger schema to schema " + tables.schema() + ": " + e.getMessage(), e);
    }
    log.info("ledger schema {} is up to date", tables.schema());
  }

  private static String readResource() {
    try (InputStream in = LedgerMigrator.class.getClassLoader().getResourceAsStream(RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException("classpath resource " + RESOURCE + " is missing");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + RESOURCE, e);
    }
  }
}
