package dev.hookledger.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hookledger.OnEvent;
import dev.hookledger.Secrets;
import dev.hookledger.WebhookEvent;
import dev.hookledger.runtime.admin.EventDetail;
import dev.hookledger.runtime.admin.EventQuery;
import dev.hookledger.runtime.admin.EventSummary;
import dev.hookledger.runtime.admin.InboxAdmin;
import dev.hookledger.runtime.admin.InboxStatus;
import dev.hookledger.runtime.testing.Await;
import dev.hookledger.runtime.testing.ServedRuntime;
import dev.hookledger.runtime.testing.TestDatabase;
import dev.hookledger.runtime.testing.TestHookAdapter;
import dev.hookledger.runtime.testing.TestHookSigner;
import dev.hookledger.runtime.testing.TestHttp;
import dev.hookledger.spi.ReplayReport;
import dev.hookledger.spi.ReplaySink;
import dev.hookledger.spi.ReplaySource;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * One delivery's whole path as an operator sees it, without the command line: HTTP through the
 * filter, the ledger, the handler's transaction, then {@code runtime.admin()}: status, list, show,
 * and a replay recorded through the same ledger writer.
 */
class InboxEndToEndTest {
  static final String SECRET = "e2e-secret";
  static final TestHookSigner SIGNER = new TestHookSigner(SECRET);

  final TestDatabase.Database db = TestDatabase.create();
  final Orders orders = new Orders();

  @Test
  void deliveryIsHandledAndTheAdminSeesItDoneListedAndShown() throws Exception {
    try (ServedRuntime served = serve()) {
      InboxAdmin admin = served.runtime().admin();
      String body = "{\"order\":\"o-1\",\"total\":1200}";

      assertEquals("accepted\n", post(served, "evt_1", body));
      Await.until("evt_1 is done", () -> admin.status().count(EventStatus.DONE) == 1);
      assertEquals("duplicate\n", post(served, "evt_1", body));

      InboxStatus status = Await.read("status", admin::status);
      assertEquals(1, status.total());
      assertEquals(0, status.waiting());
      assertEquals(1, status.duplicates());
      assertTrue(status.oldestWaitingAge().isEmpty());

      List<EventSummary> done = admin.list(EventQuery.builder().status(EventStatus.DONE).build()).events();
      assertEquals(1, done.size());
      EventSummary row = done.get(0);
      assertEquals(List.of("testhook", "", "evt_1", "order.placed", EventStatus.DONE, EventSource.DELIVERY),
          List.of(row.provider(), row.scope(), row.eventId(), row.type(), row.status(), row.source()));
      assertEquals(1, row.attempts());
      assertEquals(1, row.duplicates());
      assertTrue(row.settledAt().isPresent());

      EventDetail detail = admin.show("testhook", "", "evt_1").orElseThrow();
      assertEquals(body, detail.body());
      assertEquals(Optional.of("0"), detail.secretId());
      assertEquals("order.placed", detail.headers().get("x-test-event-type"));
      assertEquals(List.of("evt_1"), orders.handled);
    }
  }

  @Test
  void adminReplayOnARuntimeRecordsThroughTheLedgerAndTheWorkersProcessIt() throws Exception {
    try (ServedRuntime served = serve()) {
      assertEquals("accepted\n", post(served, "evt_1", "{}"));
      Await.until("evt_1 is done", () -> orders.handled.contains("evt_1"));

      ReplayReport report = served.runtime().admin().replay(new Missed(), Instant.EPOCH, Optional.empty());

      assertEquals(new ReplayReport(2, 1, 1, 0, 1), report);
      EventDetail replayed = served.runtime().admin().show("testhook", "", "evt_missed").orElseThrow();
      assertEquals(EventSource.REPLAY, replayed.summary().source());
      assertTrue(replayed.secretId().isEmpty(), "a replayed event carries no secret id");
      // recorded to be processed: pending for the workers, unless this runtime's poller was already quicker
      assertTrue(Set.of(EventStatus.PENDING, EventStatus.PROCESSING, EventStatus.DONE)
          .contains(replayed.summary().status()), replayed.summary().status().toString());
    }
    // whatever this runtime left pending, the next one's start() resumes: each event handled once
    try (ServedRuntime again = serve()) {
      Await.until("the replayed event is done", () -> again.runtime().admin().status().count(EventStatus.DONE) == 2);
    }
    assertEquals(List.of("evt_1", "evt_missed"), orders.handled);
  }

  private ServedRuntime serve() {
    return ServedRuntime.serve(WebhookRuntime.builder()
        .dataSource(db.forRuntime())
        .provider(new TestHookAdapter(), Secrets.of(SECRET))
        .handlers(orders));
  }

  private static String post(ServedRuntime served, String eventId, String body) {
    return TestHttp.send(SIGNER.request(served.uri("/webhooks/testhook"), eventId, "order.placed", body)).body();
  }

  static final class Orders {
    final List<String> handled = new CopyOnWriteArrayList<>();

    @OnEvent("order.placed")
    void placed(WebhookEvent event) {
      handled.add(event.eventId());
    }
  }

  /** The provider's API as a replay finds it: one event the ledger has, one it missed. */
  static final class Missed implements ReplaySource {
    @Override
    public String provider() {
      return "testhook";
    }

    @Override
    public ReplayReport replay(Instant since, Optional<String> type, ReplaySink sink) {
      for (String id : List.of("evt_1", "evt_missed")) {
        sink.offer(WebhookEvent.builder().provider("testhook").eventId(id).type("order.placed")
            .body("{}".getBytes(StandardCharsets.UTF_8)).build());
      }
      return new ReplayReport(2, 0, 0, 0, 1);
    }
  }
}
