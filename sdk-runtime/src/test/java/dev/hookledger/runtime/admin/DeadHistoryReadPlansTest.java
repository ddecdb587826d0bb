package dev.hookledger.runtime.admin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hookledger.runtime.internal.ledger.EventTable;
import dev.hookledger.runtime.internal.ledger.MinuteRollUp;
import dev.hookledger.runtime.testing.StatementRecorder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jooq.SQLDialect;
import org.jooq.impl.DSL;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The operator's reads and the roll-up pass on a ledger that keeps many dead rows (an import of old
 * events, half of them dead, in one statement; or dead letters nobody retried): dead rows are kept
 * history, so no read may go through all of them. Each statement is EXPLAINed with its own bind
 * values, and the index entries its plan reads are held to the rows it counts. Plans, not timings.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DeadHistoryReadPlansTest {
  private static final int HISTORY = 20_000;
  /** Index entries a plan reads on the event table, whatever the index; a sequential scan reads it all. */
  private static final Pattern EVENT_READ = Pattern.compile(
      "(?:Index (?:Only )?Scan(?: Backward)? using (event_\\w+) on event|Bitmap Index Scan on (event_\\w+)"
          + "|Seq Scan on (event)\\b)[^\n]*actual rows=(\\d+)");

  private final LedgerFixture ledger = new LedgerFixture();
  private final StatementRecorder recorder = new StatementRecorder(ledger.database.dataSource());
  // the plans are asserted, not the speed: a loaded machine can take longer than the 2 s default deadline
  private final InboxAdmin admin = InboxAdmin.builder(recorder.dataSource()).readTimeout(Duration.ofSeconds(30)).build();

  @BeforeAll
  void importedHistory() {
    // an import in one statement: a month of finished events, every other one dead, settled a second
    // after it arrived, all of it more than an hour old
    ledger.sql.execute("insert into hookledger.event (provider, event_id, type, body, status, received_at,"
        + " available_at, settled_at, attempts, last_error)"
        + " select 'stripe', 'evt_' || i, 'invoice.paid', '\\x7b7d',"
        + " case when i % 2 = 0 then 'dead' else 'done' end,"
        + " now() - interval '2 hours' - i * interval '2 minutes', now() - interval '2 hours' - i * interval '2 minutes',"
        + " now() - interval '2 hours' - i * interval '2 minutes' + interval '1 second', 1,"
        + " case when i % 2 = 0 then 'boom' end"
        + " from generate_series(1, " + HISTORY + ") i");
    new MinuteRollUp(new EventTable("hookledger")).pass(ledger.sql);
    ledger.sql.execute("analyze hookledger.event");
    recorder.drain();
  }

  @Test
  void backlogCountsTheDeadFromTheLedgersCountsNotThroughEveryDeadRow() {
    // the import's half, and the chart's test's own if it ran first
    int dead = ledger.sql.fetchCount(DSL.table("hookledger.event"), DSL.condition("status = 'dead'"));
    assertTrue(dead >= HISTORY / 2);
    // the rows settled since the roll-up's last pass are read, and counted, one by one (V22)
    int sincePass = ledger.sql.fetchCount(DSL.table("hookledger.event"), DSL.condition("status not in ('pending', 'processing')"
        + " and settled_at >= (select closed_before from hookledger.minute_roll_up)"));
    recorder.drain();
    assertEquals(dead, admin.backlog().dead());
    assertEquals(dead, admin.status().dead());
    for (String sql : recorder.drain()) {
      List<Read> reads = reads(sql);
      assertTrue(reads.stream().allMatch(r -> r.rows() <= Math.max(1, sincePass)),
          "reads rows it does not count (" + sincePass + " settled since the pass):\n" + sql + "\n" + reads);
    }
    admin.retry("stripe", "", "evt_2");
    assertEquals(dead - 1, admin.backlog().dead(), "a retried dead event is no longer counted");
    ledger.sql.execute("update hookledger.event set status = 'dead', settled_at = now() where event_id = 'evt_2'");
    assertEquals(dead, admin.backlog().dead());
  }

  /**
   * The page's causes group the newest {@value CauseReader#READ} failing and dead events: each kind
   * read newest first through its own index, and no further than that, whatever the dead rows kept.
   */
  @Test
  void causesReadTheNewestDeadRowsOnly() {
    recorder.drain();
    List<CauseCount> causes = admin.causes();
    assertEquals(List.of("boom"), causes.stream().map(CauseCount::cause).toList());
    assertEquals(CauseReader.READ, causes.get(0).dead());
    List<String> statements = recorder.drain();
    assertFalse(statements.isEmpty());
    for (String sql : statements) {
      List<Read> reads = reads(sql);
      assertTrue(reads.stream().allMatch(r -> r.rows() <= CauseReader.READ), "reads past the newest:\n" + sql + "\n" + reads);
    }
  }

  /**
   * The chart's open minutes (those after the roll-up's {@code closed_before}) count the rows
   * settled in them, dead ones included: by their settle time, through V17's index, never through
   * every dead row the ledger keeps.
   */
  @Test
  void chartReadsTheOpenMinutesDeadRowsOnly() {
    ledger.sql.execute("insert into hookledger.event (provider, event_id, type, body, status, received_at,"
        + " available_at, settled_at, attempts, last_error)"
        + " select 'stripe', 'evt_now_' || i, 'invoice.paid', '\\x7b7d', 'dead', now(), now(), now(), 3, 'boom'"
        + " from generate_series(1, 3) i");
    recorder.drain();
    Throughput t = admin.throughput();
    List<String> statements = recorder.drain();
    assertEquals(3, t.minutes().stream().mapToLong(Throughput.Minute::settled).sum(), "the open minutes' dead rows");
    boolean eventRead = false;
    for (String sql : statements) {
      for (Read r : reads(sql)) {
        eventRead = true;
        assertTrue(r.rows() <= 3, "reads more than the open minutes' rows:\n" + sql + "\n" + r);
      }
    }
    assertTrue(eventRead, "counts the open minutes from the event table: " + statements);
  }

  /** The pass that closes minutes counts the dead rows settled in them, a range of V17's index. */
  @Test
  void rollUpPassReadsTheDeadRowsOfTheMinutesItClosesOnly() {
    ledger.sql.execute("update hookledger.minute_roll_up set closed_before = closed_before - interval '5 minutes'");
    recorder.drain();
    new MinuteRollUp(new EventTable("hookledger")).pass(DSL.using(recorder.dataSource(), SQLDialect.POSTGRES));
    List<String> counts = recorder.drain().stream().filter(s -> s.startsWith("insert into \"hookledger\".minute_count"))
        .toList();
    assertFalse(counts.isEmpty(), "the pass counted the minutes it closed");
    for (String sql : counts) {
      String plan = plan("explain " + sql);
      assertTrue(plan.contains("using event_dead_settled_idx") || plan.contains("on event_dead_settled_idx"),
          "the dead rows by their settle time:\n" + sql + "\n" + plan);
      assertFalse(plan.contains("event_dead_idx") || plan.contains("Seq Scan on event"), sql + "\n" + plan);
    }
  }

  private record Read(String on, int rows) { }

  private List<Read> reads(String sql) {
    Matcher m = EVENT_READ.matcher(plan("explain (analyze, costs off, timing off, summary off) " + sql));
    List<Read> reads = new ArrayList<>();
    while (m.find()) {
      String on = m.group(1) != null ? m.group(1) : m.group(2) != null ? m.group(2) : m.group(3);
      // a sequential scan's actual rows are those left after its filter: it reads the table whole
      reads.add(new Read(on, m.group(3) != null ? Integer.MAX_VALUE : Integer.parseInt(m.group(4))));
    }
    return reads;
  }

  private String plan(String explain) {
    return String.join("\n", ledger.sql.fetch(explain).getValues(0, String.class));
  }
}
