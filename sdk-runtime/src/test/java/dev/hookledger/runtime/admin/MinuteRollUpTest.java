package dev.hookledger.runtime.admin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hookledger.Secrets;
import dev.hookledger.runtime.WebhookRuntime;
import dev.hookledger.runtime.internal.ledger.EventTable;
import dev.hookledger.runtime.internal.ledger.MinuteRollUp;
import dev.hookledger.runtime.testing.LedgerRole;
import dev.hookledger.runtime.testing.StatementRecorder;
import dev.hookledger.runtime.testing.TestHookAdapter;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.sql.DataSource;
import org.jooq.SQLDialect;
import org.jooq.impl.DSL;
import org.junit.jupiter.api.Test;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * The chart's per-minute roll-up from V13: closed minutes counted by a periodic pass, the open ones
 * read from the event table, and the statement trigger writing a minute only when a row lands in a
 * closed one. Every figure is checked against a count of the event rows themselves.
 */
class MinuteRollUpTest {
  private final LedgerFixture ledger = new LedgerFixture();
  private final MinuteRollUp rollUp = new MinuteRollUp(new EventTable("hookledger"));
  /** On the system clock, as the database's: the chart's window and the prune's cutoff are now. */
  private final InboxAdmin admin = InboxAdmin.builder(ledger.database.dataSource())
      .readTimeout(Duration.ofSeconds(30)).build();

  /** A receive, a claim and a settle, the live path's statements, leave the roll-up untouched. */
  @Test
  void theLivePathWritesNoMinuteCount() {
    // an event received in a closed minute: its row is counted into the roll-up as it is written
    insert("evt_old", "pending", "now() - interval '10 minutes'", "null");
    String before = rollUpRows();
    ledger.sql.execute("insert into hookledger.event (provider, event_id, type, body) values ('stripe', 'evt_new', 't', '\\x7b7d')");
    for (String id : List.of("evt_old", "evt_new")) {
      ledger.sql.execute("update hookledger.event set status = 'processing', lease_owner = 'n', attempts = 1 where event_id = ?", id);
      ledger.sql.execute("update hookledger.event set status = 'done', settled_at = statement_timestamp(),"
          + " lease_owner = null where event_id = ?", id);
    }
    assertEquals(before, rollUpRows(), "the roll-up's rows, versions included");
    assertChartCountsTheRows();
  }

  /** No runtime ran for two days: the first pass counts them, ten minutes a transaction, and the chart stays exact throughout. */
  @Test
  void aPassAfterDowntimeCatchesUpAndTheChartCountsTheRowsThroughout() {
    Instant downtimeSet = ledger.databaseNow();
    ledger.sql.execute("update hookledger.minute_roll_up set closed_before = date_trunc('minute', now()) - interval '50 hours'");
    insertSeries(120, "case when i % 7 = 0 then 'pending' when i % 11 = 0 then 'dead' else 'done' end",
        "now() - i * interval '25 minutes'",
        "case when i % 7 <> 0 then now() - i * interval '25 minutes' + (i % 3) * interval '1 minute' end");
    assertChartCountsTheRows(); // the window read from the event table: nothing rolled up since
    long minutes = rollUp.pass(ledger.sql);
    // each minute that turns between setting the downtime and the pass closes one more (a loaded machine
    // takes minutes over the rows above)
    long turned = ChronoUnit.MINUTES.between(downtimeSet.truncatedTo(ChronoUnit.MINUTES),
        ledger.databaseNow().truncatedTo(ChronoUnit.MINUTES));
    assertTrue(minutes >= 50 * 60 - 2 && minutes <= 50 * 60 + turned,
        "minutes closed: " + minutes + ", the minute turned " + turned + " times meanwhile");
    Instant closed = closedBefore();
    assertTrue(Duration.between(closed, ledger.databaseNow()).compareTo(Duration.ofMinutes(3)) < 0, "closed before " + closed);
    assertRollUpCountsTheRows();
    assertChartCountsTheRows();
    assertEquals(0, rollUp.pass(ledger.sql), "a second pass at once has nothing to close");
    assertRollUpCountsTheRows();
  }

  /** A started runtime runs the pass on its own: the roll-up closed two hours ago is caught up within seconds. */
  @Test
  void aStartedRuntimeRollsUpTheMinutesClosedSinceTheLastPass() throws InterruptedException {
    ledger.sql.execute("update hookledger.minute_roll_up set closed_before = date_trunc('minute', now()) - interval '2 hours'");
    insert("evt_1", "done", "now() - interval '90 minutes'", "now() - interval '89 minutes'");
    try (WebhookRuntime runtime = WebhookRuntime.builder().dataSource(ledger.database.dataSource())
        .provider(new TestHookAdapter(), Secrets.of("s")).inbox(i -> i.workers(0)).build()) {
      runtime.start();
      long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
      while (Duration.between(closedBefore(), ledger.databaseNow()).compareTo(Duration.ofMinutes(3)) > 0) {
        assertTrue(System.nanoTime() < deadline, "not rolled up within 60 s: closed before " + closedBefore());
        Thread.sleep(100);
      }
    }
    assertRollUpCountsTheRows();
    assertTrue(ledger.sql.fetchCount(ledger.sql.selectOne().from("hookledger.minute_count")) >= 2, "the event's minutes");
  }

  /**
   * Where the pass sees every session (here the tests' superuser) and none is in a transaction, it
   * closes up to its own start, within the minute: the chart then reads only the rows since from the
   * event table, and counts every row all the same.
   */
  @Test
  void aPassThatSeesEverySessionClosesUpToItsOwnStart() {
    ledger.sql.execute("update hookledger.minute_roll_up set closed_before = date_trunc('minute', now()) - interval '10 minutes'");
    insertSeries(40, "'done'", "now() - i * interval '15 seconds'", "now() - i * interval '15 seconds'");
    Instant before = ledger.databaseNow();
    rollUp.pass(ledger.sql);
    Instant after = ledger.databaseNow();
    Instant closed = closedBefore();
    assertTrue(!closed.isBefore(before) && !closed.isAfter(after),
        "closed before " + closed + ", the pass ran from " + before + " to " + after);
    assertRollUpCountsTheRows();
    assertChartCountsTheRows();
  }

  /**
   * A bound within a minute splits it: a row written later at a time before the bound is a correction
   * the triggers append (as in any closed minute), a row at a time after it is left to the pass, and
   * so is a retry or a delete of such a row (V20: the triggers compare times with the bound, not
   * their minutes with it, which counted those rows twice).
   */
  @Test
  void theTriggersCountOnlyTheTimesBeforeABoundWithinAMinute() {
    ledger.sql.execute("update hookledger.minute_roll_up set"
        + " closed_before = date_trunc('minute', now()) - interval '10 minutes' + interval '30 seconds'");
    String minute = "date_trunc('minute', now()) - interval '10 minutes'";
    insert("evt_before", "dead", minute + " + interval '5 seconds'", minute + " + interval '10 seconds'");
    insert("evt_after", "dead", minute + " + interval '35 seconds'", minute + " + interval '40 seconds'");
    insert("evt_pruned", "done", minute + " + interval '45 seconds'", minute + " + interval '50 seconds'");
    assertRollUpCountsTheRows();
    ledger.sql.execute("update hookledger.event set status = 'pending', settled_at = null, attempts = 0 where event_id = 'evt_after'");
    ledger.sql.execute("delete from hookledger.event where event_id = 'evt_pruned'");
    assertRollUpCountsTheRows();
    rollUp.pass(ledger.sql);
    assertRollUpCountsTheRows();
    assertChartCountsTheRows();
  }

  /**
   * A role that cannot see another role's session in {@code pg_stat_activity} (there, the tests' own
   * superuser sessions) cannot know when that session's transaction began: its pass leaves the last
   * {@link MinuteRollUp#GRACE} open, and the counts stay exact.
   */
  @Test
  void aPassThatCannotSeeEverySessionKeepsTheMinuteOfGrace() throws Exception {
    try (LedgerRole role = new LedgerRole(ledger.sql, ledger.database.jdbcUrl(), "hookledger")) {
      ledger.sql.execute("update hookledger.minute_roll_up set closed_before = date_trunc('minute', now()) - interval '10 minutes'");
      insertSeries(40, "'done'", "now() - i * interval '15 seconds'", "now() - i * interval '15 seconds'");
      // one of the tests' superuser sessions is open beside the pass (the fixture's pool keeps it)
      ledger.sql.fetch("select 1");
      Instant before = ledger.databaseNow().minus(MinuteRollUp.GRACE);
      rollUp.pass(DSL.using(role.dataSource(), SQLDialect.POSTGRES));
      Instant after = ledger.databaseNow().minus(MinuteRollUp.GRACE);
      Instant closed = closedBefore();
      assertTrue(!closed.isBefore(before) && !closed.isAfter(after),
          "closed before " + closed + ", the pass ran from " + before + " to " + after + " less the grace");
      assertRollUpCountsTheRows();
      assertChartCountsTheRows();
    }
  }

  /**
   * Steps that run past the statement timeout (after a bound held back for long, ten minutes can hold
   * hundreds of thousands of rows) are cut to a smaller span and the pass goes on, where it failed at
   * the same step every time before. Here each minute a step counts costs it half a second (a sleep in
   * a trigger on minute_count), and the session gives each statement two: the first step, five
   * minutes, runs past it.
   */
  @Test
  void stepsThatRunPastTheStatementTimeoutAreCutAndThePassCatchesUp() {
    ledger.sql.execute("update hookledger.minute_roll_up set closed_before = now() - interval '5 minutes'");
    insertSeries(10, "'done'", "now() - i * interval '29 seconds'", "now() - i * interval '29 seconds'");
    ledger.sql.execute("create function hookledger.slow_minutes() returns trigger language plpgsql as $$ begin"
        + " perform pg_sleep(0.5 * (select count(*) from new_minutes)); return null; end $$");
    ledger.sql.execute("create trigger slow_minutes after insert on hookledger.minute_count"
        + " referencing new table as new_minutes for each statement execute function hookledger.slow_minutes()");
    PGSimpleDataSource timed = new PGSimpleDataSource();
    timed.setURL(ledger.database.jdbcUrl());
    timed.setOptions("-c statement_timeout=2000");
    Instant start = ledger.databaseNow();
    try {
      rollUp.pass(DSL.using(timed, SQLDialect.POSTGRES));
    } finally {
      ledger.sql.execute("drop trigger slow_minutes on hookledger.minute_count");
    }
    assertTrue(!closedBefore().isBefore(start), "closed before " + closedBefore() + ", the pass began at " + start);
    assertRollUpCountsTheRows();
    StatusCountsTest.assertCountsMatchTheRows(ledger);
  }

  /** A prune takes its rows out of their closed minutes, and the minutes it empties go. */
  @Test
  void aPruneKeepsTheRollUpRight() {
    insertSeries(300, "case when i % 13 = 0 then 'ignored' else 'done' end", "now() - i * interval '20 minutes'",
        "now() - i * interval '20 minutes' + interval '1 minute'");
    rollUp.pass(ledger.sql);
    assertRollUpCountsTheRows();
    PruneReport report = admin.prune(Duration.ofDays(3), true);
    assertTrue(report.deleted() > 50, "pruned " + report.deleted());
    assertRollUpCountsTheRows();
    assertEquals(0, ledger.sql.fetchCount(ledger.sql.selectOne().from("hookledger.minute_count")
        .where("received = 0 and settled = 0")), "rows of emptied minutes");
    assertChartCountsTheRows();
  }

  /** An operator retries an old dead event: its settled minute, closed, loses it; its settle later counts it in the open minute. */
  @Test
  void aRetryOfAnOldDeadEventTakesItOutOfItsClosedMinute() {
    insert("evt_dead", "dead", "now() - interval '30 minutes'", "now() - interval '20 minutes'");
    insert("evt_done", "done", "now() - interval '30 minutes'", "now() - interval '20 minutes'");
    rollUp.pass(ledger.sql);
    ledger.sql.execute("update hookledger.event set status = 'pending', settled_at = null, attempts = 0 where event_id = 'evt_dead'");
    assertRollUpCountsTheRows();
    assertChartCountsTheRows();
  }

  /**
   * An operator retries an event settled after the bound while a pass runs: the pass waits for the
   * retry's transaction (V21), then counts the row as the retry left it. Before, the pass counted the
   * row settled as its snapshot saw it, the retry's trigger had read the old bound (the row's time
   * open, nothing to take out), and the chart kept a settle that no longer existed.
   */
  @Test
  void aRetryCommittedWhileAPassRunsIsCountedOnce() throws Exception {
    try (Connection retry = retriedUncommitted("done", "now() - interval '2 minutes'")) {
      commitWhileAPassRuns(retry);
    }
    assertRollUpCountsTheRows();
    assertChartCountsTheRows();
  }

  /**
   * From V22 the pass counts an event settled at a time it closes into {@code status} too: a
   * duplicate's counter on it, changed before the step and committed after the step began, is counted
   * once (the trigger finds the time open and holds the count lock, for which the step waits), not
   * lost because the step counted the row as its snapshot saw it.
   */
  @Test
  void aDuplicateCommittedWhileAPassClosesItsEventsSettleIsCountedOnce() throws Exception {
    try (Connection dup = changedUncommitted("done", "now() - interval '2 minutes'", "duplicates = duplicates + 1")) {
      commitWhileAPassRuns(dup);
    }
    StatusCountsTest.assertCountsMatchTheRows(ledger);
    assertEquals("1/1", ledger.sql.fetchSingle("select sum(events) || '/' || sum(duplicates) from hookledger.status_count"
        + " where status = 'done'").get(0, String.class), "status_count after the pass");
  }

  /**
   * A change that holds the count lock longer than a step waits for it: the step closes nothing that
   * time and fails nothing, and a pass after the change ends counts it.
   */
  @Test
  void aPassBesideALongerChangeClosesNothingUntilItEnds() throws Exception {
    Instant before;
    try (Connection retry = retriedUncommitted("dead", "now() - interval '1 minute'")) {
      before = closedBefore();
      assertEquals(0, rollUp.pass(ledger.sql));
      assertEquals(before, closedBefore(), "a step closed times while a change at them was open");
      retry.commit();
    }
    rollUp.pass(ledger.sql);
    assertTrue(closedBefore().isAfter(before), "closed before " + closedBefore());
    assertRollUpCountsTheRows();
    assertChartCountsTheRows();
  }

  /**
   * A pass that commits while the chart is being read, between its read of the bound and its read of
   * the roll-up, is seen by the whole read or by none of it: the rows the pass moved into the bound's
   * minute are not also counted from the event table (the read is one snapshot).
   */
  @Test
  void aPassCommittedWhileTheChartIsReadIsSeenWholeOrNotAtAll() {
    ledger.sql.execute("update hookledger.minute_roll_up set closed_before = date_trunc('minute', now()) - interval '2 minutes'"
        + " + interval '10 seconds'");
    insertSeries(4, "'done'", "date_trunc('minute', now()) - interval '2 minutes' + (20 + i * 10) * interval '1 second'",
        "date_trunc('minute', now()) - interval '2 minutes' + (21 + i * 10) * interval '1 second'");
    AtomicBoolean passed = new AtomicBoolean();
    DataSource passingBetween = new StatementRecorder(ledger.database.dataSource(), sql -> {
      if (sql.contains("minute_count") && !sql.contains("to_regclass") && passed.compareAndSet(false, true)) {
        rollUp.pass(ledger.sql); // on the fixture's own pool, committed before the chart's read goes on
      }
    }).dataSource();
    Throughput t = InboxAdmin.builder(passingBetween).readTimeout(Duration.ofSeconds(30)).build().throughput();
    assertTrue(passed.get(), "the pass ran within the read");
    Instant from = t.minutes().get(0).start();
    Instant to = t.minutes().get(t.minutes().size() - 1).start().plusSeconds(60);
    assertEquals(perMinute("t >= ?::timestamptz and t < ?::timestamptz", from, to),
        t.minutes().stream().filter(m -> m.received() != 0 || m.settled() != 0)
            .map(m -> m.start() + "=" + m.received() + "/" + m.settled()).toList());
  }

  /**
   * With the bound five minutes ago, an event {@code status} at {@code at} (received and finished),
   * and a connection whose open transaction has retried it (pending again), not committed.
   */
  private Connection retriedUncommitted(String status, String at) throws Exception {
    return changedUncommitted(status, at, "status = 'pending', settled_at = null, attempts = 0");
  }

  /**
   * With the bound five minutes ago, an event received and finished ({@code status}) at {@code at},
   * then changed by {@code set} in a transaction left open on the connection returned.
   */
  private Connection changedUncommitted(String status, String at, String set) throws Exception {
    ledger.sql.execute("update hookledger.minute_roll_up set closed_before = now() - interval '5 minutes'");
    insert("evt_changed", status, at, at);
    Connection c = ledger.database.dataSource().getConnection();
    try (Statement s = c.createStatement()) {
      c.setAutoCommit(false);
      s.execute("update hookledger.event set " + set + " where event_id = 'evt_changed'");
      return c;
    } catch (Exception e) {
      c.close();
      throw e;
    }
  }

  /**
   * Commits {@code change} while a pass waits for it (or has ended), then passes again: the bound is
   * then past the change's row, even for a role that keeps the minute of grace.
   */
  private void commitWhileAPassRuns(Connection change) throws Exception {
    CompletableFuture<Long> pass = CompletableFuture.supplyAsync(() -> rollUp.pass(ledger.sql));
    awaitWaitingOrDone(pass);
    change.commit();
    pass.get(30, TimeUnit.SECONDS);
    rollUp.pass(ledger.sql);
    assertTrue(closedBefore().isAfter(ledger.databaseNow().minusSeconds(110)), "closed before " + closedBefore());
  }

  /** Until the pass waits for a lock (or has ended without waiting, as it did before V21), at most 30 s. */
  private void awaitWaitingOrDone(CompletableFuture<?> pass) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (!pass.isDone() && System.nanoTime() < deadline && !ledger.sql.fetchSingle(
        "select exists (select from pg_locks where locktype = 'advisory' and not granted"
            + " and database = (select oid from pg_database where datname = current_database()))").get(0, Boolean.class)) {
      Thread.sleep(10);
    }
  }

  private void insert(String id, String status, String receivedAt, String settledAt) {
    ledger.sql.execute("insert into hookledger.event (provider, event_id, type, body, status, received_at, available_at,"
        + " settled_at) values ('stripe', ?, 't', '\\x7b7d', ?, " + receivedAt + ", " + receivedAt + ", " + settledAt + ")",
        id, status);
  }

  /** Rows 0 to n - 1 in one statement, each column an expression of i. */
  private void insertSeries(int n, String status, String receivedAt, String settledAt) {
    ledger.sql.execute("insert into hookledger.event (provider, event_id, type, body, status, received_at, available_at,"
        + " settled_at) select 'stripe', 'evt_' || i, 't', '\\x7b7d', " + status + ", " + receivedAt + ", " + receivedAt
        + ", " + settledAt + " from generate_series(0, " + (n - 1) + ") i");
  }

  private String rollUpRows() {
    return ledger.sql.fetch("select minute || '/' || stripe || '/' || received || '/' || settled || '/' || xmin"
        + " from hookledger.minute_count order by minute, stripe").getValues(0, String.class).toString();
  }

  private Instant closedBefore() {
    return ledger.sql.fetchSingle("select closed_before from hookledger.minute_roll_up").get(0, Instant.class);
  }

  /**
   * The roll-up holds exactly the rows before closed_before, a count per minute: added up
   * over its stripes as the chart reads it, and again once the pass has folded the changes the row
   * triggers appended (V14), then one row a minute.
   */
  private void assertRollUpCountsTheRows() {
    Instant closed = closedBefore();
    String rows = perMinute("t < ?::timestamptz", closed).toString();
    assertEquals(rows, rolledUpMinutes());
    rollUp.fold(ledger.sql);
    assertEquals(rows, rolledUpMinutes());
    assertEquals(0, ledger.sql.fetchCount(ledger.sql.selectOne().from("hookledger.minute_count")
        .where("minute >= ?::timestamptz or stripe <> 0", closed)), "rows past closed_before or in other stripes");
  }

  private String rolledUpMinutes() {
    return ledger.sql.fetch("select minute, sum(received), sum(settled) from hookledger.minute_count group by minute"
            + " having sum(received) <> 0 or sum(settled) <> 0 order by minute").stream()
        .map(r -> r.get(0, Instant.class) + "=" + r.get(1, Long.class) + "/" + r.get(2, Long.class)).toList().toString();
  }

  /** The chart's 60 minutes equal a count of the rows received and finished in each. */
  private void assertChartCountsTheRows() {
    Throughput t = admin.throughput();
    Instant from = t.minutes().get(0).start();
    Instant to = t.minutes().get(t.minutes().size() - 1).start().plusSeconds(60);
    List<String> expected = perMinute("t >= ?::timestamptz and t < ?::timestamptz", from, to);
    List<String> charted = t.minutes().stream().filter(m -> m.received() != 0 || m.settled() != 0)
        .map(m -> m.start() + "=" + m.received() + "/" + m.settled()).toList();
    assertEquals(expected, charted);
  }

  private List<String> perMinute(String where, Object... bounds) {
    Map<Instant, String> rows = new TreeMap<>();
    ledger.sql.fetch("select date_trunc('minute', t) m, sum(r), sum(s) from ("
        + " select received_at t, 1 r, 0 s from hookledger.event union all"
        + " select settled_at, 0, 1 from hookledger.event"
        + " where settled_at is not null and status not in ('pending', 'processing')) v (t, r, s)"
        + " where " + where + " group by m", bounds)
        .forEach(r -> rows.put(r.get(0, Instant.class), r.get(1, Long.class) + "/" + r.get(2, Long.class)));
    return rows.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).toList();
  }
}
