package dev.hookledger.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hookledger.Secrets;
import dev.hookledger.runtime.testing.Await;
import dev.hookledger.runtime.testing.LedgerRows;
import dev.hookledger.runtime.testing.RawPost;
import dev.hookledger.runtime.testing.ServedRuntime;
import dev.hookledger.runtime.testing.TestDatabase;
import dev.hookledger.runtime.testing.TestHookAdapter;
import dev.hookledger.runtime.testing.TestHookSigner;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Clients that send their bodies slowly, over real HTTP: each body has a total read deadline
 * whatever the container's idle timeout, and while slow clients stall beside it a legitimate signed
 * delivery is answered within a provider's timeout.
 */
class SlowBodyTest {
  static final String SECRET = "whsec-slow-body-test";
  static final TestHookSigner SIGNER = new TestHookSigner(SECRET);
  /** GitHub's timeout for the whole request: the legitimate delivery must be answered by then. */
  static final Duration PROVIDER_TIMEOUT = Duration.ofSeconds(10);
  static TestDatabase.Database db;
  static ServedRuntime server;

  @BeforeAll
  static void start() {
    db = TestDatabase.create();
    server = ServedRuntime.serve(WebhookRuntime.builder()
        .jdbcUrl(db.jdbcUrl())
        .provider(new TestHookAdapter(), Secrets.of(SECRET))
        .maxBodyBytes("testhook", 1 << 20)
        .receive(r -> r.maxInFlightBodyBytes(4 << 20)
            .bodyReadTimeout(Duration.ofSeconds(1))));
  }

  @AfterAll
  static void stop() throws Exception {
    server.close();
  }

  @Test
  void bodyThatStallsIsAnswered408AtItsDeadlineAndGivesItsBytesBack() throws Exception {
    try (RawPost stalled = forgedPost(1 << 20)) {
      stalled.send("{\"x\":".getBytes(StandardCharsets.UTF_8));
      // nothing more is sent: the container's idle timeout (30 s) would not end it before the provider gives up
      RawPost.Answer answer = stalled.awaitAnswer(Duration.ofSeconds(8));
      assertEquals("408 timeout: the body did not arrive in time; nothing was recorded", answer.toString());
      assertEquals("close", answer.headers().get("connection"));
    }
    Await.until("the stalled body's bytes are given back", () -> server.runtime().bodyBudget().reserved() == 0);
  }

  @Test
  void legitimateDeliveryIsAnsweredWithinTheProviderTimeoutBesideStalledClients() throws Exception {
    List<RawPost> stalled = new ArrayList<>();
    try {
      for (int i = 0; i < 24; i++) {
        RawPost post = forgedPost(1 << 20);
        post.send("{".getBytes(StandardCharsets.UTF_8));
        stalled.add(post);
      }
      String id = "evt_" + UUID.randomUUID();
      HttpClient client = HttpClient.newBuilder().connectTimeout(PROVIDER_TIMEOUT).build();
      HttpRequest request = HttpRequest.newBuilder(SIGNER.request(server.uri("/webhooks/testhook"), id,
          "payment.succeeded", "{\"ok\":true}"), (name, value) -> true).timeout(PROVIDER_TIMEOUT).build();

      HttpResponse<String> answer = client.send(request, HttpResponse.BodyHandlers.ofString());

      assertEquals("accepted\n", answer.body());
      assertTrue(LedgerRows.event(db.dataSource(), "hookledger", id).isPresent(), "recorded");
      for (RawPost post : stalled) {
        assertEquals(408, post.awaitAnswer(Duration.ofSeconds(15)).status(), "every stalled client is ended");
      }
    } finally {
      stalled.forEach(RawPost::close);
    }
    Await.until("every stalled body's bytes are given back", () -> server.runtime().bodyBudget().reserved() == 0);
  }

  /** A post whose signature is well-formed but forged, declaring {@code length} bytes. */
  private static RawPost forgedPost(long length) {
    URI base = server.uri("/");
    return RawPost.open(base, "/webhooks/testhook", Map.of(
        TestHookAdapter.SIGNATURE, SIGNER.signature("{\"another\":\"body\"}"),
        TestHookAdapter.EVENT_ID, "evt_" + UUID.randomUUID(),
        TestHookAdapter.EVENT_TYPE, "payment.succeeded"), length);
  }
}
