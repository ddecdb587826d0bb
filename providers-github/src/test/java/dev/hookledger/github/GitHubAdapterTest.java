package dev.hookledger.github;

import static dev.hookledger.spi.testkit.AdapterContractTest.withHeader;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hookledger.DeliveryRejectedException;
import dev.hookledger.HttpHeaders;
import dev.hookledger.InboundDelivery;
import dev.hookledger.RejectionReason;
import dev.hookledger.Secrets;
import dev.hookledger.WebhookEvent;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** {@link GitHubAdapter} beyond the contract kit: content types, types, entities, headers, messages. */
class GitHubAdapterTest {
  private static final String SECRET = "gh_adapter_test_secret";
  private static final String GUID = "0b989ba4-242f-11e5-81e1-c7b6966d2516";
  private static final String ISSUE =
      "{\"action\":\"opened\",\"issue\":{\"id\":9,\"updated_at\":\"2024-01-01T00:00:01Z\"}}";

  private final GitHubAdapter adapter = new GitHubAdapter();
  private final GitHubTestSigner signer = GitHubTestSigner.withSecret(SECRET).deliveryId(GUID).hookId("42");

  @Test
  void formEncodedDeliveryIsVerifiedAsSentAndReadFromItsPayloadField() {
    InboundDelivery d = signer.formDelivery("issues", ISSUE);
    assertTrue(new String(d.bodyBytes(), StandardCharsets.US_ASCII).startsWith("payload=%7B%22action%22"));

    WebhookEvent event = verify(d);

    assertArrayEquals(d.bodyBytes(), event.body());
    assertArrayEquals(ISSUE.getBytes(StandardCharsets.UTF_8), event.payloadJson());
    assertTrue(event.payloadWrapped());
    assertEquals("issues.opened", event.type());
    assertEquals(Optional.of("issue:9"), event.entityKey());
  }

  @Test
  void formEncodedNonAsciiPayloadIsDecodedAsUtf8() {
    String json = "{\"action\":\"edited\",\"issue\":{\"id\":2,\"title\":\"Café ☕ 日本語 🚀\"}}";
    assertEquals("Café ☕ 日本語 🚀", verify(signer.formDelivery("issues", json)).payload().at("/issue/title").asText());
  }

  @Test
  void formWithoutPayloadFieldIsMalformed() {
    assertRejected(form("token=abc&other=1"), RejectionReason.MALFORMED,
        "the form-encoded GitHub body has no 'payload' field");
  }

  @Test
  void formWithABrokenPercentEscapeIsMalformed() {
    assertRejected(form("payload=%7B%zz"), RejectionReason.MALFORMED,
        "the 'payload' field of the form-encoded GitHub body has a broken percent-escape");
  }

  @Test
  void eventsWithoutActionKeepTheBareEventName() {
    WebhookEvent push = verify(signer.delivery("push", "{\"ref\":\"refs/heads/main\",\"before\":\"a\",\"after\":\"b\"}"));
    WebhookEvent ping = verify(signer.delivery("ping", "{\"zen\":\"Keep it logically awesome.\",\"hook_id\":42}"));
    assertEquals("push", push.type());
    assertEquals("ping", ping.type());
    assertEquals(Optional.empty(), push.entityKey());
    assertTrue(push.entityVersion().isEmpty());
  }

  @Test
  void pullRequestCommentsAndInstallationsAreOrderedByTheirUpdatedAt() {
    WebhookEvent pr = verify(signer.delivery("pull_request",
        "{\"action\":\"synchronize\",\"pull_request\":{\"id\":279147437,\"updated_at\":\"2024-01-02T03:04:05Z\"}}"));
    WebhookEvent comment = verify(signer.delivery("issue_comment",
        "{\"action\":\"created\",\"issue\":{\"id\":1},\"comment\":{\"id\":77,\"updated_at\":\"2024-01-02T03:04:06Z\"}}"));
    WebhookEvent review = verify(signer.delivery("pull_request_review_comment",
        "{\"action\":\"edited\",\"comment\":{\"id\":78,\"updated_at\":\"2024-01-02T03:04:07Z\"}}"));
    WebhookEvent installation = verify(signer.delivery("installation",
        "{\"action\":\"created\",\"installation\":{\"id\":5,\"updated_at\":\"2024-01-02T03:04:08Z\"}}"));

    assertEquals("pull_request.synchronize", pr.type());
    assertEquals(Optional.of("pull_request:279147437"), pr.entityKey());
    assertEquals(1_704_164_645_000_000L, pr.entityVersion().getAsLong());
    assertEquals(Optional.of("issue_comment:77"), comment.entityKey());
    assertEquals(1_704_164_646_000_000L, comment.entityVersion().getAsLong());
    assertEquals(Optional.of("pull_request_review_comment:78"), review.entityKey());
    assertEquals(Optional.of("installation:5"), installation.entityKey());
  }

  @Test
  void sameGuidThroughTwoHooksIsTwoDeliveriesKeptApartByScope() {
    WebhookEvent repoHook = verify(signer.hookId("100").delivery("issues", ISSUE));
    WebhookEvent orgHook = verify(signer.hookId("200").delivery("issues", ISSUE));
    assertEquals(repoHook.eventId(), orgHook.eventId());
    assertEquals("100", repoHook.scope());
    assertEquals("200", orgHook.scope());
    assertEquals(Optional.of(GUID), repoHook.deliveryId());
  }

  @Test
  void tenantIsTheHookId() {
    assertEquals("42", adapter.tenantOf(signer.delivery("issues", ISSUE)));
    assertEquals("", adapter.tenantOf(InboundDelivery.post("/webhooks/github", HttpHeaders.empty(), "")));
  }

  @Test
  void missingEventOrDeliveryHeaderIsMalformedOnceTheSignatureHolds() {
    InboundDelivery d = signer.delivery("issues", ISSUE);
    assertRejected(without(d, "X-GitHub-Event"), RejectionReason.MALFORMED,
        "X-GitHub-Event header is missing; GitHub sends it with every delivery");
    assertRejected(without(d, "X-GitHub-Delivery"), RejectionReason.MALFORMED,
        "X-GitHub-Delivery header is missing; GitHub sends it with every delivery");
  }

  @Test
  void missingHookIdLeavesTheScopeEmpty() {
    assertEquals("", verify(without(signer.delivery("issues", ISSUE), "X-GitHub-Hook-ID")).scope());
  }

  @Test
  void signatureRejectionsSayWhatToDo() {
    InboundDelivery d = signer.delivery("issues", ISSUE);
    assertRejected(without(without(d, "X-Hub-Signature-256"), "X-Hub-Signature"), RejectionReason.SIGNATURE_MISSING,
        "X-Hub-Signature-256 header is missing: GitHub sends it only when the webhook has a secret; set one in"
            + " the webhook's settings");
    assertRejected(without(d, "X-Hub-Signature-256"), RejectionReason.SIGNATURE_MISSING,
        "X-Hub-Signature-256 header is missing: only the legacy SHA-1 X-Hub-Signature is present, which is"
            + " refused unless enabled with GitHubAdapter.builder().acceptSha1(true)");
    assertRejected(withHeader(d, "X-Hub-Signature-256", "sha1=" + "a".repeat(40)), RejectionReason.SIGNATURE_MALFORMED,
        "X-Hub-Signature-256 must start with 'sha256='");
    assertRejected(withHeader(d, "X-Hub-Signature-256", "sha256=" + "a".repeat(63)), RejectionReason.SIGNATURE_MALFORMED,
        "X-Hub-Signature-256 must be 'sha256=' followed by 64 hex characters");
    DeliveryRejectedException mismatch = reject(adapter, d, Secrets.builder().add("hook-42", "wrong").build());
    assertEquals(RejectionReason.SIGNATURE_MISMATCH, mismatch.reason());
    assertEquals("X-Hub-Signature-256 matches none of the 1 configured secret (id hook-42): the body was probably"
        + " re-encoded or parsed by a framework before verification (verify the exact raw bytes), or the secret is"
        + " wrong; it must be the secret set on this webhook in GitHub's settings (each hook has its own)",
        mismatch.getMessage());
  }

  @Test
  void wrongSha256IsNotRescuedByACorrectSha1() {
    InboundDelivery d = withHeader(signer.delivery("issues", ISSUE), "X-Hub-Signature-256", "sha256=" + "0".repeat(64));
    GitHubAdapter legacy = GitHubAdapter.builder().acceptSha1(true).build();
    assertEquals(RejectionReason.SIGNATURE_MISMATCH, reject(legacy, d, Secrets.of(SECRET)).reason());
    assertTrue(legacy.acceptsSha1());
    assertFalse(adapter.acceptsSha1());
  }

  @Test
  void unparsableUpdatedAtLeavesTheVerifiedEventWithoutAVersion() {
    WebhookEvent event = verify(signer.delivery("issues", "{\"action\":\"opened\",\"issue\":{\"id\":9,\"updated_at\":\"yesterday\"}}"));
    assertEquals(Optional.of("issue:9"), event.entityKey());
    assertTrue(event.entityVersion().isEmpty());
  }

  @Test
  void nonSecretIdentityHeadersAreKeptAsEvidence() {
    WebhookEvent event = verify(signer.delivery("issues", ISSUE));
    assertEquals(
        Map.of(
            "x-github-event", "issues",
            "x-github-delivery", GUID,
            "x-github-hook-id", "42",
            "x-github-hook-installation-target-type", "repository",
            "x-github-hook-installation-target-id", "1296269",
            "content-type", "application/json",
            "user-agent", "GitHub-Hookshot/hookledger-test"),
        event.headers());
  }

  @Test
  void bodyLimitIsGitHubsDocumented25Megabytes() {
    assertEquals(25 * 1024 * 1024, adapter.maxBodyBytes());
  }

  @Test
  void aConfiguredLimitIsOnlyTheDefaultTheRuntimeEnforces() {
    GitHubAdapter small = GitHubAdapter.builder().maxBodyBytes(64).build();
    InboundDelivery d = signer.delivery("issues", ISSUE);
    assertEquals(72, d.bodyLength());

    assertEquals(64, small.maxBodyBytes());
    // the runtime refuses a body over the limit before verify; the adapter keeps no copy of the rule
    assertEquals("issues.opened", small.verify(d, Secrets.of(SECRET), Clock.systemUTC()).type());
  }

  @Test
  void builderRefusesABodyLimitBelowOneNamingTheValue() {
    assertEquals("maxBodyBytes must be >= 1, but was 0",
        assertThrows(IllegalArgumentException.class, () -> GitHubAdapter.builder().maxBodyBytes(0)).getMessage());
  }

  private WebhookEvent verify(InboundDelivery d) {
    return adapter.verify(d, Secrets.of(SECRET), Clock.systemUTC());
  }

  private InboundDelivery form(String body) {
    byte[] bytes = body.getBytes(StandardCharsets.US_ASCII);
    InboundDelivery signed = signer.delivery("issues", bytes);
    return withHeader(withHeader(signed, "Content-Type", "application/x-www-form-urlencoded"), "X-Hub-Signature-256", signer.signature256(bytes));
  }

  private static InboundDelivery without(InboundDelivery d, String name) {
    return withHeader(d, name, null);
  }

  private static DeliveryRejectedException reject(GitHubAdapter adapter, InboundDelivery d, Secrets secrets) {
    return assertThrows(DeliveryRejectedException.class, () -> adapter.verify(d, secrets, Clock.systemUTC()));
  }

  private void assertRejected(InboundDelivery d, RejectionReason reason, String message) {
    DeliveryRejectedException e = reject(adapter, d, Secrets.of(SECRET));
    assertEquals(reason, e.reason());
    assertEquals(message, e.getMessage());
  }
}
