package dev.hookledger.runtime.admin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.hookledger.runtime.internal.ledger.EventTable;
import dev.hookledger.runtime.internal.ledger.LedgerMigration;
import dev.hookledger.runtime.internal.ledger.MinuteRollUp;
import dev.hookledger.runtime.internal.ledger.StatusCountTable;
import dev.hookledger.runtime.testing.TestDatabase;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.jooq.DSLContext;
import org.junit.jupiter.api.Test;

/**
 * The counts {@code status} reads (kept by the ledger's triggers as rows change) always equal a
 * count of the rows themselves: after inserts, status changes, duplicate deliveries, retries,
 * pruning, truncation, and many writers at once; per statement, so that a bulk write of many rows
 * costs what it writes.
 */
class StatusCountsTest {
  private final LedgerFixture ledger = new LedgerFixture();

  @Test
  void countsFollowEveryChangeOfARow() {
    ledger.row("stripe", "evt_1").insert();
    ledger.row("stripe", "evt_2").duplicates(3).insert();
    ledger.row("github", "evt_3").scope("hook-1").status("dead").attempts(12).lastError("boom").insert();
    assertCountsMatchTheRows();

    ledger.sql.execute("update hookledger.event set status = 'processing', attempts = 1 where event_id = 'evt_1'");
    ledger.sql.execute("update hookledger.event set status = 'done', settled_at = now() - interval '40 days'"
        + " where event_id in ('evt_1', 'evt_2')");
    ledger.sql.execute("update hookledger.event set duplicates = duplicates + 1 where event_id = 'evt_2'");
    ledger.sql.execute("update hookledger.event set available_at = now() where event_id = 'evt_3'"); // no status change
    assertCountsMatchTheRows();

    ledger.admin().retry("github", "hook-1", "evt_3");
    ledger.admin().retry("stripe", "", "evt_1", true);
    assertCountsMatchTheRows();

    assertEquals(1, InboxAdmin.builder(ledger.database.dataSource()).build()
        .prune(InboxAdmin.DEFAULT_PRUNE_WINDOW, false).deleted());
    assertCountsMatchTheRows();

    // on Citus status_count is truncated with the events: V2's trigger, a distributed DELETE from a
    // shard, is not kept there
    ledger.sql.execute(TestDatabase.citus() ? "truncate hookledger.event, hookledger.status_count"
        : "truncate hookledger.event");
    assertCountsMatchTheRows();
    assertEquals(0, ledger.admin().status().total());
  }

  @Test
  void aStatementOfManyRowsIsCountedAsOneChange() {
    // one multi-row insert of mixed statuses, as BatchInsert writes a group commit's rows
    ledger.sql.execute("insert into hookledger.event (provider, event_id, type, body, status, duplicates) values"
        + " ('stripe', 'evt_a', 't', '\\x7b7d', 'pending', 0), ('stripe', 'evt_b', 't', '\\x7b7d', 'ignored', 2),"
        + " ('github', 'evt_c', 't', '\\x7b7d', 'ignored', 0), ('stripe', 'evt_d', 't', '\\x7b7d', 'done', 1)");
    assertCountsMatchTheRows();
    // one update moving rows both ways between counted statuses, and one whose changes cancel out
    ledger.sql.execute("update hookledger.event set status = case status when 'pending' then 'done'"
        + " when 'done' then 'pending' else status end, duplicates = duplicates + 1");
    ledger.sql.execute("update hookledger.event set last_error = 'x'");
    assertCountsMatchTheRows();
    ledger.sql.execute("delete from hookledger.event where status <> 'pending'");
    assertCountsMatchTheRows();
  }

  /**
   * V2 upserted the count row once per row: within one transaction each upsert of the same row
   * added a version the transaction could not prune, and the next walked them all, so 100,000 rows
   * took over 10 minutes. Counted per statement now, this takes seconds; the statement timeout
   * turns the old failure into a quick one.
   */
  @Test
  void aHundredThousandSettledRowsWrittenInOneStatementAreCountedInLinearTime() {
    assumeFalse(TestDatabase.citus(), "V2's row triggers count on Citus: quadratic in one statement (README)");
    int rows = 100_000;
    long start = System.nanoTime();
    ledger.sql.transaction(cfg -> {
      cfg.dsl().execute("set local statement_timeout = '120s'");
      cfg.dsl().execute("insert into hookledger.event (provider, event_id, type, body, status, settled_at, duplicates)"
          + " select case when i % 10 = 0 then 'github' else 'stripe' end, 'evt_' || i, 't', '\\x7b7d',"
          + " case when i % 4 = 0 then 'ignored' else 'done' end, now(), i % 3"
          + " from generate_series(1, " + rows + ") i");
      cfg.dsl().execute("update hookledger.event set status = 'stale' where status = 'done' and event_id like '%7'");
    });
    long seconds = (System.nanoTime() - start) / 1_000_000_000;
    assertCountsMatchTheRows();
    assertEquals(rows, ledger.admin().status().total());
    assertTrue(seconds < 120, rows + " rows counted in " + seconds + " s");
  }

  @Test
  void aVersion8LedgerTakesTheStatementAndMinuteCountsWithItsCountsIntact() {
    assumeFalse(TestDatabase.citus(), "no statement counts on Citus: CitusLedgerTest takes a V8 ledger there");
    LedgerFixture v8 = new LedgerFixture("ledger_v8", 8);
    v8.row("stripe", "evt_1").status("done").duplicates(2).insert();
    v8.row("stripe", "evt_2").status("ignored").insert();
    v8.row("github", "evt_3").status("dead").insert();
    v8.row("github", "evt_4").insert();
    assertEquals(8, v8.admin().schemaVersion());
    assertFalse(v8.admin().migrate(), "the ledger was there");
    assertEquals(LedgerMigration.latest(), v8.admin().schemaVersion());
    assertCountsMatchTheRows(v8);
    // counted once from now on: V14's row triggers (V2's names) append, V9's statement trigger deletes
    v8.sql.execute("update ledger_v8.event set status = 'done', settled_at = now() where event_id = 'evt_4'");
    v8.sql.execute("delete from ledger_v8.event where event_id = 'evt_2'");
    assertCountsMatchTheRows(v8);
    assertTheLatestTriggers(v8);
  }

  /**
   * The live path's one-row statements call no count function at all (V22): a receive of a pending
   * row, a claim, a lease renewal, a retry's reschedule (from V14), and a settle, whose time is its
   * transaction's own and so counted by the roll-up pass later; until V22 a settle called a row-level
   * function once. Counted by PostgreSQL's own function statistics, in one transaction.
   */
  @Test
  void theLivePathCallsNoCountFunction() {
    assumeTrue(TestDatabase.citusWorkers().isEmpty(), "with shards on workers the count function runs on a worker,"
        + " whose function statistics this session does not read");
    String key = "provider = 'stripe' and scope = '' and event_id = 'evt_live'";
    List<String> calls = new ArrayList<>();
    ledger.sql.transaction(cfg -> {
      DSLContext tx = cfg.dsl();
      tx.execute("set local track_functions = 'pl'");
      tx.execute("insert into hookledger.event (provider, event_id, type, body) values ('stripe', 'evt_live', 't', '\\x7b7d')");
      calls.add("receive " + countCalls(tx));
      tx.execute("update hookledger.event set status = 'processing', attempts = attempts + 1, lease_owner = 'n',"
          + " lease_until = now() + interval '30 seconds' where " + key);
      calls.add("claim " + countCalls(tx));
      tx.execute("update hookledger.event set lease_until = now() + interval '60 seconds' where " + key);
      calls.add("renewal " + countCalls(tx));
      tx.execute("update hookledger.event set status = 'pending', available_at = now() + interval '5 seconds',"
          + " lease_owner = null, lease_until = null, last_error = 'boom' where " + key);
      calls.add("reschedule " + countCalls(tx));
      tx.execute("update hookledger.event set status = 'processing', attempts = attempts + 1, lease_owner = 'n' where " + key);
      tx.execute("update hookledger.event set status = 'done', settled_at = statement_timestamp(), lease_owner = null"
          + " where " + key);
      calls.add("settle " + countCalls(tx));
      // INLINE: a row inserted finished, settled now
      tx.execute("insert into hookledger.event (provider, event_id, type, body, status, settled_at)"
          + " values ('stripe', 'evt_inline', 't', '\\x7b7d', 'done', now())");
      calls.add("inline " + countCalls(tx));
    });
    // on Citus V2's row triggers count, as V8 did on every database
    List<String> expected = TestDatabase.citus()
        ? List.of("receive {}", "claim {}", "renewal {}", "reschedule {}", "settle {count_event_status=1}",
            "inline {count_event_status=2}")
        : List.of("receive {}", "claim {}", "renewal {}", "reschedule {}", "settle {}", "inline {}");
    assertEquals(expected, calls);
    assertCountsMatchTheRows();
  }

  /**
   * From V22 a settle writes no count row: the finished rows settled since the roll-up's bound are
   * counted by the reader from the event table, and by the pass once it closes their times, once
   * either way; a change to them in a later transaction (a duplicate, a retry, a settle again) is
   * counted where its times then lie.
   */
  @Test
  void eventsSettledSinceThePassAreCountedOnceBeforeAndAfterItCloses() {
    assumeFalse(TestDatabase.citus(), "no roll-up on Citus: V2's row triggers count every settle");
    MinuteRollUp rollUp = new MinuteRollUp(new EventTable("hookledger"));
    rollUp.pass(ledger.sql);
    for (int i = 0; i < 6; i++) {
      ledger.row(i % 2 == 0 ? "stripe" : "github", "evt_" + i).insert();
    }
    ledger.sql.execute("update hookledger.event set status = case when event_id = 'evt_5' then 'dead' else 'done' end,"
        + " settled_at = statement_timestamp()");
    assertEquals(0, ledger.sql.fetchCount(ledger.sql.selectOne().from("hookledger.status_count").where("events <> 0")),
        "a settle appended a count row");
    assertCountsMatchTheRows();

    // in later transactions, before the pass closes their times: a duplicate, a retry, a settle again
    ledger.sql.execute("update hookledger.event set duplicates = duplicates + 2 where event_id in ('evt_0', 'evt_5')");
    ledger.sql.execute("update hookledger.event set status = 'pending', settled_at = null where event_id = 'evt_1'");
    ledger.sql.execute("update hookledger.event set status = 'ignored' where event_id = 'evt_2'");
    assertCountsMatchTheRows();

    rollUp.pass(ledger.sql);
    assertTrue(ledger.sql.fetchSingle("select closed_before > max(settled_at) from hookledger.event, hookledger.minute_roll_up"
        + " group by closed_before").get(0, Boolean.class), "the pass closed the settles' times");
    assertCountsMatchTheRows();

    // after it: counted by the triggers, appended
    ledger.sql.execute("update hookledger.event set duplicates = duplicates + 1 where event_id in ('evt_0', 'evt_2')");
    ledger.sql.execute("update hookledger.event set status = 'pending', settled_at = null where event_id = 'evt_5'");
    assertCountsMatchTheRows();
    rollUp.pass(ledger.sql);
    assertCountsMatchTheRows();
    assertEquals(6, ledger.admin().status().total());

    // the bound moved back by hand: the reopened times leave the kept counts, for the reader counts them
    ledger.sql.execute("update hookledger.minute_roll_up set closed_before = closed_before - interval '1 hour'");
    assertEquals(ledger.sql.fetch("select provider || ' ' || status || ' ' || count(*) || ' ' || sum(duplicates)"
        + " from hookledger.event group by provider, status").getValues(0, String.class).stream().sorted().toList(),
        ledger.admin().status().counts().stream().map(c -> c.provider() + " " + c.status().name().toLowerCase() + " "
            + c.events() + " " + c.duplicates()).sorted().toList());
  }

  /**
   * A V21 ledger counted every finished row as it settled: those settled since the roll-up's bound
   * leave status_count as V22 comes in, for the pass counts them again when it closes their times.
   */
  @Test
  void aVersion21LedgerWithEventsSettledSinceThePassIsCountedOnce() {
    assumeFalse(TestDatabase.citus(), "no roll-up on Citus");
    LedgerFixture v21 = new LedgerFixture("ledger_v21", 21);
    // half of the rows below settled before the bound, half since
    v21.sql.execute("update ledger_v21.minute_roll_up set closed_before = now() - interval '15 minutes'");
    v21.sql.execute("insert into ledger_v21.event (provider, event_id, type, body, status, received_at, available_at,"
        + " settled_at, duplicates) select case when i % 2 = 0 then 'github' else 'stripe' end, 'evt_' || i, 't',"
        + " '\\x7b7d', case when i % 5 = 0 then 'dead' else 'done' end, now() - i * interval '1 minute', now(),"
        + " now() - i * interval '1 minute' + interval '5 seconds', i % 3 from generate_series(0, 30) i");
    assertEquals(21, v21.admin().schemaVersion());

    assertFalse(v21.admin().migrate(), "the ledger was there");

    assertEquals(LedgerMigration.latest(), v21.admin().schemaVersion());
    assertCountsMatchTheRows(v21);
    assertEquals(31, v21.admin().status().total());
    new MinuteRollUp(new EventTable("ledger_v21")).pass(v21.sql);
    assertCountsMatchTheRows(v21);
    assertEquals(31, v21.admin().status().total());
  }

  /**
   * Every bulk path writes one count change per row (V14), none twice, so each is linear, and the
   * counts stay exact after each, with the changes unfolded as a reader adds them up and after the
   * roll-up pass has folded them: an import of finished rows in closed minutes in one statement, an
   * operator's retry of every dead one (old events, their settled minutes closed), their failures
   * again, and a prune in batches.
   */
  @Test
  void everyBulkPathLeavesExactCountsFoldedOrNot() {
    assumeFalse(TestDatabase.citus(), "V2's row triggers count on Citus: quadratic in one statement (README)");
    int rows = 6_000;
    ledger.sql.execute("insert into hookledger.event (provider, event_id, type, body, status, received_at, available_at,"
        + " settled_at, duplicates, last_error) select case when i % 3 = 0 then 'github' else 'stripe' end, 'evt_' || i, 't',"
        + " '\\x7b7d', case when i % 10 = 0 then 'dead' when i % 7 = 0 then 'ignored' else 'done' end,"
        + " now() - interval '40 days' - i * interval '1 second', now() - interval '40 days',"
        + " now() - interval '40 days' - i * interval '1 second' + interval '200 milliseconds', i % 2, 'boom'"
        + " from generate_series(1, " + rows + ") i");
    assertCountsMatchTheRows();
    assertTrue(ledger.sql.fetchCount(ledger.sql.selectOne().from("hookledger.minute_count").where("stripe >= 64")) > 0,
        "the import's closed minutes are appended changes until a pass folds them");

    assertEquals(rows / 10, ledger.admin().retry(RetrySelection.dead(), rows / 10));
    assertCountsMatchTheRows();
    ledger.sql.execute("update hookledger.event set status = 'dead', settled_at = statement_timestamp()"
        + " where status = 'pending'");
    assertCountsMatchTheRows();

    new MinuteRollUp(new EventTable("hookledger")).fold(ledger.sql);
    assertEquals(0, ledger.sql.fetchCount(ledger.sql.selectOne().from("hookledger.status_count").where("stripe >= 64")));
    assertEquals(0, ledger.sql.fetchCount(ledger.sql.selectOne().from("hookledger.minute_count").where("stripe >= 64")));
    assertCountsMatchTheRows();

    long pruned = InboxAdmin.builder(ledger.database.dataSource()).pruneBatchSize(1_000).build()
        .prune(InboxAdmin.DEFAULT_PRUNE_WINDOW, false).deleted();
    assertEquals(rows - rows / 10, pruned);
    assertCountsMatchTheRows();
    assertEquals(rows / 10, ledger.admin().status().total());
  }

  /** A V13 ledger's counts, kept by its statement triggers in every writer's stripe, stay through V14. */
  @Test
  void aVersion13LedgerKeepsItsCountsAndTakesTheRowTriggers() {
    assumeFalse(TestDatabase.citus(), "no statement counts on Citus: CitusLedgerTest takes older ledgers there");
    LedgerFixture v13 = new LedgerFixture("ledger_v13", 13);
    for (int w = 0; w < 3; w++) { // three statements, each its backend's stripe; closed minutes corrected
      v13.sql.execute("insert into ledger_v13.event (provider, event_id, type, body, status, received_at, available_at,"
          + " settled_at, duplicates) select case when i % 2 = 0 then 'github' else 'stripe' end, 'evt_" + w + "_' || i,"
          + " 't', '\\x7b7d', case when i % 5 = 0 then 'dead' else 'done' end, now() - i * interval '7 minutes',"
          + " now(), now() - i * interval '7 minutes' + interval '30 seconds', i % 3 from generate_series(1, 40) i");
    }
    v13.row("stripe", "evt_open").insert();
    assertEquals(13, v13.admin().schemaVersion());

    assertFalse(v13.admin().migrate(), "the ledger was there");

    assertEquals(LedgerMigration.latest(), v13.admin().schemaVersion());
    assertCountsMatchTheRows(v13);
    v13.sql.execute("update ledger_v13.event set status = 'done', settled_at = now() where event_id = 'evt_open'");
    v13.sql.execute("update ledger_v13.event set status = 'pending', settled_at = null where status = 'dead'");
    assertCountsMatchTheRows(v13);
    assertTheLatestTriggers(v13);
  }

  /** V14's row triggers (V2's names) for inserts and updates, V9's statement trigger for deletes. */
  private static void assertTheLatestTriggers(LedgerFixture ledger) {
    assertEquals(List.of("event_minute_count_truncate", "event_status_count_insert", "event_status_count_rows_deleted",
        "event_status_count_truncate", "event_status_count_update"), ledger.sql.fetch("select tgname from pg_trigger"
        + " where tgrelid = ?::regclass and not tgisinternal order by tgname", ledger.schema + ".event")
        .getValues(0, String.class));
  }

  /** The count functions this transaction called so far, by name, with their calls. */
  private static Map<String, Long> countCalls(DSLContext tx) {
    Map<String, Long> calls = new TreeMap<>();
    tx.fetch("select funcname, calls from pg_stat_xact_user_functions where funcname like 'count\\_event%' and calls > 0")
        .forEach(r -> calls.put(r.get(0, String.class), r.get(1, Long.class)));
    return calls;
  }

  @Test
  void manyWritersAtOnceLeaveExactCounts() throws Exception {
    int writers = 4;
    int each = 60; // four writers at once are the race; 240 rows prove it as well as 600 did, in a third of the time
    ExecutorService threads = Executors.newFixedThreadPool(writers);
    try {
      List<Future<?>> done = new ArrayList<>();
      for (int w = 0; w < writers; w++) {
        int writer = w;
        done.add(threads.submit(() -> {
          for (int i = 0; i < each; i++) {
            String id = "evt_" + writer + "_" + i;
            String settled = i % 3 == 0 ? "ignored" : "done";
            ledger.row(writer % 2 == 0 ? "stripe" : "github", id).insert();
            // by the scope too, as the runtime writes a row: one shard's on Citus, not a statement on all of them
            ledger.sql.transaction(cfg -> {
              cfg.dsl().execute("update hookledger.event set status = 'processing' where scope = '' and event_id = ?", id);
              cfg.dsl().execute("update hookledger.event set status = ?, settled_at = now()"
                  + " where scope = '' and event_id = ?", settled, id);
            });
            if (i % 5 == 0) {
              ledger.sql.execute("update hookledger.event set duplicates = duplicates + 1 where scope = '' and event_id = ?",
                  id);
            }
          }
          return null;
        }));
      }
      for (Future<?> f : done) {
        f.get(120, TimeUnit.SECONDS);
      }
    } finally {
      threads.shutdownNow();
    }
    assertCountsMatchTheRows();
    assertEquals(writers * each, ledger.admin().status().total());
  }

  /** As {@code status} counts and the chart's per-minute roll-up read them. */
  private void assertCountsMatchTheRows() {
    assertCountsMatchTheRows(ledger);
  }

  /** As {@code status} counts and the chart's per-minute roll-up read them, in {@code ledger}; also for {@link BulkChangeAbsorbedTest}. */
  static void assertCountsMatchTheRows(LedgerFixture ledger) {
    List<String> counted = ledger.admin().status().counts().stream()
        .map(c -> c.provider() + " " + c.status().name().toLowerCase() + " " + c.events() + " " + c.duplicates())
        .sorted().toList();
    List<String> rows = ledger.sql.fetch("select provider || ' ' || status || ' ' || count(*) || ' ' || sum(duplicates)"
        + " from " + ledger.schema + ".event group by provider, status").getValues(0, String.class).stream().sorted().toList();
    assertEquals(rows, counted);
    if (TestDatabase.citus()) {
      return; // V10 and V13 make no roll-up on Citus
    }
    // the chart's roll-up (V10) is a count of the same rows, per minute: from V13 of the minutes its
    // pass has closed (MinuteRollUpTest), rows written into them later counted by the trigger
    String closed = "(select closed_before from " + ledger.schema + ".minute_roll_up)";
    if (StatusCountTable.rolledUp(ledger.sql, new EventTable(ledger.schema))) {
      // from V22 the kept counts are the finished rows settled before the bound (or never), no more
      List<String> kept = ledger.sql.fetch("select provider || ' ' || status || ' ' || sum(events) || ' ' || sum(duplicates)"
          + " from " + ledger.schema + ".status_count group by provider, status having sum(events) <> 0")
          .getValues(0, String.class).stream().sorted().toList();
      List<String> closedRows = ledger.sql.fetch("select provider || ' ' || status || ' ' || count(*) || ' ' || sum(duplicates)"
          + " from " + ledger.schema + ".event where status not in ('pending', 'processing')"
          + " and (settled_at is null or settled_at < " + closed + ") group by provider, status")
          .getValues(0, String.class).stream().sorted().toList();
      assertEquals(closedRows, kept, "status_count against the finished rows before the bound");
    }
    List<String> rolledUp = ledger.sql.fetch("select minute || ' ' || sum(received) || ' ' || sum(settled) from "
        + ledger.schema + ".minute_count group by minute having sum(received) <> 0 or sum(settled) <> 0")
        .getValues(0, String.class).stream().sorted().toList();
    // (from V20 closed_before may fall within a minute, whose row counts that minute's rows before it)
    List<String> perMinute = ledger.sql.fetch("select date_trunc('minute', t) || ' ' || sum(r) || ' ' || sum(s) from ("
        + " select received_at t, 1 r, 0 s from " + ledger.schema + ".event union all"
        + " select settled_at, 0, 1 from " + ledger.schema + ".event"
        + " where settled_at is not null and status not in ('pending', 'processing')) v where t < " + closed
        + " group by date_trunc('minute', t)").getValues(0, String.class).stream().sorted().toList();
    assertEquals(perMinute, rolledUp);
  }
}
