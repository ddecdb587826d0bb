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
 * The memory bound on bodies, over real HTTP: bodies hold the bytes they sent, not what they
 * declare; a body the runtime-wide budget (or its half of it) cannot hold is answered 503 as any
 * overload is, a delivery refused from its headers is answered 401 without
 * being read, and every reservation is given back however a request ends.
 */
class BodyBudgetTest {
  static final String SECRET = "whsec-budget-test";
  static final TestHookSigner SIGNER = new TestHookSigner(SECRET);
  static final int BUDGET = 1000;
  /** The length of a body held by a slow sender: within the half of the budget one body may hold. */
  static final int HELD = 450;
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
        .receive(r -> r.maxInFlightBodyBytes(BUDGET))
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
  void slowBodiesWithForgedSignaturesHoldOnlyTheBytesTheySent() throws Exception {
    // well-formed but forged signatures, large declared lengths, a trickle of bytes: before, these
    // held their declared lengths and every legitimate delivery was answered 503
    List<RawPost> slow = new java.util.ArrayList<>();
    try {
      for (int i = 0; i < 8; i++) {
        // signed over another body: well-formed, so it passes the header check, but forged
        RawPost post = signedPost(newId(), "{\"forged\":" + i + "}", 450);
        post.send("{\"pad".getBytes(StandardCharsets.UTF_8));
        slow.add(post);
      }
      Await.until("the slow bodies hold the 40 bytes they sent", () -> budget().reserved() == 40);

      String id = newId();
      HttpResponse<String> legitimate = TestHttp.send(SIGNER.request(uri(), id, "payment.succeeded", body(450)));

      assertEquals("accepted\n", legitimate.body());
      assertTrue(LedgerRows.event(db.dataSource(), "hookledger", id).isPresent(), "recorded");
    } finally {
      slow.forEach(RawPost::close);
    }
  }

  @Test
  void bodyTheBudgetCannotHoldIsAnsweredWithTheOneOverloadAnswerAndNothingRecorded() throws Exception {
    byte[] heldBytes = body(HELD).getBytes(StandardCharsets.UTF_8);
    try (RawPost first = held(440); RawPost second = held(440)) {
      Await.until("the two slow bodies hold the 880 bytes they sent", () -> budget().reserved() == 880);

      String id = newId();
      HttpResponse<String> refused = TestHttp.send(SIGNER.request(uri(), id, "payment.succeeded", body(200)));

      assertEquals(503, refused.statusCode());
      assertEquals("5", refused.headers().firstValue("Retry-After").orElseThrow());
      assertEquals("close", refused.headers().firstValue("Connection").orElseThrow());
      // word for word the answer of a ledger that cannot record: it says nothing of what is left
      assertEquals("unavailable: retry later (the delivery may be recorded; a redelivery is answered duplicate)\n", refused.body());
      assertTrue(LedgerRows.event(db.dataSource(), "hookledger", id).isEmpty(), "nothing recorded");

      first.send(Arrays.copyOfRange(heldBytes, 440, heldBytes.length));
      assertEquals("200 accepted", first.awaitAnswer(ANSWER).toString());
      second.send(Arrays.copyOfRange(heldBytes, 440, heldBytes.length));
      assertEquals("200 accepted", second.awaitAnswer(ANSWER).toString());
    }
    Await.until("the held bodies are given back", () -> budget().reserved() == 0);
    assertEquals("accepted\n", TestHttp.send(SIGNER.request(uri(), newId(), "payment.succeeded", body(200))).body());
  }

  @Test
  void bodyDeclaredLargerThanHalfTheBudgetIsAnswered503Unread() throws Exception {
    String body = body(600);
    try (RawPost post = signedPost(newId(), body, body.length())) {
      RawPost.Answer answer = post.awaitAnswer(ANSWER);
      assertEquals("503 unavailable: retry later (the delivery may be recorded; a redelivery is answered duplicate)", answer.toString());
    }
    assertEquals(0, budget().reserved());
  }

  @Test
  void chunkedBodyIsAnswered503WhenTheBudgetCannotHoldItsNextBytes() throws Exception {
    try (RawPost first = held(449); RawPost second = held(449)) {
      Await.until("the slow bodies hold 898 bytes", () -> budget().reserved() == 898);

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
    String body = body(400);
    RawPost cut = signedPost(newId(), body, body.length());
    cut.send(new byte[] {'{', '"'});
    Await.until("the body holds the 2 bytes it sent", () -> budget().reserved() == 2);
    cut.close();
    Await.until("the cut body gives its bytes back", () -> budget().reserved() == 0);
  }

  /** A signed post of a {@value #HELD}-byte body, of which only the first {@code sent} bytes are sent. */
  private static RawPost held(int sent) {
    String body = body(HELD);
    RawPost post = signedPost(newId(), body, body.length());
    post.send(Arrays.copyOf(body.getBytes(StandardCharsets.UTF_8), sent));
    return post;
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
