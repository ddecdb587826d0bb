package dev.hookledger.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.hookledger.DeliveryRejectedException;
import dev.hookledger.OnEvent;
import dev.hookledger.RejectionReason;
import dev.hookledger.Secrets;
import dev.hookledger.WebhookEvent;
import dev.hookledger.runtime.testing.Await;
import dev.hookledger.runtime.testing.ServedRuntime;
import dev.hookledger.runtime.testing.TestDatabase;
import dev.hookledger.runtime.testing.TestHookAdapter;
import dev.hookledger.runtime.testing.TestHookSigner;
import dev.hookledger.runtime.testing.TestHttp;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/** The listener hears every outcome, after the fact; one that throws changes no answer. */
class WebhookListenerTest {
  static final TestHookSigner SIGNER = new TestHookSigner("listener-secret");

  @Test
  void listenerHearsEachOutcomeAndCannotChangeIt() throws Exception {
    List<String> heard = new CopyOnWriteArrayList<>();
    WebhookListener listener = new WebhookListener() {
      @Override
      public void received(WebhookEvent event, Duration elapsed) {
        heard.add("received " + event.eventId());
      }

      @Override
      public void duplicate(WebhookEvent event) {
        heard.add("duplicate " + event.eventId());
        throw new IllegalStateException("a broken listener");
      }

      @Override
      public void rejected(String provider, RejectionReason reason) {
        heard.add("rejected " + provider + " " + reason);
      }

      @Override
      public void processed(WebhookEvent event, Settlement status, int attempt, Duration elapsed) {
        heard.add("processed " + event.eventId() + " " + status.name().toLowerCase(java.util.Locale.ROOT) + " attempt " + attempt);
      }

      @Override
      public void retried(WebhookEvent event, int attempt, Throwable error, Instant nextAttemptAt) {
        heard.add("retried " + event.eventId() + " attempt " + attempt + ": " + error.getMessage());
      }
    };
    try (ServedRuntime served = ServedRuntime.serve(WebhookRuntime.builder()
        .dataSource(TestDatabase.create().dataSource())
        .provider(new TestHookAdapter(), Secrets.of("listener-secret"))
        .maxBodyBytes("testhook", 64)
        .listener(listener)
        .handlers(new Object() {
          @OnEvent("job.ok")
          void ok() {}

          @OnEvent("job.fail")
          void fail() {
            throw new IllegalStateException("no luck");
          }
        }))) {
      assertEquals("accepted\n", post(served, "evt_ok", "job.ok", "{}", SIGNER).body());
      Await.until("processed", () -> heard.contains("processed evt_ok done attempt 1"));
      assertEquals("duplicate\n", post(served, "evt_ok", "job.ok", "{}", SIGNER).body());
      assertEquals(401, post(served, "evt_bad", "job.ok", "{}", new TestHookSigner("wrong")).statusCode());
      assertEquals(413, post(served, "evt_big", "job.ok", "{\"pad\":\"" + "x".repeat(100) + "\"}", SIGNER).statusCode());
      assertEquals("accepted\n", post(served, "evt_fail", "job.fail", "{}", SIGNER).body());
      Await.until("retried", () -> heard.stream().anyMatch(h -> h.startsWith("retried evt_fail")));
    }

    assertEquals(List.of("received evt_ok", "processed evt_ok done attempt 1", "duplicate evt_ok",
        "rejected testhook SIGNATURE_MISMATCH", "rejected testhook TOO_LARGE", "received evt_fail",
        "retried evt_fail attempt 1: no luck"), heard);
  }

  @Test
  void severalListenersEachHearEveryOutcomeInTheOrderAddedEvenWhenOneThrows() {
    List<String> heard = new CopyOnWriteArrayList<>();
    try (WebhookRuntime runtime = WebhookRuntime.builder()
        .dataSource(TestDatabase.create().dataSource())
        .provider(new TestHookAdapter(), Secrets.of("listener-secret"))
        .listener(new Recording("metrics", heard, true))
        .listener(new Recording("tracing", heard, false))
        .build()) {
      runtime.migrate();
      runtime.start();
      runtime.receive("testhook", SIGNER.delivery("testhook", "evt_1", "job.ok", "{}"));
      runtime.receive("testhook", SIGNER.delivery("testhook", "evt_1", "job.ok", "{}"));
      assertThrows(DeliveryRejectedException.class,
          () -> runtime.receive("testhook", new TestHookSigner("wrong").delivery("testhook", "evt_2", "job.ok", "{}")));
    }

    assertEquals(List.of("metrics received evt_1", "tracing received evt_1", "metrics duplicate evt_1",
        "tracing duplicate evt_1", "metrics rejected SIGNATURE_MISMATCH", "tracing rejected SIGNATURE_MISMATCH"), heard);
  }

  /** Records what it hears under a name; the first may throw after recording, as a broken listener would. */
  private record Recording(String name, List<String> heard, boolean throwing) implements WebhookListener {
    @Override
    public void received(WebhookEvent event, Duration elapsed) {
      hear("received " + event.eventId());
    }

    @Override
    public void duplicate(WebhookEvent event) {
      hear("duplicate " + event.eventId());
    }

    @Override
    public void rejected(String provider, RejectionReason reason) {
      hear("rejected " + reason);
    }

    private void hear(String what) {
      heard.add(name + " " + what);
      if (throwing) {
        throw new IllegalStateException("a broken " + name + " listener");
      }
    }
  }

  private static HttpResponse<String> post(ServedRuntime served, String id, String type, String body, TestHookSigner signer) {
    return TestHttp.send(signer.request(served.uri("/webhooks/testhook"), id, type, body));
  }
}
