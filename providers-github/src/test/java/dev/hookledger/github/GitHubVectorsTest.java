package dev.hookledger.github;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hookledger.DeliveryRejectedException;
import dev.hookledger.HttpHeaders;
import dev.hookledger.InboundDelivery;
import dev.hookledger.RejectionReason;
import dev.hookledger.Secret;
import dev.hookledger.Secrets;
import dev.hookledger.WebhookEvent;
import dev.hookledger.spi.testkit.ProviderVectors;
import java.nio.ByteBuffer;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** GitHub's vectors GH-1 (the official docs vector) to GH-3, SHA-256 and legacy SHA-1. */
class GitHubVectorsTest {
  private static final String SHA256 = "X-Hub-Signature-256";
  private static final String SHA1 = "X-Hub-Signature";

  @Test
  void everyGitHubVectorIsCovered() {
    List<String> ids = new ArrayList<>();
    ProviderVectors.of("github").forEach(v -> ids.add(v.get("id").asText()));
    assertEquals(List.of("GH-1", "GH-2", "GH-3"), ids);
  }

  @Test
  void testSignerReproducesEveryVectorSignature() {
    for (JsonNode v : ProviderVectors.of("github")) {
      GitHubTestSigner signer = GitHubTestSigner.withSecret(v.get("secret").asText());
      assertEquals(expected(v, SHA256), signer.signature256(ProviderVectors.body(v)), v.get("id").asText());
      assertEquals(expected(v, SHA1), signer.signatureSha1(ProviderVectors.body(v)), v.get("id").asText());
    }
  }

  @Test
  void everyVectorVerifiesWithSha256() {
    for (JsonNode v : ProviderVectors.of("github")) {
      HttpHeaders headers = HttpHeaders.of(Map.of(SHA256, expected(v, SHA256)));
      assertEquals("0", check(false, headers, v).id(), v.get("id").asText());
    }
  }

  @Test
  void legacySha1VerifiesOnlyWhenEnabled() {
    for (JsonNode v : ProviderVectors.of("github")) {
      HttpHeaders headers = HttpHeaders.of(Map.of(SHA1, expected(v, SHA1)));
      assertEquals("0", check(true, headers, v).id(), v.get("id").asText());
      DeliveryRejectedException e = assertThrows(DeliveryRejectedException.class, () -> check(false, headers, v));
      assertEquals(RejectionReason.SIGNATURE_MISSING, e.reason());
    }
  }

  @Test
  void gh1OfficialVectorHoldsThroughTheAdapterButIsNotJson() {
    // "Hello, World!" is GitHub's documented example, not a payload: MALFORMED proves the HMAC held
    JsonNode v = ProviderVectors.byId("GH-1");
    DeliveryRejectedException e = assertThrows(DeliveryRejectedException.class,
        () -> new GitHubAdapter().verify(delivery(v, SHA256), secrets(v), Clock.systemUTC()));
    assertEquals(RejectionReason.MALFORMED, e.reason());
    assertEquals(
        "the GitHub body cannot be read: malformed JSON at line 1, column 1; the signature holds, so the sender signed it as is",
        e.getMessage());
  }

  @Test
  void gh2IssuesOpenedIsReadWithItsEntity() {
    JsonNode v = ProviderVectors.byId("GH-2");
    WebhookEvent event = new GitHubAdapter().verify(delivery(v, SHA256), secrets(v), Clock.systemUTC());
    assertEquals("issues.opened", event.type());
    assertEquals("72d3162e-cc78-11e3-81ab-4c9367dc0958", event.eventId());
    assertEquals("12345", event.scope());
    assertEquals(Optional.of("issue:1"), event.entityKey());
    assertEquals(1_704_067_200_000_000L, event.entityVersion().getAsLong());
  }

  @Test
  void gh2AndGh3VerifyWithSha1OnlyWhenTheAdapterAllowsIt() {
    for (String id : List.of("GH-2", "GH-3")) {
      JsonNode v = ProviderVectors.byId(id);
      GitHubAdapter legacy = GitHubAdapter.builder().acceptSha1(true).build();
      assertEquals(Optional.of("0"), legacy.verify(delivery(v, SHA1), secrets(v), Clock.systemUTC()).secretId());
      DeliveryRejectedException e = assertThrows(DeliveryRejectedException.class,
          () -> new GitHubAdapter().verify(delivery(v, SHA1), secrets(v), Clock.systemUTC()));
      assertEquals(RejectionReason.SIGNATURE_MISSING, e.reason());
    }
  }

  @Test
  void gh3NonAsciiBodyKeepsItsText() {
    JsonNode v = ProviderVectors.byId("GH-3");
    WebhookEvent event = new GitHubAdapter().verify(delivery(v, SHA256), secrets(v), Clock.systemUTC());
    assertEquals("issues.edited", event.type());
    assertEquals("Café ☕ 日本語 🚀", event.payload().at("/issue/title").asText());
    assertEquals(71, event.bodyLength());
  }

  private static Secret check(boolean sha1, HttpHeaders headers, JsonNode v) {
    return new GitHubSignatureCheck(sha1).verify(headers, ByteBuffer.wrap(ProviderVectors.body(v)), secrets(v));
  }

  private static InboundDelivery delivery(JsonNode v, String signatureHeader) {
    HttpHeaders headers = HttpHeaders.builder()
        .add("Content-Type", "application/json")
        .add("X-GitHub-Event", "issues")
        .add("X-GitHub-Delivery", "72d3162e-cc78-11e3-81ab-4c9367dc0958")
        .add("X-GitHub-Hook-ID", "12345")
        .add(signatureHeader, expected(v, signatureHeader))
        .build();
    return InboundDelivery.of("POST", "/webhooks/github", headers, ProviderVectors.body(v));
  }

  private static Secrets secrets(JsonNode v) {
    return Secrets.of(v.get("secret").asText());
  }

  private static String expected(JsonNode v, String header) {
    return v.get("expected_headers").get(header).asText();
  }
}
