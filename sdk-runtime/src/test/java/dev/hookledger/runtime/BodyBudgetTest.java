package dev.hookledger.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hookledger.RejectionReason;
import dev.hookledger.Secrets;
import dev.hookledger.runtime.testing.Await;
import dev.hookledger.runtime.testing.LedgerRows;
import dev.hookledger.runtime.testing.RawPost;
import dev.hookledger.runtime.testing.ServedRuntime;
import dev.hookledger.runtime.testing.TestDatabase;
import dev.hookledger.runtime.testing.TestHookAdapter;
import dev.hookledger.runtime.testing.TestHookSigner;
import dev.hookledger.runtime.testing.TestHttp;
import java.net.URI;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The memory bound on bodies, over real HTTP: a body the runtime-wide budget cannot hold is
 * answered 503 without being read, a delivery refused from its headers is answered 401 without
 * being read, and every reservation is given back however a request ends.
 */
class BodyBudgetTest {
  static final String SECRET = "whsec-budget-test";
  static final TestHookSigner SIGNER = new TestHookSigner(SECRET);
  static final int BUDGET = 1000;
  static final Duration ANSWER = Duration.ofSeconds(15);
  static final List<RejectionReason> REJECTED = new CopyOnWriteArrayList<>();
  static TestDatabase.Database db;
  static ServedRuntime server;

  @BeforeAll
  static void start() {
    db = TestDatabase.create();
    server = ServedRuntime.serve(WebhookRuntime.builder()
        .jdbcUrl(db.jdbcUrl())
        .provider(new TestHookAdapter(), Secrets.of(SECRET))
        .maxBodyBytes("testhook", 4096)
        .maxInFlightBodyBytes(BUDGET)
        .listener(new WebhookListener() {
          @Override
          public void rejected(String provider, RejectionReason reason) {
            REJECTED.add(reason);
          }
        }));
  }

  @AfterAll
  static void stop() throws Exception {
    server.close();
  }

  @AfterEach
  void everyReservationIsGivenBack() {
    Await.until("the budget is whole again", () -> budget().reserved() == 0);
    REJECTED.clear();
  }

  @Test
  void bodyTheBudgetCannotHoldIsAnswered503UnreadUntilTheHolderIsDone() throws Exception {
    String held = body(600);
    try (RawPost slow = signedPost(newId(), held, held.length())) {
      slow.send(Arrays.copyOf(held.getBytes(StandardCharsets.UTF_8), 10));
      Await.until("the slow body holds its 600 bytes", () -> budget().reserved() == 600);

      String id = newId();
      HttpResponse<String> refused = TestHttp.send(SIGNER.request(uri(), id, "payment.succeeded", body(600)));

      assertEquals(503, refused.statusCode());
      assertEquals("5", refused.headers().firstValue("Retry-After").orElseThrow());
      assertEquals("close", refused.headers().firstValue("Connection").orElseThrow());
      assertEquals("busy: too many delivery bodies are being received at once; retry later\n", refused.body());
      assertTrue(LedgerRows.event(db.dataSource(), "hookledger", id).isEmpty(), "nothing recorded");

      slow.send(Arrays.copyOfRange(held.getBytes(StandardCharsets.UTF_8), 10, held.length()));
      assertEquals("200 accepted", slow.awaitAnswer(ANSWER).toString());
    }
    Await.until("the held body is given back", () -> budget().reserved() == 0);
    assertEquals("accepted\n", TestHttp.send(SIGNER.request(uri(), newId(), "payment.succeeded", body(600))).body());
  }

  @Test
  void chunkedBodyIsAnswered503WhenTheBudgetCannotHoldItsNextChunk() throws Exception {
    String held = body(900);
    try (RawPost slow = signedPost(newId(), held, held.length())) {
      slow.send(new byte[] {'{'});
      Await.until("the slow body holds its 900 bytes", () -> budget().reserved() == 900);

      String chunkedBody = body(200);
      try (RawPost chunked = signedPost(newId(), chunkedBody, -1)) {
        chunked.send(chunkedBody.getBytes(StandardCharsets.UTF_8));
        RawPost.Answer answer = chunked.awaitAnswer(ANSWER);
        assertEquals(503, answer.status(), answer.toString());
        assertEquals("5", answer.headers().get("retry-after"));
      }
    }
  }

  @Test
  void chunkedBodyWithinTheBudgetIsReadAndAccepted() throws Exception {
    String body = body(400);
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    try (RawPost chunked = signedPost(newId(), body, -1)) {
      chunked.send(Arrays.copyOf(bytes, 150));
      chunked.send(Arrays.copyOfRange(bytes, 150, bytes.length));
      chunked.finish();
      assertEquals("200 accepted", chunked.awaitAnswer(ANSWER).toString());
    }
  }

  @Test
  void unsignedPostIsAnswered401FromItsHeadersWithoutReadingTheBody() throws Exception {
    // a megabyte declared, over the limit too, and not a byte sent: only a header check can answer
    try (RawPost unsigned = RawPost.open(server.uri("/"), "/webhooks/testhook",
        Map.of(TestHookAdapter.EVENT_ID, newId(), TestHookAdapter.EVENT_TYPE, "payment.succeeded"), 1 << 20)) {
      RawPost.Answer answer = unsigned.awaitAnswer(ANSWER);
      assertEquals("401 rejected (SIGNATURE_MISSING): the delivery carries no signature", answer.toString());
      assertEquals("close", answer.headers().get("connection"));
    }
    assertEquals(List.of(RejectionReason.SIGNATURE_MISSING), REJECTED);
    assertEquals(0, budget().reserved());
  }

  @Test
  void malformedSignatureHeaderIsAnswered401WithoutReadingTheBody() throws Exception {
    try (RawPost garbled = RawPost.open(server.uri("/"), "/webhooks/testhook",
        Map.of(TestHookAdapter.SIGNATURE, "md5=abc", TestHookAdapter.EVENT_ID, newId()), 600)) {
      assertEquals("401 rejected (SIGNATURE_MALFORMED): the signature is not in the provider's format",
          garbled.awaitAnswer(ANSWER).toString());
    }
    assertEquals(List.of(RejectionReason.SIGNATURE_MALFORMED), REJECTED);
  }

  @Test
  void bodyThatEndsBeforeItsContentLengthGivesItsReservationBack() throws Exception {
    String body = body(600);
    RawPost cut = signedPost(newId(), body, body.length());
    cut.send(new byte[] {'{', '"'});
    Await.until("the body holds its 600 bytes", () -> budget().reserved() == 600);
    cut.close();
    Await.until("the cut body gives its 600 bytes back", () -> budget().reserved() == 0);
  }

  private static RawPost signedPost(String id, String body, long contentLength) {
    return RawPost.open(server.uri("/"), "/webhooks/testhook", Map.of(
        TestHookAdapter.SIGNATURE, SIGNER.signature(body),
        TestHookAdapter.EVENT_ID, id,
        TestHookAdapter.EVENT_TYPE, "payment.succeeded"), contentLength);
  }

  /** A JSON body of exactly {@code length} ASCII bytes. */
  private static String body(int length) {
    String head = "{\"pad\":\"";
    return head + "x".repeat(length - head.length() - 2) + "\"}";
  }

  private static URI uri() {
    return server.uri("/webhooks/testhook");
  }

  private static dev.hookledger.runtime.internal.servlet.BodyBudget budget() {
    return server.runtime().bodyBudget();
  }

  private static String newId() {
    return "evt_" + UUID.randomUUID();
  }
}
