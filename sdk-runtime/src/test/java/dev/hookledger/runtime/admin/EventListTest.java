package dev.hookledger.runtime.admin;

import static dev.hookledger.runtime.admin.LedgerFixture.NOW;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hookledger.runtime.EventStatus;
import dev.hookledger.runtime.internal.ledger.StatusColumn;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class EventListTest {
  private final LedgerFixture ledger = new LedgerFixture();
  private final InboxAdmin admin = ledger.admin();

  @Test
  void pagesNewestFirstWithoutGapsOrRepeats() {
    for (int i = 1; i <= 7; i++) {
      ledger.row("stripe", "evt_" + i).receivedAt(NOW.minus(Duration.ofMinutes(10 - i))).insert();
    }
    EventPage page = admin.list(EventQuery.builder().limit(3).build());
    assertEquals(List.of("evt_7", "evt_6", "evt_5"), ids(page));
    // an event arriving between pages does not shift the next page
    ledger.row("stripe", "evt_new").insert();
    page = admin.list(EventQuery.builder().limit(3).after(page.nextCursor().orElseThrow()).build());
    assertEquals(List.of("evt_4", "evt_3", "evt_2"), ids(page));
    page = admin.list(EventQuery.builder().limit(3).after(page.nextCursor().orElseThrow()).build());
    assertEquals(List.of("evt_1"), ids(page));
    assertTrue(page.nextCursor().isEmpty());
  }

  @Test
  void findsAnEventByItsIdOrItsDeliveryIdUnderAnyProviderAndScope() {
    ledger.row("stripe", "evt_wanted").status("dead").insert();
    ledger.row("github", "evt_wanted").scope("hook-9").insert();
    ledger.row("github", "guid-other").scope("hook-9").insert();
    ledger.sql.execute("update hookledger.event set delivery_id = 'dlv-42' where event_id = 'guid-other'");
    ledger.row("stripe", "evt_unrelated").insert();

    assertEquals(List.of("github/evt_wanted", "stripe/evt_wanted"), admin.list(EventQuery.builder().id("evt_wanted")
        .build()).events().stream().map(e -> e.provider() + "/" + e.eventId()).sorted().toList());
    assertEquals(List.of("guid-other"), ids(admin.list(EventQuery.builder().id("dlv-42").build())));
    assertEquals(List.of(), ids(admin.list(EventQuery.builder().id("evt_want").build())), "exact, no prefix");
    assertEquals(List.of("evt_wanted"), ids(admin.list(EventQuery.builder().id("evt_wanted")
        .status(StatusFilter.DEAD).build())), "with the other filters");
    IllegalArgumentException blank = assertThrows(IllegalArgumentException.class,
        () -> EventQuery.builder().id(" "));
    assertEquals("id must not be blank; pass null for any id", blank.getMessage());
  }

  @Test
  void rowsReceivedAtTheSameInstantArePagedByKey() {
    for (String id : List.of("a", "b", "c", "d")) {
      ledger.row("github", id).scope("hook-1").insert();
    }
    EventPage first = admin.list(EventQuery.builder().limit(2).build());
    EventPage second = admin.list(EventQuery.builder().limit(2).after(first.nextCursor().orElseThrow()).build());

    assertEquals(List.of("d", "c"), ids(first));
    assertEquals(List.of("b", "a"), ids(second));
    assertTrue(second.nextCursor().isEmpty(), "exactly a full last page has no next cursor");
  }

  @Test
  void filtersByStatusProviderAndType() {
    ledger.row("stripe", "evt_dead").status("dead").type("invoice.paid").lastError("boom").insert();
    ledger.row("stripe", "evt_done").status("done").type("invoice.paid").settledAt(NOW).insert();
    ledger.row("stripe", "evt_other").status("dead").type("charge.failed").insert();
    ledger.row("github", "g_dead").status("dead").type("invoice.paid").insert();

    EventPage page = admin.list(EventQuery.builder().status(EventStatus.DEAD).provider("stripe").type("invoice.paid").build());

    assertEquals(List.of("evt_dead"), ids(page));
    EventSummary e = page.events().get(0);
    assertEquals(EventStatus.DEAD, e.status());
    assertEquals("boom", e.lastError().orElseThrow());
    // received at the same instant: ordered by provider, scope, event id, all descending
    assertEquals(List.of("evt_other", "evt_dead", "g_dead"),
        ids(admin.list(EventQuery.builder().status(EventStatus.DEAD).build())));
  }

  @Test
  void badQueryValuesAreNamed() {
    // a status is typed; a name typed by a person (list --status) is read by the ledger's spelling
    assertEquals("status must be one of pending, processing, done, ignored, stale, dead, but was 'failed'",
        assertThrows(IllegalArgumentException.class, () -> StatusColumn.parse("failed")).getMessage());
    assertEquals(EventStatus.DEAD, StatusColumn.parse("dead"));
    assertEquals("limit must be between 1 and 1000, but was 0",
        assertThrows(IllegalArgumentException.class, () -> EventQuery.builder().limit(0)).getMessage());
    assertEquals("cursor is not one that a list page returned: 'nonsense'",
        assertThrows(IllegalArgumentException.class, () -> EventQuery.builder().after("nonsense")).getMessage());
  }

  @Test
  void filtersByGroupsWaitingFailingAndStuckAndByTypePattern() {
    java.time.Instant later = ledger.databaseNow().plus(Duration.ofHours(1));
    java.time.Instant soon = ledger.databaseNow().plus(Duration.ofMinutes(5));
    ledger.row("stripe", "evt_new").status("pending").type("invoice.paid").availableAt(later).insert();
    ledger.row("stripe", "evt_failing").status("pending").type("invoice.payment_failed").attempts(2)
        .lastError("x\njava.lang.IllegalStateException: card declined\n\tat a.B.c(B.java:1)").availableAt(later).insert();
    ledger.row("stripe", "evt_running").status("processing").type("charge.refunded").attempts(3).lastError("y")
        .lease("w1", soon).availableAt(soon).insert();
    ledger.row("stripe", "evt_stuck").status("processing").type("invoicex").attempts(1).lease("gone", NOW).insert();
    ledger.row("stripe", "evt_dead").status("dead").type("invoice.paid").attempts(12).lastError("z").insert();

    assertEquals(List.of("evt_stuck", "evt_running", "evt_new", "evt_failing"),
        ids(admin.list(EventQuery.builder().status(StatusFilter.WAITING).build())));
    EventPage failing = admin.list(EventQuery.builder().status(StatusFilter.parse("FAILING")).build());
    assertEquals(List.of("evt_running", "evt_failing"), ids(failing));
    EventSummary f = failing.events().get(1);
    assertTrue(f.failing());
    assertEquals(2, f.attempts());
    assertEquals(12, f.maxAttempts());
    assertEquals(later, f.nextAttemptAt().orElseThrow());
    assertEquals("IllegalStateException: card declined", f.rootCause().orElseThrow());
    EventPage stuck = admin.list(EventQuery.builder().status(StatusFilter.STUCK).build());
    assertEquals(List.of("evt_stuck"), ids(stuck));
    assertTrue(stuck.events().get(0).stuck());
    assertTrue(!stuck.events().get(0).failing(), "a first attempt whose lease ran out is stuck, not failing");

    assertEquals(List.of("evt_new", "evt_failing", "evt_dead"),
        ids(admin.list(EventQuery.builder().type("invoice.*").build())));
    assertEquals(5, admin.list(EventQuery.builder().type("*").build()).events().size());
    assertEquals(List.of("evt_running"), ids(admin.list(EventQuery.builder().type("charge.refunded").build())));
    IllegalArgumentException bad = assertThrows(IllegalArgumentException.class,
        () -> EventQuery.builder().type("invoice.*.paid"));
    assertEquals("bad event type pattern 'invoice.*.paid' ('*' may only end a pattern, as in \"invoice.*\","
        + " or stand alone as \"*\")", bad.getMessage());
    IllegalArgumentException status = assertThrows(IllegalArgumentException.class, () -> StatusFilter.parse("lost"));
    assertEquals("status must be one of pending, processing, done, ignored, stale, dead, waiting, failing, stuck,"
        + " but was 'lost'", status.getMessage());

    InboxStatus s = admin.status();
    assertEquals(2, s.failing());
    assertEquals(1, s.stuck());
    assertEquals(4, s.waiting());
  }

  private static List<String> ids(EventPage page) {
    return page.events().stream().map(EventSummary::eventId).toList();
  }
}
