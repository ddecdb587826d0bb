package dev.hookledger.runtime.inbox;

import static dev.hookledger.runtime.inbox.InboxFixture.SIGNER;
import static dev.hookledger.runtime.inbox.InboxFixture.event;
import static dev.hookledger.runtime.inbox.InboxFixture.number;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hookledger.LedgerUnavailableException;
import dev.hookledger.runtime.WebhookRuntime;
import dev.hookledger.runtime.testing.Await;
import dev.hookledger.runtime.testing.LedgerRows;
import dev.hookledger.runtime.testing.TestDatabase;
import dev.hookledger.runtime.testing.TestHttp;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/**
 * Several runtimes, in this JVM and in another process, share one ledger: each event's effect
 * happens once, whoever receives it, whoever retries it, and whoever dies while holding it.
 */
class MultiNodeProcessingTest {
  static final int EVENTS = 200;

  @Test
  void twoHundredEventsSharedByFourRuntimesInTwoProcessesAreEachProcessedExactlyOnce() throws Exception {
    TestDatabase.Database db = InboxFixture.database();
    try (NodeProcess d = NodeProcess.start(db.jdbcUrl(), "D", false);
        WebhookRuntime a = node(db, "A"); WebhookRuntime b = node(db, "B"); WebhookRuntime c = node(db, "C")) {
      List<WebhookRuntime> local = List.of(a, b, c);
      ExecutorService clients = Executors.newFixedThreadPool(8);
      try {
        List<Future<?>> sent = new ArrayList<>();
        for (int i = 0; i < EVENTS; i++) {
          int n = i;
          // every fifth event fails its first attempt: its retry is claimed by whichever runtime polls first
          String body = "{\"failFirst\":" + (n % 5 == 0) + "}";
          String id = String.format("evt_%03d", n);
          sent.add(clients.submit((Callable<Void>) () -> asAProviderWould(() -> {
            if (n % 4 == 3) {
              assertEquals("accepted\n", TestHttp.send(SIGNER.request(d.webhookUri(), id, "job.count", body)).body());
            } else {
              InboxFixture.receive(local.get(n % 4), id, "job.count", body);
            }
            return null;
          })));
        }
        for (Future<?> f : sent) {
          f.get();
        }
      } finally {
        clients.shutdownNow();
      }
      Await.until("all events are done", () -> number(db, "select count(*) from hookledger.event where status = 'done'") == EVENTS);
    }

    assertEquals(EVENTS, number(db, "select count(*) from effect_count"));
    assertEquals(0, number(db, "select count(*) from effect_count where n <> 1"), "an effect happened twice");
    // invariants, not counts that depend on timing: on a loaded machine a lease can run out
    // mid-handler and be taken over (one more attempt, the effect still once), so "exactly two
    // attempts" was 39 of 40 once in CI
    assertEquals(0, number(db, "select count(*) from hookledger.event where attempts < 1"), "every event was attempted");
    assertEquals(0, number(db, "select count(*) from hookledger.event where attempts < 2"
        + " and right(event_id, 3)::int % 5 = 0"), "every event that fails its first attempt was attempted again");
    assertEquals(0, number(db, "select count(*) from hookledger.event where lease_owner is not null or last_error is not null"));
    assertEquals("A,B,C,D", LedgerRows.first(db.dataSource(), "select string_agg(distinct processed_by, ','"
        + " order by processed_by) as nodes from effect_count").orElseThrow().get("nodes"),
        "every runtime, the other process's too, did part of the work");
  }

  @Test
  void eventOfAProcessKilledMidHandlerIsTakenOverWhenItsLeaseRunsOutAndItsEffectHappensOnce() throws Exception {
    TestDatabase.Database db = InboxFixture.database();
    try (NodeProcess d = NodeProcess.start(db.jdbcUrl(), "D", true)) {
      assertEquals("accepted\n", TestHttp.send(SIGNER.request(d.webhookUri(), "evt_crash", "job.hang", "{}")).body());
      d.awaitLine("started job.hang"); // its effect is written, not committed
      try (WebhookRuntime a = node(db, "A")) {
        d.kill();
        Map<String, Object> held = event(db, "evt_crash");
        String owner = (String) held.get("lease_owner");
        // D held it mid-handler; on a loaded machine (load average 29 in CI once) D's heartbeat can miss its
        // lease before the kill, and A has then taken the event over already: held by A, or done. Either
        // way the effect is once and A's, as checked below
        boolean heldByD = owner != null && owner.contains("/" + d.pid() + "/") && "processing".equals(held.get("status"));
        boolean takenByA = owner == null ? "done".equals(held.get("status"))
            : owner.contains("/" + ProcessHandle.current().pid() + "/");
        assertTrue(heldByD || takenByA, held.toString());

        InboxFixture.awaitStatus(db, "evt_crash", "done");
      }
    }
    assertEquals(1, number(db, "select n from effect_count where event_id = 'evt_crash'"));
    assertEquals("A", LedgerRows.first(db.dataSource(), "select processed_by from effect_count").orElseThrow()
        .get("processed_by"));
    assertTrue((Integer) event(db, "evt_crash").get("attempts") >= 2, "the killed attempt, then the takeover");
  }

  /**
   * Sends a delivery; on Citus, one the runtime answered 503 is sent again, as a provider redelivers it.
   * There, on a loaded machine, the pools of the four runtimes just started were still opening their
   * connections (each a coordinator session that opens its own to the workers) when the 200 deliveries
   * came: a receive waited past the pool's 3 s for one and was answered 503, as designed. On plain
   * PostgreSQL every delivery must be accepted the first time.
   */
  private static Void asAProviderWould(Callable<Void> delivery) throws Exception {
    for (int sent = 1; ; sent++) {
      try {
        return delivery.call();
      } catch (LedgerUnavailableException | AssertionError e) {
        if (!TestDatabase.citus() || sent == 5) {
          throw e;
        }
        Thread.sleep(1_000);
      }
    }
  }

  private static WebhookRuntime node(TestDatabase.Database db, String name) {
    WebhookRuntime runtime = InboxFixture.node(db.jdbcUrl(), new CountingHandler(name, null)).build();
    runtime.start();
    return runtime;
  }
}
