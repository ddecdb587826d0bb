package dev.hookledger.spi;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hookledger.DeliveryRejectedException;
import dev.hookledger.RejectionReason;
import dev.hookledger.Secret;
import dev.hookledger.Secrets;
import dev.hookledger.spi.testkit.ProviderVectors;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The JDK-based HMAC helpers, checked against the official GitHub, Standard Webhooks and Slack vectors. */
class SignaturesTest {

  @Test
  void hmacSha256AndSha1MatchGitHubsOfficialVector() {
    JsonNode v = ProviderVectors.byId("GH-1");
    Secret secret = utf8Secret(v.get("secret").asText());
    ByteBuffer body = ByteBuffer.wrap(ProviderVectors.body(v));
    assertEquals(v.at("/expected_headers/X-Hub-Signature-256").asText(), "sha256=" + Signatures.hex(Signatures.hmacSha256(secret, body)));
    assertEquals(v.at("/expected_headers/X-Hub-Signature").asText(), "sha1=" + Signatures.hex(Signatures.hmacSha1(secret, body)));
  }

  @Test
  void standardWebhooksVectorsSw1AndSw2MatchWithTheBase64DecodedKey() {
    for (String id : new String[] {"SW-1", "SW-2"}) {
      JsonNode v = ProviderVectors.byId(id);
      Secret key = Secret.of(id, Base64.getDecoder().decode(v.get("secret").asText().substring("whsec_".length())));
      byte[] mac = Signatures.hmacSha256(key,
          ascii(v.get("webhook_id").asText() + "." + v.get("timestamp").asLong() + "."),
          ByteBuffer.wrap(ProviderVectors.body(v)));
      assertEquals(v.at("/expected_headers/webhook-signature").asText(), "v1," + Base64.getEncoder().encodeToString(mac), id);
    }
  }

  @Test
  void slackVectorSl1MatchesWithTheVersionedBaseString() {
    JsonNode v = ProviderVectors.byId("SL-1");
    byte[] mac = Signatures.hmacSha256(utf8Secret(v.get("secret").asText()),
        ascii("v0:" + v.get("timestamp").asLong() + ":"), ByteBuffer.wrap(ProviderVectors.body(v)));
    assertEquals(v.at("/expected_headers/X-Slack-Signature").asText(), "v0=" + Signatures.hex(mac));
  }

  @Test
  void partsAreConcatenatedAndLeftUnconsumed() {
    Secret secret = utf8Secret("k");
    ByteBuffer whole = ascii("abc.def");
    ByteBuffer left = ascii("abc.");
    ByteBuffer right = ascii("def");
    byte[] once = Signatures.hmacSha256(secret, left, right);
    assertArrayEquals(Signatures.hmacSha256(secret, whole), once);
    assertArrayEquals(once, Signatures.hmacSha256(secret, left, right), "buffers must not be consumed");
    assertEquals(0, left.position());
  }

  @Test
  void matchFindsTheFirstSecretInOrderWhoseMacIsAnyCandidate() {
    Secrets secrets = Secrets.builder().add("a", "alpha").add("b", "beta").add("c", "gamma").build();
    ByteBuffer body = ascii("payload");
    byte[] underB = Signatures.hmacSha256(utf8Secret("beta"), body);
    byte[] underC = Signatures.hmacSha256(utf8Secret("gamma"), body);
    byte[] junk = new byte[32];

    assertEquals("b", Signatures.matchSha256(secrets, new byte[][] {junk, underC, underB}, body).orElseThrow().id());
    assertEquals(Optional.empty(), Signatures.matchSha256(secrets, new byte[][] {junk}, body));
    byte[] sha1UnderA = Signatures.hmacSha1(utf8Secret("alpha"), body);
    assertEquals("a", Signatures.matchSha1(secrets, new byte[][] {sha1UnderA}, body).orElseThrow().id());
    assertEquals(Optional.empty(), Signatures.matchSha256(secrets, new byte[][] {sha1UnderA}, body));
  }

  @Test
  void equalComparesContentAndLength() {
    assertTrue(Signatures.equal(new byte[] {1, 2}, new byte[] {1, 2}));
    assertFalse(Signatures.equal(new byte[] {1, 2}, new byte[] {1, 3}));
    assertFalse(Signatures.equal(new byte[] {1, 2}, new byte[] {1, 2, 0}));
  }

  @Test
  void decodeHexAcceptsEitherCaseAndNamesWhatIsWrong() {
    assertArrayEquals(new byte[] {(byte) 0xab, 0x0f}, Signatures.decodeHex("AB0f", 2, "sig"));
    assertEquals("sig must be 4 hex characters, but was 3 characters long", malformed(() -> Signatures.decodeHex("abc", 2, "sig")));
    assertEquals("sig is not hexadecimal", malformed(() -> Signatures.decodeHex("abzz", 2, "sig")));
    // Arabic-Indic digits are digits to Character.digit, but not hex
    assertEquals("sig is not hexadecimal", malformed(() -> Signatures.decodeHex("ab\u0663\u0663", 2, "sig")));
    assertTrue(Signatures.isHex("00ff", 2));
    assertFalse(Signatures.isHex("00ff", 3));
  }

  @Test
  void decodeBase64ChecksTheDecodedLength() {
    assertArrayEquals(new byte[] {'a', 'b', 'c'}, Signatures.decodeBase64("YWJj", 3, "mac"));
    assertEquals("mac is not base64", malformed(() -> Signatures.decodeBase64("!!!", 3, "mac")));
    assertEquals("mac must decode to 32 bytes, but decoded to 3", malformed(() -> Signatures.decodeBase64("YWJj", 32, "mac")));
  }

  @Test
  void hexIsLowerCase() {
    assertEquals("00ff10", Signatures.hex(new byte[] {0, (byte) 0xff, 0x10}));
  }

  private static String malformed(org.junit.jupiter.api.function.Executable call) {
    DeliveryRejectedException e = assertThrows(DeliveryRejectedException.class, call);
    assertEquals(RejectionReason.SIGNATURE_MALFORMED, e.reason());
    return e.getMessage();
  }

  private static Secret utf8Secret(String value) {
    return Secret.of("k", value.getBytes(StandardCharsets.UTF_8));
  }

  private static ByteBuffer ascii(String s) {
    return ByteBuffer.wrap(s.getBytes(StandardCharsets.US_ASCII));
  }
}
