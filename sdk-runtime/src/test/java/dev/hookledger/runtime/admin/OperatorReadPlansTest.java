package dev.hookledger.runtime.admin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hookledger.runtime.EventStatus;
import dev.hookledger.runtime.internal.ledger.EventTable;
import dev.hookledger.runtime.internal.ledger.MinuteRollUp;
import dev.hookledger.runtime.testing.StatementRecorder;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The operator's reads ({@code status}, the health backlog, the chart, {@code list} with each
 * filter) never scan the event table: each statement they send is EXPLAINed, with its own bind
 * values, over a ledger whose history (settled rows) outnumbers everything else, and no plan may
 * hold a sequential scan of it. Plans, not timings: the cost then follows the small sets and the
 * page asked for, not the history kept.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class OperatorReadPlansTest {
  private static final int HISTORY = 40_000;

  private final LedgerFixture ledger = new LedgerFixture();
  private final StatementRecorder recorder = new StatementRecorder(ledger.database.dataSource());
  // the plans are asserted, not the speed: a loaded machine can take longer than the 2 s default deadline
  private final InboxAdmin admin = InboxAdmin.builder(recorder.dataSource()).readTimeout(Duration.ofSeconds(30)).build();

  @BeforeAll
  void history() {
    ledger.sql.execute("insert into hookledger.event (provider, event_id, type, body, status, received_at,"
        + " available_at, settled_at, duplicates, delivery_id)"
        + " select case when i % 50 = 0 then 'github' else 'stripe' end, 'evt_' || i,"
        + " case when i % 40 = 0 then 'invoice.paid' else 'customer.updated' end, '\\x7b7d',"
        + " case when i % 100 = 0 then 'ignored' else 'done' end,"
        + " now() - i * interval '1 minute', now() - i * interval '1 minute',"
        + " now() - i * interval '1 minute' + interval '1 second', i % 2,"
        + " case when i % 50 = 0 then 'guid-' || i end"
        + " from generate_series(1, " + HISTORY + ") i");
    ledger.row("stripe", "evt_dead").status("dead").attempts(12).lastError("boom").insert();
    ledger.row("stripe", "evt_failing").status("pending").attempts(2).lastError("boom").insert();
    ledger.row("github", "evt_pending").status("pending").insert();
    ledger.sql.execute("analyze hookledger.event");
    ledger.sql.execute("analyze hookledger.minute_count");
    recorder.drain();
  }

  @Test
  void statusCountsEveryEventWithoutReadingTheEventTableWhole() {
    InboxStatus status = admin.status();
    assertEquals(HISTORY + 3, status.total());
    assertEquals(HISTORY / 100, status.count(EventStatus.IGNORED));
    assertEquals(HISTORY / 2, status.duplicates());
    assertEquals(1, status.dead());
    assertEquals(1, status.failing());
    assertNoScanOfTheEventTable();
  }

  @Test
  void healthBacklogAndChartReadIndexesOnly() {
    assertEquals(2, admin.backlog().waiting());
    Throughput t = admin.throughput();
    assertEquals(60, t.minutes().size());
    assertTrue(t.minutes().stream().mapToLong(Throughput.Minute::received).sum() > 0, "the history's last hour");
    assertNoScanOfTheEventTable();
  }

  /**
   * The chart reads the per-minute roll-up (V10) for the minutes its pass has closed (V13): a range
   * of the roll-up's key, as many rows as the window has minutes, whatever the history and the last
   * hour's traffic; and the event table only for the open minutes after them, index ranges of those
   * minutes' rows.
   */
  @Test
  void chartReadsTheWindowOfTheMinuteRollUpAndTheOpenMinutesOnly() {
    new MinuteRollUp(new EventTable("hookledger")).pass(ledger.sql);
    long open = ledger.sql.fetchCount(ledger.sql.selectOne().from("hookledger.event")
        .where("received_at >= (select closed_before from hookledger.minute_roll_up)"
            + " or settled_at >= (select closed_before from hookledger.minute_roll_up)"));
    assertTrue(open < 10, "rows in the open minutes: " + open);
    recorder.drain();
    Throughput t = admin.throughput();
    List<String> statements = recorder.drain();
    Instant from = t.minutes().get(0).start();
    Instant to = t.minutes().get(t.minutes().size() - 1).start().plusSeconds(60);
    assertEquals(ledger.sql.fetchCount(ledger.sql.selectOne().from("hookledger.event")
            .where("received_at >= ?::timestamptz and received_at < ?::timestamptz", from, to)),
        t.minutes().stream().mapToLong(Throughput.Minute::received).sum(), "the window's received events");
    assertEquals(ledger.sql.fetchCount(ledger.sql.selectOne().from("hookledger.event")
            .where("settled_at >= ?::timestamptz and settled_at < ?::timestamptz and status in ('done', 'ignored', 'stale', 'dead')", from, to)),
        t.minutes().stream().mapToLong(Throughput.Minute::settled).sum(), "the window's settled events");
    assertTrue(t.minutes().stream().mapToLong(Throughput.Minute::received).sum() >= 58, "the history's last hour");
    assertFalse(statements.isEmpty());
    boolean rollUp = false;
    for (String sql : statements) {
      String plan = String.join("\n", ledger.sql.fetch("explain (analyze, costs off, timing off, summary off) " + sql)
          .getValues(0, String.class));
      assertFalse(plan.contains("Seq Scan on event"), "scans the event table:\n" + sql + "\n" + plan);
      Matcher events = EVENT_SCAN.matcher(plan);
      while (events.find()) {
        assertTrue(Integer.parseInt(events.group(1)) <= open, "reads more than the open minutes:\n" + sql + "\n" + plan);
      }
      Matcher scan = MINUTE_COUNT_SCAN.matcher(plan);
      if (scan.find()) {
        rollUp = true;
        assertTrue(Integer.parseInt(scan.group(1)) <= 61, "reads more than the window:\n" + sql + "\n" + plan);
      }
      assertFalse(plan.contains("Seq Scan on minute_count"), "scans the roll-up:\n" + sql + "\n" + plan);
    }
    assertTrue(rollUp, "reads the roll-up by its key: " + statements);
  }

  private static final Pattern EVENT_SCAN = Pattern.compile(" on event [^\n]*actual rows=(\\d+)");
  private static final Pattern MINUTE_COUNT_SCAN =
      Pattern.compile("Index (?:Only )?Scan using minute_count_pkey on minute_count[^\n]*actual rows=(\\d+)");

  /**
   * A delivery's id is found through a hash index (V11): equality is all the search asks, and a
   * hash of 4 bytes a row keeps the index, which every receive writes on a random page, at less
   * than half the btree's pages.
   */
  @Test
  void listByADeliveryIdFindsItThroughTheHashIndex() {
    recorder.drain();
    assertEquals(List.of("evt_150"), admin.list(EventQuery.builder().id("guid-150").build()).events().stream()
        .map(EventSummary::eventId).toList());
    List<String> statements = recorder.drain();
    boolean hashed = false;
    for (String sql : statements) {
      String plan = String.join("\n", ledger.sql.fetch("explain " + sql).getValues(0, String.class));
      assertFalse(plan.contains("Seq Scan on event"), "scans the event table:\n" + sql + "\n" + plan);
      hashed |= plan.contains("event_delivery_id_hash_idx");
    }
    assertTrue(hashed, "reads the hash index: " + statements);
    assertEquals("hash", ledger.sql.fetchSingle("select am.amname from pg_class c join pg_am am on am.oid = c.relam"
        + " where c.oid = 'hookledger.event_delivery_id_hash_idx'::regclass").get(0, String.class));
  }

  @Test
  void listWithAnyFilterReadsOnlyThePageAskedFor() {
    List<Consumer<EventQuery.Builder>> filters = new ArrayList<>();
    filters.add(q -> { });
    for (StatusFilter f : StatusFilter.values()) {
      filters.add(q -> q.status(f));
    }
    filters.add(q -> q.provider("github"));
    filters.add(q -> q.type("invoice.paid"));
    filters.add(q -> q.provider("github").status(StatusFilter.DONE));
    for (Consumer<EventQuery.Builder> filter : filters) {
      EventQuery.Builder q = EventQuery.builder().limit(20);
      filter.accept(q);
      EventPage first = admin.list(q.build());
      if (first.nextCursor().isPresent()) {
        EventQuery.Builder next = EventQuery.builder().limit(20).after(first.nextCursor().get());
        filter.accept(next);
        assertFalse(admin.list(next.build()).events().isEmpty());
      }
    }
    assertNoScanOfTheEventTable();
  }

  private void assertNoScanOfTheEventTable() {
    List<String> statements = recorder.drain();
    assertFalse(statements.isEmpty());
    for (String sql : statements) {
      String plan = String.join("\n", ledger.sql.fetch("explain " + sql).getValues(0, String.class));
      assertTrue(!plan.contains("Seq Scan on event"), "scans the event table:\n" + sql + "\n" + plan);
    }
  }
}
