package dev.hookledger.runtime.internal.ledger;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.jooq.DSLContext;
import org.jooq.exception.DataAccessException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Gives the count tables ({@code status_count}, {@code minute_count}) their space back after a bulk
 * change, run by {@link MinuteRollUp} once it has folded the changes. An import of n finished rows in
 * one statement, or a retry of n, appends n count rows ({@code V14__row_counts.sql}); the fold deletes
 * them, and PostgreSQL reuses the space of deleted rows but never returns it, and the live path's next
 * appends land all over it: after an import of 2 million rows {@code status_count} kept 266 MB for a
 * few thousand live rows, and every {@code status} scanned all of it (1.5 s).
 *
 * <p>A table is rewritten ({@code VACUUM FULL}, one statement: atomic, and MVCC-safe, unlike
 * {@code TRUNCATE}, so a reader's older snapshot still sees every count) when it is larger than
 * {@link #SMALL} and more than twice what its live rows need at {@link #BYTES_PER_ROW} each. The rows
 * and their sums are not touched, only where they lie: counts stay exact whatever runs beside it, and
 * a rewrite cut off by a crash or a timeout leaves the old table as it was. Its lock blocks the
 * table's writers (a settle's append) and readers while the rewrite runs (of a table of tens of
 * thousands of live rows and mostly dead space: a second or two per hundred megabytes on two cores),
 * so it waits for that lock at most {@link #LOCK_WAIT}, with the writers queued behind it waiting no
 * longer, and else leaves the table to the next pass.
 *
 * <p>A table's live rows are counted (one scan) only when its size has at least doubled since this
 * node last found it not bloated, so a large table of years of minutes is not scanned every pass; and
 * only once no session older than the last fold runs, in this database or, writing, in any other of
 * the server (a rewrite keeps every row some open transaction may still see, so before that it would
 * copy the folded rows whole). Not run on Citus
 * (no pass there). Needs the tables' owner (the role that ran {@code migrate}): under another role
 * this logs once that the table stays as large. Thread-safe.
 */
public final class CountCompaction {
  private static final Logger log = LoggerFactory.getLogger(CountCompaction.class);
  /**
   * Below this a table is never rewritten: the changes the live path appends between two passes (at
   * 1,000 settles a second, 30,000 rows, under 4 MB) never make a table that large.
   */
  static final long SMALL = 8L << 20;
  /** What a live row takes with its index entries, generously (70 bytes of heap and 40 of index, measured). */
  static final long BYTES_PER_ROW = 128;
  /** The longest the rewrite waits for its lock, and so the longest a writer queued behind it waits for it to start. */
  static final Duration LOCK_WAIT = Duration.ofMillis(100);
  /** A bound on the rewrite itself, which holds the table: far above its cost on any table that bloated. */
  static final Duration REWRITE_LIMIT = Duration.ofMinutes(5);
  private static final List<String> TABLES = List.of("status_count", "minute_count");

  private final String schema;
  /** Per table, its size when this node last found it not bloated (0: never looked). */
  private final Map<String, Long> healthy = new ConcurrentHashMap<>();
  /** The tables a rewrite did not shrink (not the owner): said once. */
  private final Set<String> unshrunk = ConcurrentHashMap.newKeySet();

  public CountCompaction(EventTable events) {
    this.schema = '"' + events.schema() + '"';
  }

  /**
   * Rewrites each count table that is bloated; returns the tables rewritten (none if their lock was
   * busy, or if a session older than the fold of transaction {@code lastFold} still runs).
   *
   * @param lastFold the transaction id ({@code txid_current()}) of the last fold that moved rows, 0 if none
   */
  public List<String> compact(DSLContext db, long lastFold) {
    List<String> rewritten = new ArrayList<>();
    for (String table : TABLES) {
      String qualified = schema + "." + table;
      if (db.fetchSingle("select to_regclass(?) is null", qualified).get(0, Boolean.class)) {
        continue; // minute_count: not made on Citus
      }
      long size = size(db, qualified);
      if (size <= Math.max(SMALL, 2 * healthy.getOrDefault(table, 0L))) {
        continue;
      }
      if (!db.fetchSingle("select pg_has_role(relowner, 'USAGE') from pg_class where oid = ?::regclass", qualified)
          .get(0, Boolean.class)) {
        if (unshrunk.add(table)) {
          log.warn("count table {} keeps {} kB: only its owner can give the space back (VACUUM FULL)", qualified,
              size >> 10);
        }
        continue;
      }
      if (lastFold != 0 && olderSessionRuns(db, lastFold)) {
        // the rows the fold deleted are still visible to it: a rewrite now would copy them all
        continue;
      }
      long rows = db.fetchSingle("select count(*) from " + qualified).get(0, Long.class);
      if (size <= bloated(rows)) {
        healthy.put(table, size);
        continue;
      }
      long start = System.nanoTime();
      try {
        db.connection(c -> rewrite(c, qualified));
      } catch (DataAccessException e) {
        if (LedgerErrors.isLockNotAvailable(e)) {
          log.debug("count table {} is bloated ({} bytes, {} rows) but busy: rewritten at a later pass", qualified, size, rows);
          continue;
        }
        throw e;
      }
      long after = size(db, qualified);
      rewritten.add(table);
      if (after > bloated(rows)) {
        // a session this node cannot see held the rows: tried again at the next pass, and not said
        // at INFO, which would claim the space given back
        log.debug("count table {} rewritten but still {} kB for {} rows (an older transaction held the rows): "
            + "tried again at the next pass", qualified, after >> 10, rows);
        continue;
      }
      healthy.put(table, after);
      log.info("gave count table {} its space back after a bulk change: {} kB to {} kB for {} rows in {} ms",
          qualified, size >> 10, after >> 10, rows, (System.nanoTime() - start) / 1_000_000);
    }
    return rewritten;
  }

  /** The size above which a table of {@code rows} live rows is rewritten. */
  private static long bloated(long rows) {
    return Math.max(SMALL, 2 * rows * BYTES_PER_ROW);
  }

  /**
   * Whether the rows transaction {@code xid} deleted are not yet reclaimable: a client session of this
   * database took its snapshot (or began writing) before that transaction ended, or a transaction
   * older than it still runs in any database of the server, whose id holds back the oldest row every
   * new snapshot, the rewrite's own among them, may see (on a server shared by several applications,
   * or by a test suite's databases, a rewrite then copied every folded row and shrank nothing while it
   * held the table). A (lazy) vacuum's own horizon is ignored by the rewrite's. Sessions of other
   * roles show no transaction to an unprivileged role: for them the rewrite finds out (it shrinks
   * nothing, and is tried again at the next pass).
   */
  private static boolean olderSessionRuns(DSLContext db, long xid) {
    String x = Long.toString(xid & 0xFFFF_FFFFL); // txid_current() carries an epoch above the xid
    return db.fetchSingle("select exists (select 1 from pg_stat_activity where pid <> pg_backend_pid() and"
        + " (age(backend_xid) >= age(?::xid) or (datname = current_database() and backend_type = 'client backend'"
        + " and age(backend_xmin) >= age(?::xid))))", x, x).get(0, Boolean.class);
  }

  private static long size(DSLContext db, String qualified) {
    return db.fetchSingle("select pg_total_relation_size(?::regclass)", qualified).get(0, Long.class);
  }

  /**
   * {@code VACUUM FULL} runs outside a transaction only: in autocommit, whatever the pool hands out,
   * with the session's timeouts set for it and put back after.
   */
  private static void rewrite(Connection c, String qualified) throws Exception {
    boolean autoCommit = c.getAutoCommit();
    c.setAutoCommit(true);
    String lockTimeout;
    String statementTimeout;
    try (Statement s = c.createStatement();
        ResultSet r = s.executeQuery("select current_setting('lock_timeout'), current_setting('statement_timeout')")) {
      r.next();
      lockTimeout = r.getString(1);
      statementTimeout = r.getString(2);
    }
    try (Statement s = c.createStatement()) {
      s.execute("set lock_timeout = " + LOCK_WAIT.toMillis());
      s.execute("set statement_timeout = " + REWRITE_LIMIT.toMillis());
      s.execute("vacuum full " + qualified);
    } finally {
      try (PreparedStatement p = c.prepareStatement("select set_config('lock_timeout', ?, false),"
          + " set_config('statement_timeout', ?, false)")) {
        p.setString(1, lockTimeout);
        p.setString(2, statementTimeout);
        p.executeQuery().close();
      }
      c.setAutoCommit(autoCommit);
    }
  }
}
