package dev.hookledger.runtime.admin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import dev.hookledger.runtime.internal.ledger.EventTable;
import dev.hookledger.runtime.internal.ledger.MinuteRollUp;
import dev.hookledger.runtime.testing.TestDatabase;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A user's bulk change is absorbed by the runtime: the count changes an import or a retry of many
 * rows appends (one per row, V14) are folded by the roll-up pass, which then gives the count tables
 * the space those rows took back, so that they return to the size of their live rows (within a
 * bound per live row, not a time) and {@code status} reads a few pages again; the counts exact
 * throughout. Without it, {@code status_count} kept 266 MB for a few thousand rows after an import of
 * 2 million, and every {@code status} scanned it.
 */
class BulkChangeAbsorbedTest {
  private static final int ROWS = 200_000;
  /** The tables' pages and index pages that even an empty table keeps (heap, two B-trees, their metapages). */
  private static final long EMPTY = 64 << 10;
  /** What a live row takes with its index entries, twice over. */
  private static final long PER_ROW = 256;

  private final LedgerFixture ledger = new LedgerFixture();
  private final MinuteRollUp rollUp = new MinuteRollUp(new EventTable("hookledger"));

  @Test
  void anImportAndABulkRetryOfTwoHundredThousandRowsLeaveTheCountTablesTheSizeOfTheirRows() throws Exception {
    assumeFalse(TestDatabase.citus(), "V2's row triggers count on Citus, and no pass runs there (CitusLedgerTest)");
    // an import from another system, in one statement: old events, finished in minutes long closed,
    // half of them dead
    ledger.sql.transaction(cfg -> {
      cfg.dsl().execute("set local statement_timeout = '600s'");
      cfg.dsl().execute("insert into hookledger.event (provider, event_id, type, body, status, received_at,"
          + " available_at, settled_at, duplicates) select case when i % 3 = 0 then 'github' else 'stripe' end,"
          + " 'evt_' || i, 't', '\\x7b7d', case when i % 2 = 0 then 'dead' else 'done' end,"
          + " now() - interval '40 days' - i * interval '1 second', now() - interval '40 days',"
          + " now() - interval '40 days' - i * interval '1 second' + interval '200 milliseconds', i % 2"
          + " from generate_series(1, " + ROWS + ") i");
    });
    // one appended count row per imported row, and per closed minute it lands in
    long statusesImported = size("status_count");
    long minutesImported = size("minute_count");

    // a settle in flight, begun before the fold: the rows the fold deletes are still visible to it, so
    // neither table is rewritten (a rewrite would copy them whole) until it ends
    String statuses = fileOf("status_count");
    String minutes = fileOf("minute_count");
    try (Connection writer = ledger.database.dataSource().getConnection()) {
      writer.setAutoCommit(false);
      try (Statement s = writer.createStatement()) {
        s.execute("insert into hookledger.event (provider, event_id, type, body, status, settled_at)"
            + " values ('stripe', 'evt_in_flight', 't', '\\x7b7d', 'done', now())");
      }
      rollUp.pass(ledger.sql);
      assertEquals(List.of(statuses, minutes), List.of(fileOf("status_count"), fileOf("minute_count")));
      assertCountsMatchTheRows();
      writer.commit();
    }
    // a settle's append holds status_count (its lock, as from a transaction begun after the fold): the
    // rewrite waits for it no longer than its lock wait and leaves that table to the next pass;
    // minute_count, which a settle does not touch, is rewritten
    try (Connection writer = ledger.database.dataSource().getConnection()) {
      writer.setAutoCommit(false);
      try (Statement s = writer.createStatement()) {
        s.execute("lock table hookledger.status_count in row exclusive mode");
      }
      rollUp.pass(ledger.sql);
      passUntilGivenBack("minute_count");
      assertEquals(statuses, fileOf("status_count"), "left while a writer holds it");
      assertBackToTheSizeOfItsRows("minute_count", minutesImported);
      writer.commit();
    }
    passUntilGivenBack("status_count");
    assertBackToTheSizeOfItsRows("status_count", statusesImported);
    assertCountsMatchTheRows();
    assertEquals(ROWS + 1, ledger.admin().status().total());

    // a retry of every dead event, then their settles, each in one statement: one appended row per
    // row again (and per closed minute the dead rows leave)
    ledger.sql.transaction(cfg -> {
      cfg.dsl().execute("set local statement_timeout = '600s'");
      cfg.dsl().execute("update hookledger.event set status = 'pending', attempts = 0, settled_at = null,"
          + " available_at = now() where status = 'dead'");
      cfg.dsl().execute("update hookledger.event set status = 'done', settled_at = statement_timestamp()"
          + " where status = 'pending'");
    });
    long statusesRetried = size("status_count");
    long minutesRetried = size("minute_count");
    assertCountsMatchTheRows();
    rollUp.pass(ledger.sql);
    passUntilGivenBack("status_count");
    passUntilGivenBack("minute_count");
    assertBackToTheSizeOfItsRows("status_count", statusesRetried);
    assertBackToTheSizeOfItsRows("minute_count", minutesRetried);
    assertCountsMatchTheRows();
    assertEquals(ROWS + 1, ledger.admin().status().total());
  }

  /**
   * Runs the pass, as a runtime does every few seconds, until {@code table} is the size of its rows
   * or a minute has passed: on a server shared with other databases (the suite's own, on
   * {@code HOOKLEDGER_TEST_DATABASE_URL}), a writing transaction there older than the fold puts the
   * rewrite off to a later pass. The caller asserts the size.
   */
  private void passUntilGivenBack(String table) throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofMinutes(1).toNanos();
    while (size(table) > EMPTY + PER_ROW * rows(table) && System.nanoTime() < deadline) {
      rollUp.pass(ledger.sql);
      Thread.sleep(100);
    }
  }

  /**
   * Within a bound per live row, and an order of magnitude below the size the bulk change's appended
   * rows had taken.
   */
  private void assertBackToTheSizeOfItsRows(String table, long bulk) {
    long size = size(table);
    long rows = rows(table);
    String what = table + ": " + size + " bytes for " + rows + " rows, " + bulk + " bytes after the bulk change";
    assertTrue(size <= EMPTY + PER_ROW * rows, what);
    assertTrue(size * 10 < bulk, what);
  }

  private long rows(String table) {
    return ledger.sql.fetchSingle("select count(*) from hookledger." + table).get(0, Long.class);
  }

  /** The table's file: a rewrite gives it a new one. */
  private String fileOf(String table) {
    return ledger.sql.fetchSingle("select pg_relation_filenode(?::regclass)::text", "hookledger." + table)
        .get(0, String.class);
  }

  private long size(String table) {
    return ledger.sql.fetchSingle("select pg_total_relation_size(?::regclass)", "hookledger." + table)
        .get(0, Long.class);
  }

  /** As {@code status} adds the counts up, against a count of the rows; and the chart's closed minutes. */
  private void assertCountsMatchTheRows() {
    StatusCountsTest.assertCountsMatchTheRows(ledger);
  }
}
