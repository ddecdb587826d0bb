package dev.hookledger.runtime.internal.ledger;

import org.jooq.DSLContext;

/**
 * The ledger on Citus (distributed PostgreSQL): whether its event table is distributed, and the
 * script that distributes it ({@value #SCRIPT}). Citus runs {@code FOR UPDATE} only in a router
 * query, one that its planner can send to a single shard: on a distributed ledger the claim and the
 * renewal of leases therefore go scope by scope ({@code scope} is the distribution key), and on a
 * plain one they stay one statement for all scopes.
 *
 * <p>Whether the ledger is distributed is read once, at the first claim or at start, and kept: a
 * ledger distributed while runtimes run is claimed per scope only by those started after. A read
 * that fails (the database is down) is tried again at the next call. Thread-safe.
 */
public final class CitusLedger {
  /** The distribution script, on the class path; not a versioned migration, as plain PostgreSQL cannot run it. */
  public static final String SCRIPT = "db/hookledger-citus/distribute.sql";

  private final DSLContext dsl;
  private final EventTable events;
  private volatile Boolean distributed;

  public CitusLedger(DSLContext dsl, EventTable events) {
    this.dsl = dsl;
    this.events = events;
  }

  /**
   * A ledger said to be {@code distributed} or not, never read: so that the per-scope claim is
   * tested on plain PostgreSQL too, where a test can lock and expire rows by hand.
   */
  static CitusLedger known(boolean distributed) {
    CitusLedger known = new CitusLedger(null, null);
    known.distributed = distributed;
    return known;
  }

  /** Whether the event table is a Citus distributed table, read on the first call that reaches the database. */
  public boolean distributed() {
    Boolean d = distributed;
    if (d == null) {
      d = LedgerDsl.inOwnTransaction(dsl, tx -> isDistributed(tx, events.schema()));
      distributed = d;
    }
    return d;
  }

  /**
   * What {@link #distributed()} found, without reading: false until its first read succeeded. For the
   * start of every transaction, which must not query (the read itself runs in one).
   */
  public boolean knownDistributed() {
    return Boolean.TRUE.equals(distributed);
  }

  /** Whether the citus extension is installed in the database {@code dsl} reaches. */
  static boolean installed(DSLContext dsl) {
    return dsl.fetchExists(dsl.selectOne().from("pg_extension").where("extname = 'citus'"));
  }

  /** Whether {@code schema}'s event table is distributed; false without the citus extension. */
  static boolean isDistributed(DSLContext dsl, String schema) {
    // pg_dist_partition exists only with the extension: asked only then
    return installed(dsl) && dsl.fetchExists(dsl.selectOne().from("pg_dist_partition")
        .where("logicalrelid = to_regclass(?)", '"' + schema + "\".event"));
  }

  /**
   * Distributes the ledger in {@code schema} if the citus extension is installed; does nothing
   * otherwise, or for tables already distributed. Runs in one transaction on {@code session}.
   *
   * @return whether the extension is installed (and the ledger now distributed)
   */
  static boolean distributeIfInstalled(DSLContext session, String schema) {
    if (!installed(session)) {
      return false;
    }
    session.transaction(cfg -> cfg.dsl().execute(sql(schema)));
    return true;
  }

  /** The distribution script as it is run on {@code schema}: comments removed, the schema renamed. */
  public static String sql(String schema) {
    return new LedgerMigration(0, "citus distribution", true, LedgerMigration.read(SCRIPT, true)).sql(schema);
  }
}
