package dev.hookledger.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hookledger.OnEvent;
import dev.hookledger.Secrets;
import dev.hookledger.WebhookEvent;
import dev.hookledger.runtime.internal.ledger.WriterGate;
import dev.hookledger.runtime.testing.Await;
import dev.hookledger.runtime.testing.LedgerRows;
import dev.hookledger.runtime.testing.ServedRuntime;
import dev.hookledger.runtime.testing.TestDatabase;
import dev.hookledger.runtime.testing.TestHookAdapter;
import dev.hookledger.runtime.testing.TestHookSigner;
import dev.hookledger.runtime.testing.TestHttp;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The receive path's group commit through the filter, over HTTP: a batch that mixes providers,
 * handled and unhandled types and two copies of one event, and a full writer queue. The writer is
 * held at the gate so that the deliveries sent meanwhile share one batch.
 */
class GroupCommitReceiveTest {
  static final String SECRET = "batch-secret";
  static final TestHookSigner SIGNER = new TestHookSigner(SECRET);

  final TestDatabase.Database db = TestDatabase.create();
  final WriterGate gate = new WriterGate(db.dataSource());
  final List<String> handled = new CopyOnWriteArrayList<>();
  final List<String> settledIgnored = new CopyOnWriteArrayList<>();
  ServedRuntime served;

  @AfterEach
  void stop() throws Exception {
    gate.open();
    served.close();
  }

  @Test
  void aBatchMixingProvidersAndIgnoredTypesRecordsEachAsItsOwnAndRunsOnlyWhatIsHandled() throws Exception {
    served = ServedRuntime.serve(builder().receive(r -> r.ledgerWriters(1)));
    CompletableFuture<HttpResponse<String>> first = send("alpha", "evt_first", "order.paid");
    gate.awaitHeld();
    List<CompletableFuture<HttpResponse<String>>> batch = new ArrayList<>(List.of(
        send("alpha", "evt_a", "order.paid"),
        send("beta", "evt_b", "order.paid"),
        send("alpha", "evt_c", "customer.updated"),
        send("beta", "evt_d", "ping"),
        send("beta", "evt_b", "order.paid")));
    Await.until("five deliveries wait for the writer", () -> served.runtime().deliveriesWaitingForCommit() == 5);

    gate.open();

    assertEquals("accepted\n", first.get(10, TimeUnit.SECONDS).body());
    List<String> answers = new ArrayList<>();
    for (CompletableFuture<HttpResponse<String>> f : batch) {
      HttpResponse<String> r = f.get(10, TimeUnit.SECONDS);
      answers.add(r.statusCode() + " " + r.body().trim());
    }
    answers.sort(null);
    assertEquals(List.of("200 accepted", "200 accepted", "200 accepted", "200 accepted", "200 duplicate"), answers);
    Await.until("the handled events are done", () -> handled.size() == 3);
    for (String id : List.of("evt_first", "evt_a", "evt_b")) {
      awaitStatus(id, "done");
    }
    for (String id : List.of("evt_c", "evt_d")) {
      Map<String, Object> row = LedgerRows.event(db.dataSource(), "hookledger", id).orElseThrow();
      assertEquals("ignored", row.get("status"), id);
      assertEquals(0, ((Number) row.get("attempts")).intValue(), id + " was never claimed");
      assertNotNull(row.get("settled_at"), id);
    }
    assertEquals(1, ((Number) LedgerRows.event(db.dataSource(), "hookledger", "evt_b").orElseThrow()
        .get("duplicates")).intValue());
    assertEquals(List.of("evt_c", "evt_d"), settledIgnored.stream().sorted().toList(),
        "the listener hears ignored events as settled, at attempt 0");
    handled.sort(null);
    assertEquals(List.of("evt_a", "evt_b", "evt_first"), handled);
  }

  @Test
  void aFullWriterQueueIsAnswered503WithRetryAfterAtOnceAndRecordsNothing() throws Exception {
    served = ServedRuntime.serve(builder().receive(r -> r.ledgerWriters(1).queueCapacity(1)));
    CompletableFuture<HttpResponse<String>> first = send("alpha", "evt_1", "order.paid");
    gate.awaitHeld();
    CompletableFuture<HttpResponse<String>> queued = send("alpha", "evt_2", "order.paid");
    Await.until("the queue is full", () -> served.runtime().deliveriesWaitingForCommit() == 1);

    long start = System.nanoTime();
    HttpResponse<String> refused = TestHttp.send(SIGNER.request(served.uri("/webhooks/alpha"), "evt_3", "order.paid", "{}"));

    assertTrue(System.nanoTime() - start < TimeUnit.SECONDS.toNanos(2), "answered without waiting for the writer");
    assertEquals(503, refused.statusCode());
    assertEquals("5", refused.headers().firstValue("Retry-After").orElseThrow());
    gate.open();
    assertEquals("accepted\n", first.get(10, TimeUnit.SECONDS).body());
    assertEquals("accepted\n", queued.get(10, TimeUnit.SECONDS).body());
    assertTrue(LedgerRows.event(db.dataSource(), "hookledger", "evt_3").isEmpty());
  }

  private WebhookRuntimeBuilder builder() {
    return WebhookRuntime.builder()
        .dataSource(gate)
        .provider(new TestHookAdapter("alpha"), Secrets.of(SECRET))
        .provider(new TestHookAdapter("beta"), Secrets.of(SECRET))
        .inbox(i -> i.pollInterval(Duration.ofMillis(100)))
        .handlers(new Object() {
          @OnEvent("order.paid")
          void paid(WebhookEvent event) {
            handled.add(event.eventId());
          }
        })
        .listener(new WebhookListener() {
          @Override
          public void processed(WebhookEvent event, Settlement settlement, int attempt, Duration elapsed) {
            if (settlement == Settlement.IGNORED && attempt == 0) {
              settledIgnored.add(event.eventId());
            }
          }
        });
  }

  private CompletableFuture<HttpResponse<String>> send(String provider, String eventId, String type) {
    return CompletableFuture.supplyAsync(() -> TestHttp.send(
        SIGNER.request(served.uri("/webhooks/" + provider), eventId, type, "{\"id\":\"" + eventId + "\"}")));
  }

  private void awaitStatus(String id, String status) {
    Await.until(id + " is " + status, () -> LedgerRows.event(db.dataSource(), "hookledger", id)
        .map(r -> status.equals(r.get("status"))).orElse(false));
  }
}
