package dev.hookledger.runtime.internal.ledger;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jooq.DSLContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Applies {@code db/hookledger/V1__ledger.sql} in a configured schema. Every statement of the DDL is
 * idempotent ({@code IF NOT EXISTS}); the script runs in one transaction under a transaction-level
 * advisory lock per schema, because concurrent {@code CREATE ... IF NOT EXISTS} of the same object
 * from two sessions can still fail on a unique catalog index.
 */
public final class SchemaMigrator {
  /** The classpath resource, named for Flyway. */
  public static final String RESOURCE = "db/hookledger/V1__ledger.sql";

  /** "hklg": the first key of the advisory lock, the second being the schema's hash. */
  private static final int LOCK_CLASS = 0x686b6c67;
  /** The schema name as the script spells it: before a dot, or after CREATE SCHEMA IF NOT EXISTS. */
  private static final Pattern SCHEMA = Pattern.compile("(?<=SCHEMA IF NOT EXISTS )hookledger\\b|\\bhookledger(?=\\.)");
  private static final Logger log = LoggerFactory.getLogger(SchemaMigrator.class);

  private SchemaMigrator() {}

  /** Applies the DDL in {@code schema}, a validated lower-case identifier. */
  public static void migrate(DSLContext dsl, String schema) {
    String ddl = ddl(schema);
    long start = System.nanoTime();
    dsl.transaction(cfg -> {
      DSLContext tx = cfg.dsl();
      tx.fetch("select pg_advisory_xact_lock(?, ?)", LOCK_CLASS, schema.hashCode());
      tx.execute(ddl);
    });
    log.info("ledger schema '{}' is up to date ({} ms)", schema, (System.nanoTime() - start) / 1_000_000);
  }

  /** The DDL with every schema reference quoted and renamed to {@code schema}. */
  static String ddl(String schema) {
    return SCHEMA.matcher(script()).replaceAll(Matcher.quoteReplacement('"' + schema + '"'));
  }

  private static String script() {
    try (InputStream in = SchemaMigrator.class.getClassLoader().getResourceAsStream(RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException(RESOURCE + " is missing from the class path");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + RESOURCE, e);
    }
  }
}
