package dev.hookledger.runtime.internal.ledger;

import dev.hookledger.LedgerUnavailableException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jooq.DSLContext;
import org.jooq.exception.DataAccessException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Applies {@code db/hookledger/V1__ledger.sql} in a configured schema: the one {@code migrate} of
 * {@code WebhookRuntime.migrate()}, {@code InboxAdmin.migrate()} and the command line.
 *
 * <p>Every statement of the DDL is idempotent ({@code IF NOT EXISTS}); the script runs in one
 * transaction (a failure leaves nothing half-applied) under a transaction-level advisory lock per
 * schema, because concurrent {@code CREATE ... IF NOT EXISTS} of the same object from two sessions
 * can still fail on a unique catalog index instead of waiting. The schema name is substituted
 * only where the script uses it as a schema, and quoted, so that a reserved word ({@code order})
 * works; comments are removed first, so that the script sent holds statements only.
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

  /**
   * Creates whatever part of the ledger is missing in {@code schema}; changes nothing that exists.
   *
   * @param schema a lower-case SQL identifier (see {@link EventTable#requireSchemaName})
   * @return true if the event table did not exist and was created now; false if it was there
   * @throws LedgerUnavailableException if the database cannot be reached or refuses the DDL; the
   *     transaction rolled back
   */
  public static boolean migrate(DSLContext dsl, String schema) {
    String ddl = ddl(EventTable.requireSchemaName(schema));
    long start = System.nanoTime();
    String[] database = new String[1];
    boolean created;
    try {
      created = dsl.transactionResult(cfg -> {
        DSLContext tx = cfg.dsl();
        // not the runtime's deadlines: waiting for another process's migration, or building an index
        // on a large ledger, may rightly take longer than any one delivery's statement should
        tx.execute("set local statement_timeout = 0; set local lock_timeout = 0");
        tx.fetch("select pg_advisory_xact_lock(?, ?)", LOCK_CLASS, schema.hashCode());
        // under the lock: a concurrent migration has finished, so "missing" means this one creates it
        boolean missing = tx.fetchSingle("select to_regclass(?) is null", "\"" + schema + "\".event")
            .get(0, Boolean.class);
        database[0] = tx.fetchSingle("select current_database()").get(0, String.class);
        tx.execute(ddl);
        return missing;
      });
    } catch (DataAccessException e) {
      // DDL errors cannot quote event data, so the database's own message may be shown
      throw new LedgerUnavailableException("cannot migrate ledger schema '" + schema + "': "
          + LedgerErrors.describe(e) + ": " + LedgerErrors.sqlMessage(e), e);
    }
    long ms = (System.nanoTime() - start) / 1_000_000;
    if (created) {
      // said at INFO with the database: a typo in the schema name creates a new, empty ledger
      log.info("created ledger schema '{}' in database '{}' ({} ms)", schema, database[0], ms);
    } else {
      log.info("ledger schema '{}' in database '{}' is up to date ({} ms)", schema, database[0], ms);
    }
    return created;
  }

  /** The DDL as it is run: comments removed, every schema reference quoted and renamed to {@code schema}. */
  public static String ddl(String schema) {
    String statements = SqlComments.strip(script());
    return SCHEMA.matcher(statements).replaceAll(Matcher.quoteReplacement('"' + schema + '"'));
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
