package dev.hookledger.samples.app;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import javax.sql.DataSource;

/**
 * Creates the sample application's tables (schema {@code sample}) if they do not exist yet. The
 * script ships as {@code db/sample/V1__sample.sql}, named for Flyway like the ledger's own.
 *
 * <p>Safe to run at every start and from several processes at once: the script is idempotent and
 * runs in one transaction under an advisory lock, because two concurrent {@code CREATE TABLE IF NOT
 * EXISTS} of the same table can still collide in PostgreSQL's catalog.
 */
public final class SampleSchema {
  static final String SCRIPT = "db/sample/V1__sample.sql";
  private static final long LOCK_KEY = 0x686f6f6b_73616dL; // "hooksam"

  private SampleSchema() {}

  /** Applies the sample schema to {@code dataSource}. */
  public static void migrate(DataSource dataSource) {
    String sql = script();
    try (Connection c = dataSource.getConnection()) {
      c.setAutoCommit(false);
      try (Statement s = c.createStatement()) {
        s.execute("SELECT pg_advisory_xact_lock(" + LOCK_KEY + ")");
        s.execute(sql);
        c.commit();
      } catch (SQLException e) {
        c.rollback();
        throw e;
      }
    } catch (SQLException e) {
      throw new IllegalStateException("cannot create the sample schema: " + e.getMessage(), e);
    }
  }

  private static String script() {
    try (InputStream in = SampleSchema.class.getClassLoader().getResourceAsStream(SCRIPT)) {
      if (in == null) {
        throw new IllegalStateException("missing classpath resource " + SCRIPT);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + SCRIPT, e);
    }
  }
}
