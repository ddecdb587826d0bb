package dev.hookledger.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hookledger.Secrets;
import dev.hookledger.runtime.micrometer.MicrometerWebhookListener;
import dev.hookledger.runtime.testing.LedgerRows;
import dev.hookledger.runtime.testing.ServedRuntime;
import dev.hookledger.runtime.testing.TestDatabase;
import dev.hookledger.runtime.testing.TestHookAdapter;
import dev.hookledger.runtime.testing.TestHookSigner;
import dev.hookledger.runtime.testing.TestHttp;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.http.HttpRequest;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Refused deliveries over real HTTP: a wrong secret, a forged (unsigned) delivery, an unknown
 * provider and a body over the limit are counted by provider and reason, kept with their sender's
 * address and header names (no body, no signature), and counted by the metrics; none leaves a row.
 */
class RefusedDeliveriesTest {
  static final String SECRET = "whsec-refused-test";
  static final SimpleMeterRegistry METRICS = new SimpleMeterRegistry();
  static TestDatabase.Database db;
  static ServedRuntime server;

  @BeforeAll
  static void start() {
    db = TestDatabase.create();
    server = ServedRuntime.serve(WebhookRuntime.builder()
        .jdbcUrl(db.jdbcUrl())
        .provider(new TestHookAdapter(), Secrets.of(SECRET))
        .listener(MicrometerWebhookListener.of(METRICS))
        .workers(0)
        .maxBodyBytes("testhook", 1024));
  }

  @AfterAll
  static void stop() throws Exception {
    server.close();
  }

  @Test
  void wrongSecretForgeryUnknownProviderAndTooLargeAreCountedKeptAndMetered() {
    String wrongSecret = "evt_" + UUID.randomUUID();
    String forged = "evt_" + UUID.randomUUID();
    assertEquals(401, TestHttp.send(new TestHookSigner("a-secret-rotated-on-one-side")
        .request(server.uri("/webhooks/testhook"), wrongSecret, "payment.succeeded", "{\"secret\":\"body\"}"))
        .statusCode());
    assertEquals(401, TestHttp.send(HttpRequest.newBuilder(server.uri("/webhooks/testhook"))
        .header(TestHookAdapter.EVENT_ID, forged).header(TestHookAdapter.EVENT_TYPE, "payment.succeeded")
        .POST(HttpRequest.BodyPublishers.ofString("{}")).build()).statusCode());
    assertEquals(404, TestHttp.send(HttpRequest.newBuilder(server.uri("/webhooks/nosuch"))
        .POST(HttpRequest.BodyPublishers.ofString("{}")).build()).statusCode());
    assertEquals(413, TestHttp.send(new TestHookSigner(SECRET).request(server.uri("/webhooks/testhook"),
        "evt_" + UUID.randomUUID(), "payment.succeeded", "{\"pad\":\"" + "x".repeat(2000) + "\"}")).statusCode());

    RefusedDeliveries refused = server.runtime().refusedDeliveries();

    assertEquals(List.of(
        new RefusalCount(RefusedDeliveries.UNKNOWN_PROVIDER, RefusalReason.UNKNOWN_PROVIDER, 1),
        new RefusalCount("testhook", RefusalReason.SIGNATURE_MISSING, 1),
        new RefusalCount("testhook", RefusalReason.SIGNATURE_MISMATCH, 1),
        new RefusalCount("testhook", RefusalReason.TOO_LARGE, 1)), refused.counts());
    assertEquals(List.of(RefusalReason.TOO_LARGE, RefusalReason.UNKNOWN_PROVIDER, RefusalReason.SIGNATURE_MISSING,
        RefusalReason.SIGNATURE_MISMATCH), refused.recent().stream().map(RefusedDelivery::reason).toList());
    RefusedDelivery mismatch = refused.recent().get(3);
    assertEquals("testhook", mismatch.provider());
    assertEquals("/webhooks/testhook", mismatch.path());
    assertTrue(List.of("127.0.0.1", "0:0:0:0:0:0:0:1").contains(mismatch.remoteAddress()), mismatch.remoteAddress());
    assertEquals(RefusedDelivery.HIDDEN, header(mismatch, TestHookAdapter.SIGNATURE));
    assertEquals(wrongSecret, header(mismatch, TestHookAdapter.EVENT_ID));
    assertFalse(mismatch.toString().contains("body"), "no body kept");
    assertEquals("/webhooks/nosuch", refused.recent().get(1).path());

    assertEquals(1.0, METRICS.get("hookledger.deliveries.refused")
        .tags("provider", "testhook", "reason", "signature_mismatch").counter().count());
    assertEquals(1.0, METRICS.get("hookledger.deliveries.refused")
        .tags("provider", RefusedDeliveries.UNKNOWN_PROVIDER, "reason", "unknown_provider").counter().count());
    assertTrue(LedgerRows.event(db.dataSource(), "hookledger", wrongSecret).isEmpty());
    assertTrue(LedgerRows.event(db.dataSource(), "hookledger", forged).isEmpty());
  }

  private static String header(RefusedDelivery refused, String name) {
    return refused.headers().entrySet().stream().filter(e -> e.getKey().equalsIgnoreCase(name))
        .map(java.util.Map.Entry::getValue).findFirst().orElseThrow(() -> new AssertionError(name + " not kept"));
  }
}
