package dev.hookledger.runtime.internal.ledger;

import dev.hookledger.LedgerUnavailableException;
import java.sql.Connection;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.jooq.DSLContext;
import org.jooq.Record;
import org.jooq.SQLDialect;
import org.jooq.conf.Settings;
import org.jooq.exception.DataAccessException;
import org.jooq.impl.DSL;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Brings the ledger in a configured schema to the newest version this build knows, applying each
 * {@link LedgerMigration} it lacks once, in order: the one {@code migrate} of
 * {@code WebhookRuntime.migrate()}, {@code InboxAdmin.migrate()} and the command line.
 *
 * <p>The version is read from the ledger: no event table is version 0; an event table without
 * {@code schema_version} is version 1 (a ledger made before versions were recorded: its DDL is not
 * run again); otherwise the highest version recorded. Each script records its own version, so a
 * ledger migrated by Flyway reads the same. Versions need not be contiguous, as in Flyway: what is
 * applied is every known script whose version the ledger does not record, in version order, so a
 * ledger that took V8 before V6 and V7 existed takes them later.
 *
 * <p>All of it runs on one connection holding a session-level advisory lock per schema (the same
 * key the transaction-level lock of earlier builds took, so old and new migrators exclude each
 * other): concurrent {@code CREATE ... IF NOT EXISTS} of one object from two sessions can fail on a
 * unique catalog index instead of waiting. The lock is taken by polling {@code pg_try_advisory_lock},
 * not by waiting in {@code pg_advisory_lock}: a session waiting inside a statement holds a snapshot,
 * which {@code CREATE INDEX CONCURRENTLY} in the lock holder would wait for, a deadlock. A script
 * that runs in a transaction fails whole; one that cannot (a {@code .sql.conf} says so) runs a
 * statement at a time, each safe to repeat, an index a failed build left invalid being dropped first.
 * On a database with the {@code citus} extension, the ledger is then distributed ({@link CitusLedger}).
 */
public final class SchemaMigrator {
  /** "hklg": the first key of the advisory lock, the second being the schema's hash. */
  private static final int LOCK_CLASS = 0x686b6c67;
  private static final long LOCK_POLL_MS = 100;
  private static final Pattern CONCURRENT_INDEX =
      Pattern.compile("CREATE INDEX CONCURRENTLY IF NOT EXISTS (\\w+)", Pattern.CASE_INSENSITIVE);
  private static final Logger log = LoggerFactory.getLogger(SchemaMigrator.class);

  private SchemaMigrator() {}

  /**
   * Applies every migration the ledger in {@code schema} lacks; changes nothing if it is current.
   *
   * @param schema a lower-case SQL identifier (see {@link EventTable#requireSchemaName})
   * @return true if the event table did not exist and was created now; false if it was there
   * @throws LedgerUnavailableException if the database cannot be reached or refuses a statement; a
   *     script run in a transaction rolled back, and versions before it stay applied
   * @throws IllegalStateException if the ledger is newer than this build knows
   */
  public static boolean migrate(DSLContext dsl, String schema) {
    EventTable.requireSchemaName(schema);
    long start = System.nanoTime();
    String[] database = new String[1];
    int from;
    try {
      from = dsl.connectionResult(c -> {
        DSLContext session = DSL.using(c, SQLDialect.POSTGRES, new Settings().withExecuteLogging(false));
        database[0] = session.fetchSingle("select current_database()").get(0, String.class);
        return locked(c, session, schema);
      });
    } catch (DataAccessException e) {
      // DDL errors cannot quote event data, so the database's own message may be shown
      throw new LedgerUnavailableException("cannot migrate ledger schema '" + schema + "': "
          + LedgerErrors.describe(e) + ": " + LedgerErrors.sqlMessage(e), e);
    }
    long ms = (System.nanoTime() - start) / 1_000_000;
    int to = LedgerMigration.latest();
    if (from == 0) {
      // said at INFO with the database: a typo in the schema name creates a new, empty ledger
      log.info("created ledger schema '{}' in database '{}' at version {} ({} ms)", schema, database[0], to, ms);
    } else if (from < to) {
      log.info("migrated ledger schema '{}' in database '{}' from version {} to {} ({} ms)", schema, database[0],
          from, to, ms);
    } else {
      log.info("ledger schema '{}' in database '{}' is up to date at version {} ({} ms)", schema, database[0], to, ms);
    }
    return from == 0;
  }

  /**
   * The ledger's version: 0 if {@code schema} has no ledger, 1 for a ledger made before versions
   * were recorded, else the highest recorded.
   */
  public static int version(DSLContext dsl, String schema) {
    String quoted = quote(EventTable.requireSchemaName(schema));
    if (dsl.fetchSingle("select to_regclass(?) is null", quoted + ".event").get(0, Boolean.class)) {
      return 0;
    }
    if (dsl.fetchSingle("select to_regclass(?) is null", quoted + ".schema_version").get(0, Boolean.class)) {
      return 1;
    }
    return dsl.fetchSingle("select coalesce(max(version), 1) from " + quoted + ".schema_version").get(0, Integer.class);
  }

  /** What {@link #migrate} would apply now, in order; empty if the ledger is current. Changes nothing. */
  public static List<LedgerMigration> pending(DSLContext dsl, String schema) {
    int from = version(dsl, schema);
    refuseNewer(schema, from);
    return missing(dsl, schema, from);
  }

  /** The known scripts whose versions {@code schema} does not record, in version order. */
  private static List<LedgerMigration> missing(DSLContext dsl, String schema, int version) {
    Set<Integer> applied = version == 0 ? Set.of() : version == 1 && !hasVersionTable(dsl, schema) ? Set.of(1)
        : Set.copyOf(dsl.fetch("select version from " + quote(schema) + ".schema_version").getValues(0, Integer.class));
    return LedgerMigration.ALL.stream().filter(m -> !applied.contains(m.version())).toList();
  }

  private static boolean hasVersionTable(DSLContext dsl, String schema) {
    return !dsl.fetchSingle("select to_regclass(?) is null", quote(schema) + ".schema_version").get(0, Boolean.class);
  }

  /**
   * Checks, before a runtime starts, that the ledger is at the version this build knows.
   *
   * @throws LedgerNotMigratedException if the ledger's tables do not exist or are older than this build
   *     needs (run migrate), naming the versions
   * @throws IllegalStateException naming both versions, if the ledger is newer
   */
  public static void requireCurrent(DSLContext dsl, String schema) {
    int version = version(dsl, schema);
    refuseNewer(schema, version);
    String migrateFirst = ": run migrate first (WebhookRuntime.migrate(), 'hookledger migrate', or your Flyway over"
        + " classpath:" + LedgerMigration.LOCATION + ")";
    if (version == 0) {
      // not "starts and answers 503 to every delivery until someone migrates": a provider that does not
      // redeliver a 503 (GitHub) would lose every delivery meanwhile
      throw new LedgerNotMigratedException(schema, 0, "the ledger's tables do not exist in schema '" + schema
          + "' of this database", migrateFirst);
    }
    if (version < LedgerMigration.latest()) {
      throw new LedgerNotMigratedException(schema, version, "ledger schema '" + schema + "' is at version " + version
          + ", this hookledger needs version " + LedgerMigration.latest(), migrateFirst);
    }
    List<LedgerMigration> missing = missing(dsl, schema, version);
    if (!missing.isEmpty()) {
      // a version below the newest that arrived after it (as V6 and V7 after V8): Flyway's out-of-order case
      throw new LedgerNotMigratedException(schema, version, "ledger schema '" + schema + "' is at version " + version
          + " but lacks " + missing.stream().map(LedgerMigration::toString).collect(Collectors.joining(", ")),
          migrateFirst);
    }
  }

  /** Every script as it is run on an empty database, for reading: what a dry run from nothing prints. */
  public static String ddl(String schema) {
    StringBuilder all = new StringBuilder();
    LedgerMigration.ALL.forEach(m -> all.append(m.sql(schema)));
    return all.toString();
  }

  private static void refuseNewer(String schema, int version) {
    if (version > LedgerMigration.latest()) {
      throw new IllegalStateException("ledger schema '" + schema + "' is at version " + version
          + ", newer than this hookledger knows (" + LedgerMigration.latest()
          + "): a newer hookledger migrated it; upgrade hookledger here too");
    }
  }

  /** Under the lock: reads the version and applies what is missing; returns the version found. */
  private static int locked(Connection c, DSLContext session, String schema) throws Exception {
    boolean autoCommit = c.getAutoCommit();
    c.setAutoCommit(true);
    // not the runtime's deadlines: waiting for another process's migration, or building an index on a
    // large ledger, may rightly take longer than any one delivery's statement should; put back after.
    // The driver's socket timeout too (6 s on the pool the runtime builds): past it the driver closed
    // the connection under a statement still running ("Connection is closed" at the next one), as a
    // CREATE INDEX CONCURRENTLY on a large ledger, or any step on a loaded Citus cluster, does
    int networkTimeout = c.getNetworkTimeout();
    if (networkTimeout != 0) {
      c.setNetworkTimeout(Runnable::run, 0);
    }
    Record timeouts =
        session.fetchSingle("select current_setting('statement_timeout'), current_setting('lock_timeout')");
    session.execute("set statement_timeout = 0");
    session.execute("set lock_timeout = 0");
    try {
      lock(session, schema);
      try {
        int from = version(session, schema);
        refuseNewer(schema, from);
        for (LedgerMigration m : missing(session, schema, from)) {
          apply(session, schema, m);
        }
        // on a Citus coordinator the ledger is distributed by scope, new tables included; elsewhere a no-op
        if (CitusLedger.distributeIfInstalled(session, schema)) {
          log.info("ledger schema '{}' is distributed by scope on Citus ({})", schema, CitusLedger.SCRIPT);
        }
        return from;
      } finally {
        session.fetch("select pg_advisory_unlock(?, ?)", LOCK_CLASS, schema.hashCode());
      }
    } finally {
      session.fetch("select set_config('statement_timeout', ?, false), set_config('lock_timeout', ?, false)",
          timeouts.get(0, String.class), timeouts.get(1, String.class));
      c.setAutoCommit(autoCommit);
      if (networkTimeout != 0) {
        c.setNetworkTimeout(Runnable::run, networkTimeout);
      }
    }
  }

  private static void lock(DSLContext session, String schema) throws InterruptedException {
    boolean logged = false;
    while (!session.fetchSingle("select pg_try_advisory_lock(?, ?)", LOCK_CLASS, schema.hashCode())
        .get(0, Boolean.class)) {
      if (!logged) {
        log.info("waiting for another migration of ledger schema '{}' to finish", schema);
        logged = true;
      }
      Thread.sleep(LOCK_POLL_MS);
    }
  }

  private static void apply(DSLContext session, String schema, LedgerMigration m) {
    long start = System.nanoTime();
    if (m.inTransaction()) {
      session.transaction(cfg -> cfg.dsl().execute(m.sql(schema)));
    } else {
      for (String statement : m.statements(schema)) {
        Matcher index = CONCURRENT_INDEX.matcher(statement);
        if (index.find()) {
          dropInvalid(session, schema, index.group(1));
        }
        session.execute(statement);
      }
    }
    log.info("applied {} to ledger schema '{}' ({} ms)", m, schema, (System.nanoTime() - start) / 1_000_000);
  }

  /**
   * A {@code CREATE INDEX CONCURRENTLY} that failed (or was cancelled) leaves an invalid index of its
   * name, which {@code IF NOT EXISTS} would then keep for good: dropped first, so that the build is retried.
   */
  private static void dropInvalid(DSLContext session, String schema, String index) {
    boolean invalid = session.fetchExists(DSL.selectOne()
        .from("pg_index i join pg_class c on c.oid = i.indexrelid join pg_namespace n on n.oid = c.relnamespace")
        .where("n.nspname = ? and c.relname = ? and not i.indisvalid", schema, index));
    if (invalid) {
      log.warn("dropping index {} of ledger schema '{}' left invalid by a failed build, to build it again", index, schema);
      session.execute("drop index concurrently if exists " + quote(schema) + "." + index);
    }
  }

  private static String quote(String schema) {
    return '"' + schema + '"';
  }
}
