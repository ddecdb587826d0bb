package dev.hookledger.runtime.admin;

import static dev.hookledger.runtime.admin.LedgerFixture.NOW;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hookledger.spi.ListedEvent;
import dev.hookledger.spi.ListedEvent.Delivery;
import dev.hookledger.spi.ReplayReport;
import dev.hookledger.spi.ReplaySink;
import dev.hookledger.spi.ReplaySource;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Reconcile compares a provider's list for a window with the ledger and reports exactly the gaps
 * planted in either direction and the status that differs, writing nothing.
 */
class ReconcileTest {
  private static final Instant SINCE = NOW.minus(Duration.ofHours(2));
  private static final Instant UNTIL = NOW;

  private final LedgerFixture ledger = new LedgerFixture();
  private final InboxAdmin admin = ledger.admin();

  @Test
  void reportsExactlyThePlantedGapsInBothDirectionsAndTheStatusThatDiffers() {
    Instant in = NOW.minus(Duration.ofHours(1));
    for (int i = 0; i < 20; i++) {
      ledger.row("github", "guid-" + i).scope("hook-7").type("issues.opened").status("done").receivedAt(in)
          .settledAt(in).insert();
    }
    // planted: the provider delivered guid-20 and the ledger lacks it; the ledger has guid-local that
    // the provider does not list; the provider shows guid-3's delivery failed though the ledger accepted it
    ledger.row("github", "guid-local").scope("hook-7").type("issues.opened").status("done").receivedAt(in).insert();
    // outside: another hook's event in the window, and this hook's event before it, are not the provider's list
    ledger.row("github", "guid-other-hook").scope("hook-9").type("issues.opened").status("done").receivedAt(in)
        .insert();
    ledger.row("github", "guid-old").scope("hook-7").type("issues.opened").status("done")
        .receivedAt(SINCE.minusSeconds(60)).insert();
    long before = ledger.count();

    List<ListedEvent> listed = new java.util.ArrayList<>();
    for (int i = 0; i <= 20; i++) {
      listed.add(new ListedEvent("hook-7", "guid-" + i, "issues.opened", in,
          i == 3 ? Delivery.FAILED : Delivery.DELIVERED, i == 3 ? "HTTP 502" : "HTTP 200"));
    }
    ReconcileReport r = admin.reconcile(new ListingSource(listed), SINCE, UNTIL);

    assertEquals(21, r.listed());
    assertEquals(21, r.ledger());
    assertEquals(List.of(new ReconcileReport.Entry("hook-7", "guid-20", "issues.opened", "delivered", "HTTP 200", null)),
        r.missing());
    assertEquals(List.of(new ReconcileReport.Entry("hook-7", "guid-local", "issues.opened", null, null, "done")),
        r.unlisted());
    assertEquals(List.of(new ReconcileReport.Entry("hook-7", "guid-3", "issues.opened", "failed", "HTTP 502", "done")),
        r.differing());
    assertEquals(before, ledger.count(), "nothing written");
  }

  @Test
  void aWindowWithMoreEventsThanTheBoundOnEitherSideIsRefusedRatherThanReadWhole() {
    Instant in = NOW.minus(Duration.ofHours(1));
    for (int i = 0; i < 3; i++) {
      ledger.row("github", "guid-" + i).scope("hook-7").type("issues.opened").status("done").receivedAt(in).insert();
    }
    List<ListedEvent> three = new java.util.ArrayList<>();
    for (int i = 0; i < 3; i++) {
      three.add(new ListedEvent("hook-7", "guid-" + i, "issues.opened", in, Delivery.DELIVERED, "HTTP 200"));
    }
    Reconciler bounded = new Reconciler(new dev.hookledger.runtime.internal.ledger.EventTable("hookledger"), 2);

    assertEquals("the provider lists more than 2 github events from " + SINCE + " to " + UNTIL
        + ": reconcile shorter windows", assertThrows(IllegalArgumentException.class,
            () -> bounded.reconcile(ledger.sql, "github", SINCE, UNTIL, three)).getMessage());
    assertEquals("the ledger holds more than 2 github events from " + SINCE + " to " + UNTIL
        + ": reconcile shorter windows", assertThrows(IllegalArgumentException.class,
            () -> bounded.reconcile(ledger.sql, "github", SINCE, UNTIL, three.subList(0, 2))).getMessage());
    // at the bound, the report is made
    assertEquals(1, new Reconciler(new dev.hookledger.runtime.internal.ledger.EventTable("hookledger"), 3)
        .reconcile(ledger.sql, "github", SINCE, UNTIL, three.subList(0, 2)).unlisted().size());
  }

  @Test
  void anEventTheLedgerHoldsDeadIsAStatusDifferenceAndAgreementIsSaid() {
    Instant in = NOW.minus(Duration.ofHours(1));
    ledger.row("stripe", "evt_1").type("invoice.paid").status("done").receivedAt(in).insert();
    ledger.row("stripe", "evt_2").type("invoice.paid").status("dead").receivedAt(in).insert();
    ReconcileReport r = admin.reconcile(new ListingSource(List.of(
        new ListedEvent("", "evt_1", "invoice.paid", in, Delivery.DELIVERED, "pending_webhooks=0"),
        new ListedEvent("", "evt_2", "invoice.paid", in, Delivery.DELIVERED, "pending_webhooks=0"))), SINCE, UNTIL);
    assertEquals(List.of(new ReconcileReport.Entry("", "evt_2", "invoice.paid", "delivered", "pending_webhooks=0",
        "dead")), r.differing());
    ledger.sql.execute("update hookledger.event set status = 'done' where event_id = 'evt_2'");
    assertTrue(admin.reconcile(new ListingSource(List.of(
        new ListedEvent("", "evt_1", "invoice.paid", in, Delivery.DELIVERED, "pending_webhooks=0"),
        new ListedEvent("", "evt_2", "invoice.paid", in, Delivery.DELIVERED, "pending_webhooks=0"))), SINCE, UNTIL)
        .agrees());
  }

  /** A provider whose API lists exactly {@code listed} (what the WireMock tests of each provider prove of the real ones). */
  record ListingSource(List<ListedEvent> listed) implements ReplaySource {
    @Override
    public String provider() {
      return listed.isEmpty() ? "stripe" : listed.get(0).scope().startsWith("hook") ? "github" : "stripe";
    }

    @Override
    public ReplayReport replay(Instant since, Optional<String> typeFilter, ReplaySink sink) {
      throw new AssertionError("reconcile must not replay");
    }

    @Override
    public List<ListedEvent> list(Instant since, Instant until) {
      return listed;
    }
  }
}
