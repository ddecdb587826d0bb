package dev.hookledger.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hookledger.runtime.admin.InboxStatus;
import dev.hookledger.runtime.admin.LedgerFixture;
import dev.hookledger.runtime.internal.ledger.LedgerMigration;
import dev.hookledger.runtime.testing.Await;
import dev.hookledger.runtime.testing.LedgerRows;
import dev.hookledger.runtime.testing.TestDatabase;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;

/**
 * The newest migration, applied to a ledger at the version before it while writers receive and
 * settle, as an upgrade under traffic does: every later migration runs here without a change to this
 * test. Writers take the event table's lock first and the count tables' from its triggers, so a
 * migration that locks a count table and then waits for the event table deadlocks with any handler's
 * transaction open meanwhile (V14 did: its ALTER of the count tables came before its triggers' swap).
 * The counts must also come out exact: no change counted twice or missed across the swap.
 */
class MigrationUnderTrafficTest {
  private static final String SCHEMA = "under_traffic";

  @Test
  void theNewestMigrationAppliesWhileAHandlersTransactionIsOpenAndWritersReceiveAndSettle() throws Exception {
    List<LedgerMigration> all = LedgerMigration.ALL;
    int previous = all.get(all.size() - 2).version();
    LedgerFixture ledger = new LedgerFixture(SCHEMA, previous);
    DataSource ds = ledger.database.dataSource();
    execute(ds, "insert into " + SCHEMA + ".event (provider, event_id, type, body, status, settled_at)"
        + " select 'stripe', 'evt_old_' || i, 't', '\\x7b7d', 'done', now() from generate_series(1, 20) i");
    execute(ds, "insert into " + SCHEMA + ".event (provider, event_id, type, body) values ('stripe', 'evt_open', 't', '\\x7b7d')");

    ExecutorService threads = Executors.newFixedThreadPool(3);
    Queue<Throwable> failures = new ConcurrentLinkedQueue<>();
    AtomicInteger settled = new AtomicInteger();
    try (Connection handler = ds.getConnection()) {
      // a worker's processing transaction: the row locked, the handlers running
      handler.setAutoCommit(false);
      execute(handler, "set local statement_timeout = '60s'");
      // by the whole key, as a worker locks it: on Citus a FOR UPDATE must name the scope (a router query)
      execute(handler, "select 1 from " + SCHEMA + ".event where scope = '' and event_id = 'evt_open' for update");

      Future<Boolean> migration = threads.submit(() -> ledger.admin().migrate());
      for (int w = 0; w < 2; w++) {
        int writer = w;
        threads.submit(() -> receiveAndSettle(ds, writer, migration, settled, failures));
      }
      Await.until("the migration waits for the open transaction, or is done", Duration.ofSeconds(60),
          () -> migration.isDone() || waitingForALock(ds));

      // the handlers return: the settle's trigger writes the counts, as every settle does
      execute(handler, "update " + SCHEMA + ".event set status = 'done', attempts = 1, settled_at = now()"
          + " where scope = '' and event_id = 'evt_open'");
      handler.commit();

      assertEquals(false, migration.get(120, TimeUnit.SECONDS), "the ledger was there");
    } finally {
      threads.shutdown();
      assertTrue(threads.awaitTermination(120, TimeUnit.SECONDS));
    }

    assertEquals(List.of(), List.copyOf(failures));
    assertTrue(settled.get() > 0, "the writers settled events during the migration");
    assertEquals(LedgerMigration.latest(), ledger.admin().schemaVersion());
    assertEquals("done", LedgerRows.event(ds, SCHEMA, "evt_open").orElseThrow().get("status"));
    // as status reads them: from V22 the counts kept plus the rows settled since the roll-up's bound
    InboxStatus status = ledger.admin().status();
    assertEquals(LedgerRows.number(ds, "select count(*) from " + SCHEMA + ".event where status = 'done'"),
        status.count(EventStatus.DONE), "the done count is exact across the migration");
    assertEquals(LedgerRows.number(ds, "select count(*) from " + SCHEMA + ".event where status = 'ignored'"),
        status.count(EventStatus.IGNORED), "the ignored count is exact across the migration");
    if (!TestDatabase.citus()) { // no roll-up there: V2's triggers count every settle
      // and the counts kept are those of the rows settled before the bound, no more
      assertEquals(LedgerRows.number(ds, "select count(*) from " + SCHEMA + ".event where status not in ('pending', 'processing')"
          + " and settled_at < (select closed_before from " + SCHEMA + ".minute_roll_up)"),
          LedgerRows.number(ds, "select coalesce(sum(events), 0) from " + SCHEMA + ".status_count"),
          "status_count against the finished rows before the bound");
    }
  }

  /**
   * Until the migration is done (and at least a few rounds): receives a pending event and an ignored
   * one, then settles the pending one in a transaction that locks its row first, as a worker does.
   */
  private static void receiveAndSettle(DataSource ds, int writer, Future<?> migration, AtomicInteger settled,
      Queue<Throwable> failures) {
    try (Connection c = ds.getConnection()) {
      execute(c, "set statement_timeout = '60s'");
      for (int i = 0; i < 5 || !migration.isDone(); i++) {
        String id = "evt_w" + writer + "_" + i;
        c.setAutoCommit(true);
        execute(c, "insert into " + SCHEMA + ".event (provider, event_id, type, body) values ('stripe', '" + id
            + "', 't', '\\x7b7d')");
        execute(c, "insert into " + SCHEMA + ".event (provider, event_id, type, body, status, settled_at) values"
            + " ('stripe', '" + id + "_ignored', 't', '\\x7b7d', 'ignored', now())");
        c.setAutoCommit(false);
        execute(c, "select 1 from " + SCHEMA + ".event where scope = '' and event_id = '" + id + "' for update");
        execute(c, "update " + SCHEMA + ".event set status = 'done', attempts = 1, settled_at = now()"
            + " where scope = '' and event_id = '" + id + "'");
        c.commit();
        settled.incrementAndGet();
      }
    } catch (SQLException | RuntimeException e) {
      failures.add(e);
    }
  }

  private static boolean waitingForALock(DataSource ds) {
    return LedgerRows.number(ds, "select count(*) from pg_stat_activity where datname = current_database()"
        + " and wait_event_type = 'Lock'") > 0;
  }

  private static void execute(DataSource ds, String sql) throws SQLException {
    try (Connection c = ds.getConnection()) {
      execute(c, sql);
    }
  }

  private static void execute(Connection c, String sql) throws SQLException {
    try (Statement s = c.createStatement()) {
      s.execute(sql);
    }
  }
}
