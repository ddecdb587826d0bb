package dev.hookledger.runtime.admin;

import static dev.hookledger.runtime.admin.LedgerFixture.NOW;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hookledger.runtime.EventStatus;
import dev.hookledger.runtime.testing.StatementRecorder;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class RetryTest {
  private static final Instant DIED = NOW.minus(Duration.ofHours(1));

  private final LedgerFixture ledger = new LedgerFixture();
  private final InboxAdmin admin = ledger.admin();

  @Test
  void retryingADeadEventMakesItPendingNowWithAttemptsResetAndItsLastErrorKept() {
    ledger.row("stripe", "evt_1").status("dead").attempts(8).lastError("boom")
        .receivedAt(NOW.minus(Duration.ofDays(1))).settledAt(DIED).lease("w1", DIED).insert();

    Instant before = ledger.databaseNow();
    admin.retry("stripe", "", "evt_1");

    EventSummary e = admin.show("stripe", "", "evt_1").orElseThrow().summary();
    assertEquals(EventStatus.PENDING, e.status());
    assertEquals(0, e.attempts());
    ledger.assertDatabaseTimeSince(before, e.availableAt()); // due at once, by the database's clock
    assertEquals("boom", e.lastError().orElseThrow());
    assertTrue(e.settledAt().isEmpty());
    assertTrue(admin.show("stripe", "", "evt_1").orElseThrow().leaseOwner().isEmpty());
  }

  @Test
  void retryDeadRetriesEveryDeadEventAndNothingElse() {
    ledger.row("stripe", "evt_1").status("dead").attempts(8).insert();
    ledger.row("github", "g_1").scope("hook").status("dead").attempts(8).insert();
    ledger.row("stripe", "evt_2").status("done").settledAt(DIED).insert();
    ledger.row("stripe", "evt_3").status("processing").attempts(2).insert();

    assertEquals(2, admin.retryDead());

    assertEquals("pending", ledger.statusOf("stripe", "", "evt_1"));
    assertEquals("pending", ledger.statusOf("github", "hook", "g_1"));
    assertEquals("done", ledger.statusOf("stripe", "", "evt_2"));
    assertEquals("processing", ledger.statusOf("stripe", "", "evt_3"));
    assertEquals(0, admin.retryDead());
  }

  @Test
  void retryingAFailingEventBackingOffMakesItDueNowAndKeepsItsAttempts() {
    Instant nextHour = ledger.databaseNow().plus(Duration.ofHours(1));
    ledger.row("stripe", "evt_failing").status("pending").attempts(3).lastError("boom").availableAt(nextHour).insert();

    Instant before = ledger.databaseNow();
    admin.retry("stripe", "", "evt_failing");

    EventSummary e = admin.show("stripe", "", "evt_failing").orElseThrow().summary();
    assertEquals(EventStatus.PENDING, e.status());
    assertEquals(3, e.attempts(), "the retry budget goes on: attempt 4 of 12 is next");
    ledger.assertDatabaseTimeSince(before, e.availableAt());
    assertEquals("boom", e.lastError().orElseThrow());
    assertTrue(e.failing());
  }

  /**
   * On a ledger whose statistics were taken while nothing was dead or waiting (any ledger analysed
   * while idle), a retry that also tested the status in its statement could be planned on the partial
   * index of dead (or waiting) rows with the key as a filter, reading every one of them per retry:
   * the plan the lease fence fell into. Each statement a retry sends finds the row by its key.
   */
  @Test
  void retryingOneEventFindsItByItsKeyNotByTheDeadOrWaitingIndex() {
    ledger.sql.execute("insert into hookledger.event (provider, event_id, type, body, status, settled_at)"
        + " select 'stripe', 'evt_done_' || i, 'invoice.paid', '\\x7b7d', 'done', now() from generate_series(1, 20000) i");
    ledger.sql.execute("analyze hookledger.event"); // a statement of its own: Citus runs no other beside a local write
    Instant nextHour = ledger.databaseNow().plus(Duration.ofHours(1));
    for (int i = 0; i < 20; i++) {
      ledger.row("stripe", "evt_dead_" + i).status("dead").attempts(8).insert();
      ledger.row("stripe", "evt_failing_" + i).status("pending").attempts(3).availableAt(nextHour).insert();
    }
    StatementRecorder recorder = new StatementRecorder(ledger.database.dataSource());
    InboxAdmin recorded = InboxAdmin.builder(recorder.dataSource()).schema(ledger.schema).clock(LedgerFixture.CLOCK).build();

    recorded.retry("stripe", "", "evt_dead_3");
    recorded.retry("stripe", "", "evt_failing_3");

    assertEquals("pending", ledger.statusOf("stripe", "", "evt_dead_3"));
    assertTrue(admin.show("stripe", "", "evt_failing_3").orElseThrow().summary().availableAt()
        .isBefore(nextHour), "made due now");
    List<String> keyed = recorder.drain().stream().filter(sql -> sql.contains("\"event_id\" =")).toList();
    assertTrue(keyed.size() >= 2, "both retries' statements recorded: " + keyed);
    StatementRecorder.assertEachFindsTheRowByItsKey(ledger.sql, keyed, "event_waiting_idx", "event_dead_idx");
  }

  @Test
  void retryDeadBoundToTheConfirmedCountRetriesAllOrNothing() {
    for (int i = 0; i < 3; i++) {
      ledger.row("stripe", "evt_" + i).status("dead").attempts(12).insert();
    }

    OperationRefusedException stale = assertThrows(OperationRefusedException.class, () -> admin.retryDead(2));
    assertEquals("there are 3 dead events now, not the 2 confirmed: nothing was retried; look again and confirm 3",
        stale.getMessage());
    assertEquals(3, admin.backlog().dead());

    assertEquals(3, admin.retryDead(3));
    assertEquals(0, admin.backlog().dead());
    assertEquals(0, admin.retryDead(0));
  }

  @Test
  void refusesToRetryAnEventThatIsNotDeadAndChangesNothing() {
    ledger.row("stripe", "evt_done").status("done").attempts(1).settledAt(DIED).insert();
    ledger.row("github", "g_1").scope("hook-7").status("pending").attempts(3).insert();
    ledger.row("github", "g_2").scope("hook-7").status("processing").attempts(1)
        .lease("w1", ledger.databaseNow().plus(Duration.ofMinutes(1))).insert();

    OperationRefusedException done = assertThrows(OperationRefusedException.class,
        () -> admin.retry("stripe", "", "evt_done"));
    assertEquals("stripe event evt_done is done, not dead: only dead and failing events are retried"
        + " (pass --force to run a settled event's handlers again)", done.getMessage());
    OperationRefusedException pending = assertThrows(OperationRefusedException.class,
        () -> admin.retry("github", "hook-7", "g_1", true));
    assertEquals("github event g_1 (scope hook-7) is pending and due already: it is waiting for a worker",
        pending.getMessage());
    OperationRefusedException processing = assertThrows(OperationRefusedException.class,
        () -> admin.retry("github", "hook-7", "g_2"));
    assertEquals("github event g_2 (scope hook-7) is processing: a worker is running an attempt now",
        processing.getMessage());
    OperationRefusedException missing = assertThrows(OperationRefusedException.class,
        () -> admin.retry("stripe", "", "evt_nope"));
    assertEquals("stripe event evt_nope is not in the ledger", missing.getMessage());
    OperationRefusedException unscoped = assertThrows(OperationRefusedException.class,
        () -> admin.retry("github", "", "g_1"));
    assertEquals("github event g_1 is not in the ledger; found under scope hook-7: add --scope hook-7",
        unscoped.getMessage());
    OperationRefusedException shown = assertThrows(OperationRefusedException.class,
        () -> admin.showExisting("github", "hook-8", "g_1"));
    assertEquals("github event g_1 (scope hook-8) is not in the ledger; found under scope hook-7: add --scope hook-7",
        shown.getMessage());

    EventSummary unchanged = admin.show("stripe", "", "evt_done").orElseThrow().summary();
    assertEquals(EventStatus.DONE, unchanged.status());
    assertEquals(1, unchanged.attempts());
    assertEquals(DIED, unchanged.settledAt().orElseThrow());
    assertEquals(3, admin.show("github", "hook-7", "g_1").orElseThrow().summary().attempts());
  }

  @Test
  void forceRetriesASettledEvent() {
    ledger.row("stripe", "evt_ignored").status("ignored").settledAt(DIED).insert();

    admin.retry("stripe", "", "evt_ignored", true);

    assertEquals("pending", ledger.statusOf("stripe", "", "evt_ignored"));
  }
}
