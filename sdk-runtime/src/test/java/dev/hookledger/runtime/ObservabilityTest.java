package dev.hookledger.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.hookledger.OnEvent;
import dev.hookledger.Secrets;
import dev.hookledger.WebhookEvent;
import dev.hookledger.runtime.internal.observe.EventMdc;
import dev.hookledger.runtime.testing.Await;
import dev.hookledger.runtime.testing.ServedRuntime;
import dev.hookledger.runtime.testing.TestDatabase;
import dev.hookledger.runtime.testing.TestHookAdapter;
import dev.hookledger.runtime.testing.TestHookSigner;
import dev.hookledger.runtime.testing.TestHttp;
import io.micrometer.common.KeyValue;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.slf4j.MDC;

/**
 * What an application's logs and traces see of an event: the MDC keys inside handlers and the runtime's
 * own lines (put back as they were after), and one Micrometer Observation for receiving, one for each
 * attempt and one for each handler, the handler's inside the attempt's.
 */
class ObservabilityTest {
  static final TestHookSigner SIGNER = new TestHookSigner("observed-secret");

  @BeforeAll
  static void keepTheMdc() {
    TestMdc.keep();
  }

  /** Each observation stopped: its name, its parent's name and its key values. */
  record Stopped(String name, String parent, Map<String, String> keys) {}

  static final class Recorder implements ObservationHandler<Observation.Context> {
    final List<Stopped> stopped = new CopyOnWriteArrayList<>();

    @Override
    public boolean supportsContext(Observation.Context context) {
      return true;
    }

    @Override
    public void onStop(Observation.Context context) {
      Map<String, String> keys = new TreeMap<>();
      for (KeyValue kv : context.getAllKeyValues()) {
        keys.put(kv.getKey(), kv.getValue());
      }
      io.micrometer.observation.ObservationView parent = context.getParentObservation();
      stopped.add(new Stopped(context.getName(), parent == null ? null : parent.getContextView().getName(), keys));
    }

    Stopped named(String name) {
      return stopped.stream().filter(s -> s.name().equals(name)).findFirst()
          .orElseThrow(() -> new AssertionError("no observation " + name + ": " + stopped));
    }
  }

  static final class Orders {
    final List<Map<String, String>> seen = new CopyOnWriteArrayList<>();

    @OnEvent("order.paid")
    void paid(WebhookEvent event) {
      seen.add(new TreeMap<>(MDC.getCopyOfContextMap()));
    }
  }

  @Test
  void handlersAndTheRuntimesLinesSeeTheEventInTheMdc() throws Exception {
    Orders orders = new Orders();
    try (ServedRuntime served = ServedRuntime.serve(builder(orders))) {
      assertEquals(200, TestHttp.send(SIGNER.request(served.uri("/webhooks/testhook"), "evt_mdc", "order.paid", "{}"))
          .statusCode());
      Await.until("the handler ran", () -> orders.seen.size() == 1);

      assertEquals(Map.of("hookledger.provider", "testhook", "hookledger.eventId", "evt_mdc", "hookledger.attempt", "1"),
          orders.seen.get(0));
    }
  }

  @Test
  void anInlineHandlerSeesTheEventAndTheCallersMdcIsPutBackAfter() {
    Orders orders = new Orders();
    try (WebhookRuntime runtime = builder(orders).mode(ProcessingMode.INLINE).build()) {
      runtime.migrate();
      runtime.start();
      MDC.put("request", "r-1");
      MDC.put("hookledger.eventId", "the caller's");
      try {
        runtime.receive("testhook", SIGNER.delivery("testhook", "evt_inline", "order.paid", "{}"));

        assertEquals(Map.of("request", "r-1", "hookledger.provider", "testhook", "hookledger.eventId", "evt_inline",
            "hookledger.attempt", "1"), orders.seen.get(0));
        assertEquals(Map.of("request", "r-1", "hookledger.eventId", "the caller's"), MDC.getCopyOfContextMap());
      } finally {
        MDC.clear();
      }
    }
  }

  @Test
  void theMdcNamesTheDeliveryWhenTheProviderSendsOneAndIsClearedAfter() {
    WebhookEvent event = WebhookEvent.builder().provider("github").scope("hook-1").eventId("d-1").type("push")
        .deliveryId("d-1").body("{}".getBytes(java.nio.charset.StandardCharsets.UTF_8)).build();
    try (EventMdc mdc = EventMdc.of(event, 3)) {
      assertEquals(Map.of("hookledger.provider", "github", "hookledger.eventId", "d-1", "hookledger.deliveryId", "d-1",
          "hookledger.attempt", "3"), MDC.getCopyOfContextMap());
    }
    assertNull(MDC.get("hookledger.provider"));
    assertEquals(Map.of(), MDC.getCopyOfContextMap(), "cleared after");
  }

  @Test
  void receiveProcessAndEachHandlerAreObservationsTheHandlerInsideItsAttempt() throws Exception {
    Recorder recorder = new Recorder();
    ObservationRegistry registry = ObservationRegistry.create();
    registry.observationConfig().observationHandler(recorder);
    Orders orders = new Orders();
    try (ServedRuntime served = ServedRuntime.serve(builder(orders).observationRegistry(registry))) {
      assertEquals(200, TestHttp.send(SIGNER.request(served.uri("/webhooks/testhook"), "evt_span", "order.paid", "{}"))
          .statusCode());
      Await.until("three observations stopped", () -> recorder.stopped.size() == 3);

      assertEquals(new Stopped("hookledger.delivery.receive", null, Map.of("hookledger.provider", "testhook")),
          recorder.named("hookledger.delivery.receive"));
      assertEquals(new Stopped("hookledger.event.process", null, Map.of("hookledger.provider", "testhook",
          "hookledger.type", "order.paid", "hookledger.event.id", "evt_span", "hookledger.attempt", "1")),
          recorder.named("hookledger.event.process"));
      Stopped handler = recorder.named("hookledger.handler.run");
      assertEquals("hookledger.event.process", handler.parent());
      assertEquals("order.paid", handler.keys().get("hookledger.type"));
      assertEquals("evt_span", handler.keys().get("hookledger.event.id"));
      assertEquals(ObservabilityTest.class.getName() + "$Orders#paid", handler.keys().get("hookledger.handler"));
    }
  }

  private static WebhookRuntimeBuilder builder(Orders orders) {
    return WebhookRuntime.builder().dataSource(TestDatabase.create().dataSource())
        .provider(new TestHookAdapter(), Secrets.of("observed-secret")).handlers(orders).inbox(i -> i.workers(1));
  }
}
