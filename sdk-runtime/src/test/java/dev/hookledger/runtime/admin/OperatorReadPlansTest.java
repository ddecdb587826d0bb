package dev.hookledger.runtime.admin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hookledger.runtime.EventStatus;
import dev.hookledger.runtime.testing.StatementRecorder;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
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
  private final InboxAdmin admin = InboxAdmin.builder(recorder.dataSource()).build();

  @BeforeAll
  void history() {
    ledger.sql.execute("insert into hookledger.event (provider, event_id, type, body, status, received_at,"
        + " available_at, settled_at, duplicates)"
        + " select case when i % 50 = 0 then 'github' else 'stripe' end, 'evt_' || i,"
        + " case when i % 40 = 0 then 'invoice.paid' else 'customer.updated' end, '\\x7b7d',"
        + " case when i % 100 = 0 then 'ignored' else 'done' end,"
        + " now() - i * interval '1 minute', now() - i * interval '1 minute',"
        + " now() - i * interval '1 minute' + interval '1 second', i % 2"
        + " from generate_series(1, " + HISTORY + ") i");
    ledger.row("stripe", "evt_dead").status("dead").attempts(12).lastError("boom").insert();
    ledger.row("stripe", "evt_failing").status("pending").attempts(2).lastError("boom").insert();
    ledger.row("github", "evt_pending").status("pending").insert();
    ledger.sql.execute("analyze hookledger.event");
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
