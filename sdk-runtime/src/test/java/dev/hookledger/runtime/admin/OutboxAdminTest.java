package dev.hookledger.runtime.admin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hookledger.runtime.BreakerState;
import dev.hookledger.runtime.Destination;
import dev.hookledger.runtime.EffectStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The operator's side of the outbox through {@link InboxAdmin#outbox()}, on effect rows as senders leave them. */
class OutboxAdminTest {
  private static final String REFUSED = "HTTP 503 from https://mail.example.com: Service Unavailable";
  private static final String GONE = "java.net.ConnectException: Connection refused";

  private final LedgerFixture ledger = new LedgerFixture();
  private final EffectFixture effects = new EffectFixture(ledger);
  private final OutboxAdmin outbox = ledger.admin().outbox();
  private final Instant nextHour = ledger.databaseNow().plus(Duration.ofHours(1));

  @Test
  void destinationsCountWaitingAndDeadEffectsWithTheOldestWaitingAndTheSharedBreaker() {
    effects.effect("stripe", "evt_1", "receipts").createdAt(LedgerFixture.NOW.minusSeconds(90)).insert();
    effects.effect("stripe", "evt_2", "receipts").status("sending").createdAt(LedgerFixture.NOW.minusSeconds(30)).insert();
    effects.effect("stripe", "evt_3", "receipts").status("dead").attempts(16).lastError(REFUSED).insert();
    effects.effect("stripe", "evt_4", "receipts").status("done").attempts(1).insert();
    effects.effect("stripe", "evt_5", "chat").status("done").attempts(1).insert();
    effects.state("receipts", "open", 10, false);
    effects.state("chat", "closed", 0, true);

    List<DestinationStatus> d = outbox.destinations();

    assertEquals(2, d.size(), d.toString());
    DestinationStatus chat = d.get(0);
    assertEquals(new DestinationStatus("chat", 0, 0, 0, Duration.ZERO, BreakerState.CLOSED, 0, null, true, 0), chat);
    DestinationStatus receipts = d.get(1);
    assertEquals(new DestinationStatus("receipts", 1, 1, 1, Duration.ofSeconds(90), BreakerState.OPEN, 10,
        LedgerFixture.NOW, false, 0), receipts);
    assertEquals(2, receipts.waiting());
  }

  @Test
  void aDestinationTheRuntimeConfiguresIsListedWithItsRateBeforeItSends() {
    OutboxAdmin configured = InboxAdmin.builder(ledger.database.dataSource()).clock(LedgerFixture.CLOCK)
        .readTimeout(Duration.ofSeconds(30))
        .destinations(List.of(Destination.named("receipts").ratePerSecond(20))).build().outbox();

    assertEquals(List.of(new DestinationStatus("receipts", 0, 0, 0, Duration.ZERO, BreakerState.CLOSED, 0, null,
        false, 20)), configured.destinations());
  }

  @Test
  void listNarrowsByDestinationStatusAndRootCauseNewestFirst() {
    var older = effects.effect("stripe", "evt_1", "receipts").status("dead").attempts(16).lastStatusCode(503)
        .lastError(REFUSED).createdAt(LedgerFixture.NOW.minusSeconds(60)).insert();
    var newer = effects.effect("stripe", "evt_2", "receipts").status("dead").attempts(16).lastError(REFUSED).insert();
    effects.effect("stripe", "evt_3", "receipts").status("dead").attempts(16).lastError(GONE).insert();
    effects.effect("stripe", "evt_4", "chat").status("dead").attempts(16).lastError(REFUSED).insert();
    effects.effect("stripe", "evt_5", "receipts").lastError(REFUSED).insert();

    List<EffectSummary> listed = outbox.list(EffectQuery.all().destination("receipts").status(EffectStatus.DEAD)
        .cause(REFUSED));

    assertEquals(List.of(newer.key.toString(), older.key.toString()),
        listed.stream().map(EffectSummary::idempotencyKey).toList());
    EffectSummary e = listed.get(1);
    assertEquals("POST /v1/receipts", e.target());
    assertEquals(503, e.lastStatusCode());
    assertEquals(REFUSED, e.cause());
    assertEquals("evt_1", e.eventId());
    assertEquals(EffectStatus.DEAD, e.status());
    assertEquals(5, outbox.list(EffectQuery.all()).size());
    assertEquals(1, outbox.list(EffectQuery.all().limit(1)).size());
  }

  @Test
  void anEventsEffectsAreShownWithEveryAttemptOldestFirst() {
    var receipt = effects.effect("stripe", "evt_1", "receipts").name("receipt").status("done").attempts(2).insert();
    var chat = effects.effect("stripe", "evt_1", "chat").name("chat").insert();
    effects.effect("stripe", "evt_other", "receipts").insert();
    effects.attempt(receipt, 2, 200, "done", "{\"ok\":true}", null);
    effects.attempt(receipt, 1, 503, "retry", "unavailable", "HTTP 503");

    List<EffectDetail> shown = outbox.effectsOf("stripe", "", "evt_1");

    assertEquals(List.of(receipt.key.toString(), chat.key.toString()),
        shown.stream().map(d -> d.summary().idempotencyKey()).toList());
    List<EffectAttempt> attempts = shown.get(0).attempts();
    assertEquals(List.of(1, 2), attempts.stream().map(EffectAttempt::attempt).toList());
    assertEquals(new EffectAttempt(1, "node-a", LedgerFixture.NOW.plusSeconds(1), LedgerFixture.NOW.plusSeconds(1),
        Duration.ofMillis(12), 503, "retry", "unavailable", "HTTP 503"), attempts.get(0));
    assertEquals(List.of(), shown.get(1).attempts());
    assertEquals(List.of(), outbox.effectsOf("stripe", "", "evt_none"));
  }

  @Test
  void retryingADeadEffectSetsItBackToPendingWithAFullBudgetAndKeepsItsAttempts() {
    var dead = effects.effect("stripe", "evt_1", "receipts").status("dead").attempts(16).lastError(REFUSED).insert();
    effects.attempt(dead, 16, 503, "dead", "unavailable", REFUSED);

    outbox.retry("", dead.key.toString());

    EffectSummary e = outbox.effectsOf("stripe", "", "evt_1").get(0).summary();
    assertEquals(EffectStatus.PENDING, e.status());
    assertEquals(0, e.attempts());
    assertEquals(REFUSED, e.lastError(), "kept until the next attempt");
    assertNull(e.settledAt());
    assertEquals(1, effects.attempts(dead));
  }

  @Test
  void retryingAFailingEffectMakesItDueNowAndKeepsItsAttempts() {
    var failing = effects.effect("stripe", "evt_1", "receipts").attempts(3).lastError(GONE).availableAt(nextHour)
        .insert();
    Instant before = ledger.databaseNow();

    outbox.retry("", failing.key.toString());

    EffectSummary e = outbox.effectsOf("stripe", "", "evt_1").get(0).summary();
    assertEquals(3, e.attempts());
    ledger.assertDatabaseTimeSince(before, e.availableAt());
  }

  @Test
  void retryingAnEffectThatIsDoneSendingDueOrAbsentIsRefusedNamingWhy() {
    var done = effects.effect("stripe", "evt_1", "receipts").status("done").attempts(1).insert();
    var sending = effects.effect("stripe", "evt_2", "receipts").status("sending").attempts(1).insert();
    var due = effects.effect("stripe", "evt_3", "receipts").scope("acct_1").insert();

    assertEquals("effect " + done.key + " is done: its destination accepted it; only dead and failing effects are"
        + " retried", assertThrows(OperationRefusedException.class, () -> outbox.retry("", done.key.toString()))
        .getMessage());
    assertEquals("effect " + sending.key + " is sending: a node is making an attempt now",
        assertThrows(OperationRefusedException.class, () -> outbox.retry("", sending.key.toString())).getMessage());
    assertEquals("effect " + due.key + " (scope acct_1) is pending and due already: it is waiting for a sender",
        assertThrows(OperationRefusedException.class, () -> outbox.retry("acct_1", due.key.toString())).getMessage());
    assertEquals("the outbox has no effect " + due.key,
        assertThrows(OperationRefusedException.class, () -> outbox.retry("", due.key.toString())).getMessage());
    assertEquals("an effect's idempotency key is a UUID, but was 'evt_1'",
        assertThrows(IllegalArgumentException.class, () -> outbox.retry("", "evt_1")).getMessage());
    assertEquals("done", effects.statusOf(done));
  }

  @Test
  void bulkRetryTakesTheDeadEffectsOfOneDestinationAndCauseAtTheConfirmedCountOnly() {
    var a = effects.effect("stripe", "evt_1", "receipts").status("dead").attempts(16).lastError(REFUSED).insert();
    var b = effects.effect("stripe", "evt_2", "receipts").status("dead").attempts(16).lastError(REFUSED).insert();
    var other = effects.effect("stripe", "evt_3", "receipts").status("dead").attempts(16).lastError(GONE).insert();
    var chat = effects.effect("stripe", "evt_4", "chat").status("dead").attempts(16).lastError(REFUSED).insert();
    EffectSelection s = EffectSelection.dead().destination("receipts").cause(REFUSED);

    assertEquals(2, outbox.retryCount(s));
    OperationRefusedException refused = assertThrows(OperationRefusedException.class, () -> outbox.retry(s, 3));
    assertEquals("there are 2 dead effects of destination receipts, cause '" + REFUSED + "' now, not the 3"
        + " confirmed: nothing was retried; look again and confirm 2", refused.getMessage());
    assertEquals("dead", effects.statusOf(a));

    assertEquals(2, outbox.retry(s, 2));

    assertEquals("pending", effects.statusOf(a));
    assertEquals("pending", effects.statusOf(b));
    assertEquals("dead", effects.statusOf(other));
    assertEquals("dead", effects.statusOf(chat));
    assertEquals(0, outbox.retryCount(s));
  }

  @Test
  void bulkRetryOfFailingEffectsMakesThemDueNowAndLeavesDueOnesAlone() {
    var failing = effects.effect("stripe", "evt_1", "receipts").attempts(2).lastError(GONE).availableAt(nextHour)
        .insert();
    effects.effect("stripe", "evt_2", "receipts").insert();
    EffectSelection s = EffectSelection.failing();

    assertEquals(1, outbox.retryCount(s));
    assertEquals(1, outbox.retry(s, 1));

    assertTrue(outbox.effectsOf("stripe", "", "evt_1").get(0).summary().availableAt().isBefore(nextHour));
    assertEquals("pending", effects.statusOf(failing));
    assertEquals(0, outbox.retryCount(s));
  }

  @Test
  void pauseAndResumeADestinationForEveryNodeSayingWhetherTheyChangedIt() {
    effects.effect("stripe", "evt_1", "receipts").insert();

    assertTrue(outbox.pause("receipts"));
    assertFalse(outbox.pause("receipts"), "paused already");
    assertTrue(outbox.destinations().get(0).paused());
    assertTrue(outbox.resume("receipts"));
    assertFalse(outbox.resume("receipts"), "not paused");
    assertFalse(outbox.destinations().get(0).paused());
    assertEquals("destination name must be letters, digits and _ . : / + - (at most 200, starting with a letter"
        + " or digit), but was 'bad name'",
        assertThrows(IllegalArgumentException.class, () -> outbox.pause("bad name")).getMessage());
  }

  @Test
  void pausingOrResumingADestinationNobodyKnowsIsRefusedNamingTheKnownOnesAndChangesNothing() {
    effects.effect("stripe", "evt_1", "receipts").insert();
    OutboxAdmin configured = InboxAdmin.builder(ledger.database.dataSource()).clock(LedgerFixture.CLOCK)
        .readTimeout(Duration.ofSeconds(30)).destinations(List.of(Destination.named("crm"))).build().outbox();

    assertEquals("resume reciepts: no such destination (known: crm, receipts); nothing was changed",
        assertThrows(OperationRefusedException.class, () -> configured.resume("reciepts")).getMessage());
    assertEquals("pause reciepts: no such destination (known: crm, receipts); nothing was changed",
        assertThrows(OperationRefusedException.class, () -> configured.pause("reciepts")).getMessage());
    assertEquals("pause crm: no such destination (known: receipts); nothing was changed",
        assertThrows(OperationRefusedException.class, () -> outbox.pause("crm")).getMessage(),
        "crm is configured only where the other admin runs");
    assertEquals(0, stateRows());

    // known, never sent, never paused: resuming it is a no-op that writes no row
    assertFalse(configured.resume("crm"));
    assertFalse(configured.resume("receipts"));
    assertEquals(0, stateRows());
    // a configured destination can be paused before it sends anything
    assertTrue(configured.pause("crm"));
    assertEquals(1, stateRows());
  }

  private int stateRows() {
    return ledger.sql.fetchCount(org.jooq.impl.DSL.table(org.jooq.impl.DSL.name("hookledger", "destination_state")));
  }

  @Test
  void pruneRemovesAnEventsEffectsAndAttemptsWithItAndKeepsAnEventWhoseEffectIsStillOpen() {
    Instant old = LedgerFixture.NOW.minus(Duration.ofDays(40));
    ledger.row("stripe", "evt_sent").status("done").receivedAt(old).settledAt(old).insert();
    ledger.row("stripe", "evt_dead_effect").status("done").receivedAt(old).settledAt(old).insert();
    ledger.row("stripe", "evt_waiting_effect").status("done").receivedAt(old).settledAt(old).insert();
    var sent = effects.effect("stripe", "evt_sent", "receipts").status("done").attempts(1).insert();
    effects.attempt(sent, 1, 200, "done", "ok", null);
    var dead = effects.effect("stripe", "evt_dead_effect", "receipts").status("dead").attempts(16).insert();
    var waiting = effects.effect("stripe", "evt_waiting_effect", "receipts").insert();

    assertEquals(1, ledger.admin().prunePreview(Duration.ofDays(30), false).deleted());
    PruneReport report = ledger.admin().prune(Duration.ofDays(30), false);

    assertEquals(1, report.deleted());
    assertNull(ledger.statusOf("stripe", "", "evt_sent"));
    assertNull(effects.statusOf(sent));
    assertEquals(0, effects.attempts(sent));
    assertEquals("done", ledger.statusOf("stripe", "", "evt_dead_effect"));
    assertEquals("dead", effects.statusOf(dead));
    assertEquals("pending", effects.statusOf(waiting));
  }
}
