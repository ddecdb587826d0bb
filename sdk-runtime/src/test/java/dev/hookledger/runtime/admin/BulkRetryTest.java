package dev.hookledger.runtime.admin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hookledger.runtime.EventStatus;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Bulk retries through {@link InboxAdmin}: a selection, its count shown, the same count confirmed. */
class BulkRetryTest {
  private static final String GONE = "java.lang.IllegalStateException: relation sample.balance does not exist\n"
      + "\tat com.acme.Billing.paid(Billing.java:12)\n";
  private static final String DECLINED = "com.acme.CardDeclined: card declined\n\tat com.acme.Billing.paid(Billing.java:9)\n";

  private final LedgerFixture ledger = new LedgerFixture();
  private final InboxAdmin admin = ledger.admin();
  private final Instant nextHour = ledger.databaseNow().plus(Duration.ofHours(1));

  @Test
  void retryingTheFailingEventsOfOneCauseMakesThemDueNowAndLeavesEveryOtherEventAlone() {
    ledger.row("stripe", "evt_1").attempts(3).lastError(GONE).availableAt(nextHour).insert();
    ledger.row("stripe", "evt_2").attempts(1).lastError(GONE).availableAt(nextHour).insert();
    ledger.row("github", "g_1").scope("hook").attempts(2).lastError(GONE).availableAt(nextHour).insert();
    ledger.row("stripe", "evt_other").attempts(2).lastError(DECLINED).availableAt(nextHour).insert();
    ledger.row("stripe", "evt_dead").status("dead").attempts(12).lastError(GONE).insert();
    RetrySelection gone = RetrySelection.failing().cause("IllegalStateException: relation sample.balance does not exist");

    assertEquals(3, admin.retryCount(gone));
    Instant before = ledger.databaseNow();
    assertEquals(3, admin.retry(gone, 3));

    for (String[] key : new String[][] {{"stripe", "", "evt_1"}, {"stripe", "", "evt_2"}, {"github", "hook", "g_1"}}) {
      EventSummary e = admin.show(key[0], key[1], key[2]).orElseThrow().summary();
      assertEquals(EventStatus.PENDING, e.status());
      ledger.assertDatabaseTimeSince(before, e.availableAt());
      assertTrue(e.attempts() > 0, "the budget goes on: " + e);
    }
    assertEquals(nextHour, admin.show("stripe", "", "evt_other").orElseThrow().summary().availableAt());
    assertEquals("dead", ledger.statusOf("stripe", "", "evt_dead"));
    assertEquals(0, admin.retryCount(gone), "due now: no longer backing off");
  }

  @Test
  void retryingTheDeadEventsOfAProviderAndTypePatternResetsTheirBudget() {
    ledger.row("stripe", "evt_paid").type("invoice.paid").status("dead").attempts(12).lastError(GONE).insert();
    ledger.row("stripe", "evt_failed").type("invoice.payment_failed").status("dead").attempts(12).lastError(GONE).insert();
    ledger.row("stripe", "evt_customer").type("customer.created").status("dead").attempts(12).lastError(GONE).insert();
    ledger.row("github", "g_invoice").type("invoice.paid").status("dead").attempts(12).lastError(GONE).insert();
    ledger.row("stripe", "evt_failing").type("invoice.paid").attempts(2).lastError(GONE).availableAt(nextHour).insert();
    RetrySelection invoices = RetrySelection.dead().provider("stripe").type("invoice.*");

    assertEquals(2, admin.retryCount(invoices));
    assertEquals(2, admin.retry(invoices, 2));

    EventSummary paid = admin.show("stripe", "", "evt_paid").orElseThrow().summary();
    assertEquals(EventStatus.PENDING, paid.status());
    assertEquals(0, paid.attempts());
    assertEquals("pending", ledger.statusOf("stripe", "", "evt_failed"));
    assertEquals("dead", ledger.statusOf("stripe", "", "evt_customer"));
    assertEquals("dead", ledger.statusOf("github", "", "g_invoice"));
    assertEquals(nextHour, admin.show("stripe", "", "evt_failing").orElseThrow().summary().availableAt());
  }

  @Test
  void aConfirmationOfAnotherCountRetriesNothingAndSaysTheCountNow() {
    ledger.row("stripe", "evt_1").status("dead").attempts(12).lastError(GONE).insert();
    ledger.row("stripe", "evt_2").status("dead").attempts(12).lastError(GONE).insert();
    RetrySelection stripe = RetrySelection.dead().provider("stripe");

    OperationRefusedException e = assertThrows(OperationRefusedException.class, () -> admin.retry(stripe, 1));

    assertEquals("there are 2 dead events of provider stripe now, not the 1 confirmed: nothing was retried;"
        + " look again and confirm 2", e.getMessage());
    assertEquals("dead", ledger.statusOf("stripe", "", "evt_1"));
    assertEquals("dead", ledger.statusOf("stripe", "", "evt_2"));
  }

  @Test
  void anEventAWorkerClaimsMeanwhileIsNotRetriedAndTheCountNoLongerHolds() throws Exception {
    ledger.row("stripe", "evt_1").attempts(2).lastError(GONE).availableAt(nextHour).insert();
    ledger.row("stripe", "evt_2").attempts(2).lastError(GONE).availableAt(nextHour).insert();
    RetrySelection failing = RetrySelection.failing();
    long shown = admin.retryCount(failing);

    // a worker's claim holds evt_1's row (as its lease transaction does) when the operator confirms
    try (Connection worker = ledger.database.dataSource().getConnection(); Statement st = worker.createStatement()) {
      worker.setAutoCommit(false);
      st.executeUpdate("update hookledger.event set status = 'processing', attempts = attempts + 1,"
          + " available_at = now() + interval '5 minutes' where event_id = 'evt_1'");
      CompletableFuture<Integer> retry = CompletableFuture.supplyAsync(() -> admin.retry(failing, shown));
      worker.commit();

      ExecutionException refused = assertThrows(ExecutionException.class, () -> retry.get(30, TimeUnit.SECONDS));
      assertTrue(refused.getCause() instanceof OperationRefusedException, refused.toString());
      assertEquals("there are 1 failing events now, not the 2 confirmed: nothing was retried; look again and confirm 1",
          refused.getCause().getMessage());
    }
    assertEquals("processing", ledger.statusOf("stripe", "", "evt_1"));
    assertEquals(nextHour, admin.show("stripe", "", "evt_2").orElseThrow().summary().availableAt(),
        "nothing was retried: the confirmation covered an event a worker took");
  }

  @Test
  void aSelectionIsValidatedWhenItIsMade() {
    IllegalArgumentException blank = assertThrows(IllegalArgumentException.class, () -> RetrySelection.dead().cause(" "));
    assertEquals("cause must not be blank; pass null for any cause", blank.getMessage());
    IllegalArgumentException group = assertThrows(IllegalArgumentException.class, () -> RetrySelection.Group.parse("done"));
    assertEquals("a bulk retry takes failing or dead events, but was 'done'", group.getMessage());
    assertEquals("failing events of provider stripe, type invoice.*, cause 'X: y'",
        RetrySelection.failing().provider("stripe").type("invoice.*").cause("X: y").toString());
  }
}
