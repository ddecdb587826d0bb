package dev.hookledger.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hookledger.Secrets;
import dev.hookledger.internal.Json;
import dev.hookledger.runtime.admin.AdminAuthorizer;
import dev.hookledger.runtime.admin.web.AdminServlet;
import dev.hookledger.runtime.micrometer.MicrometerWebhookListener;
import dev.hookledger.runtime.testing.Await;
import dev.hookledger.runtime.testing.LedgerRows;
import dev.hookledger.runtime.testing.ServedRuntime;
import dev.hookledger.runtime.testing.TestDatabase;
import dev.hookledger.runtime.testing.TestHookAdapter;
import dev.hookledger.runtime.testing.TestHookSigner;
import dev.hookledger.runtime.testing.TestHttp;
import dev.hookledger.runtime.testing.TestServer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.http.HttpRequest;
import java.util.List;
import java.util.UUID;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
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
  static final String ADMIN_TOKEN = "refused-deliveries-admin-token-0123456789";
  static final SimpleMeterRegistry METRICS = new SimpleMeterRegistry();
  static TestDatabase.Database db;
  static ServedRuntime server;

  @BeforeAll
  static void start() {
    db = TestDatabase.create();
    WebhookRuntime runtime = WebhookRuntime.builder()
        .jdbcUrl(db.jdbcUrl())
        .provider(new TestHookAdapter(), Secrets.of(SECRET))
        .listener(MicrometerWebhookListener.of(METRICS))
        .inbox(i -> i.workers(0))
        .maxBodyBytes("testhook", 1024)
        .build();
    runtime.migrate();
    runtime.start();
    server = new ServedRuntime(runtime, TestServer.start(context -> {
      ServedRuntime.filter(context, runtime);
      context.addServlet(new ServletHolder(new AdminServlet(runtime, AdminAuthorizer.bearerToken(ADMIN_TOKEN))),
          "/admin/*");
    }));
  }

  @AfterAll
  static void stop() throws Exception {
    server.close();
  }

  @Test
  void wrongSecretForgeryUnknownProviderAndTooLargeAreCountedKeptAndMetered() throws Exception {
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

    // the operator's doors: the page (from the ledger's counts, which nodes write every 2 s), its JSON and the
    // health details show them too
    Await.until("the page counts the refusals", () -> admin("/admin/", "text/html").contains(
        "<tr><td>testhook</td><td>SIGNATURE_MISMATCH</td><td>401</td><td class=\"n\">1</td>"));
    String page = admin("/admin/", "text/html");
    assertTrue(page.contains("<a class=\"card alarm\" id=\"card-refused\" href=\"#refused\""), page);
    assertTrue(page.contains("<div class=\"wide\"><table id=\"refused-counts\">"), "in its scroll box: " + page);
    assertTrue(page.contains("x-test-signature: <span class=\"muted\">(hidden)</span>"), page);
    assertFalse(page.contains(new TestHookSigner("a-secret-rotated-on-one-side").signature("{\"secret\":\"body\"}")),
        "no signature on the page");
    JsonNode json = Json.MAPPER.readTree(admin("/admin/refused.json", "application/json"));
    assertEquals(4, json.get("total").asLong());
    assertEquals("too_large", json.get("recent").get(0).get("reason").asText());
    assertEquals(RefusedDelivery.HIDDEN, json.get("recent").get(3).get("headers").get("x-test-signature").asText());
    JsonNode health = Json.MAPPER.readTree(admin("/admin/health.json", "application/json"));
    assertEquals(4, health.get("refused").get("total").asLong());
    assertEquals("signature_mismatch", health.get("refused").get("counts").get(2).get("reason").asText());
  }

  @Test
  void aPageOnAnotherNodeShowsTheRefusalsOfEveryNodeAsStatusDoes() throws Exception {
    String other = "evt_" + UUID.randomUUID();
    assertEquals(401, TestHttp.send(new TestHookSigner("a-secret-of-another-endpoint")
        .request(server.uri("/webhooks/testhook"), other, "payment.failed", "{}")).statusCode());
    WebhookRuntime quiet = WebhookRuntime.builder().jdbcUrl(db.jdbcUrl())
        .provider(new TestHookAdapter(), Secrets.of(SECRET)).inbox(i -> i.workers(0)).build();
    try (TestServer page = TestServer.start(context -> context.addServlet(
        new ServletHolder(new AdminServlet(quiet, AdminAuthorizer.bearerToken(ADMIN_TOKEN))), "/admin/*"))) {
      HttpRequest get = HttpRequest.newBuilder(page.uri("/admin/")).header("Authorization", "Bearer " + ADMIN_TOKEN)
          .build();
      Await.until("the quiet node's page counts the refusal the other node made",
          () -> TestHttp.send(get).body().contains("<tr><td>testhook</td><td>SIGNATURE_MISMATCH</td><td>401</td>"));
      String html = TestHttp.send(get).body();
      assertTrue(html.contains("<a class=\"card alarm\" id=\"card-refused\" href=\"#refused\""), html);
      assertTrue(html.contains("refused deliveries <span class=\"muted\">(all nodes, last 24 h;"), html);
      assertFalse(html.contains("id=\"refused-recent\""), "the requests themselves are kept by the node that refused them");
    } finally {
      quiet.close();
    }
  }

  @Test
  void aPageWithNothingRefusedSaysSo() throws Exception {
    TestDatabase.Database empty = TestDatabase.create();
    WebhookRuntime quiet = WebhookRuntime.builder().jdbcUrl(empty.jdbcUrl())
        .provider(new TestHookAdapter(), Secrets.of(SECRET)).inbox(i -> i.workers(0)).build();
    quiet.migrate();
    try (TestServer page = TestServer.start(context -> context.addServlet(
        new ServletHolder(new AdminServlet(quiet, AdminAuthorizer.bearerToken(ADMIN_TOKEN))), "/admin/*"))) {
      String html = TestHttp.send(HttpRequest.newBuilder(page.uri("/admin/"))
          .header("Authorization", "Bearer " + ADMIN_TOKEN).build()).body();

      assertTrue(html.contains("<a class=\"card\" id=\"card-refused\" href=\"#refused\""), html);
      assertTrue(html.contains("<p id=\"no-refused\">none refused</p>"), html);
    } finally {
      quiet.close();
    }
  }

  private static String admin(String path, String accept) {
    var response = TestHttp.send(HttpRequest.newBuilder(server.uri(path)).header("Accept", accept)
        .header("Authorization", "Bearer " + ADMIN_TOKEN).build());
    assertEquals(200, response.statusCode(), response.body());
    return response.body();
  }

  private static String header(RefusedDelivery refused, String name) {
    return refused.headers().entrySet().stream().filter(e -> e.getKey().equalsIgnoreCase(name))
        .map(java.util.Map.Entry::getValue).findFirst().orElseThrow(() -> new AssertionError(name + " not kept"));
  }
}
