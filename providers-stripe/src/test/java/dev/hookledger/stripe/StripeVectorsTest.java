package dev.hookledger.stripe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hookledger.DeliveryRejectedException;
import dev.hookledger.HttpHeaders;
import dev.hookledger.InboundDelivery;
import dev.hookledger.RejectionReason;
import dev.hookledger.Secret;
import dev.hookledger.Secrets;
import dev.hookledger.WebhookEvent;
import dev.hookledger.spi.Signatures;
import dev.hookledger.spi.testkit.ProviderVectors;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Stripe's vectors ST-1 to ST-4 (the kit's provider-vectors.json), through the adapter and the test signer. */
class StripeVectorsTest {
  private final StripeAdapter adapter = new StripeAdapter();

  @Test
  void everyStripeVectorIsCovered() {
    List<String> ids = new ArrayList<>();
    ProviderVectors.of("stripe").forEach(v -> ids.add(v.get("id").asText()));
    assertEquals(List.of("ST-1", "ST-2", "ST-3", "ST-4"), ids);
  }

  @Test
  void st1IsAcceptedUpToThreeHundredSecondsAfterItsTimestamp() {
    JsonNode v = ProviderVectors.byId("ST-1");
    WebhookEvent atSigning = adapter.verify(delivery(v, header(v)), secrets(v), clockAt(1700000000));
    WebhookEvent atBoundary = adapter.verify(delivery(v, header(v)), secrets(v), clockAt(1700000300));

    assertEquals("evt_1TestVector0001", atBoundary.eventId());
    assertEquals("invoice.paid", atBoundary.type());
    assertEquals(Optional.of("2024-06-20"), atBoundary.apiVersion());
    assertEquals(Optional.of("invoice:in_1TestVector0001"), atBoundary.entityKey());
    assertEquals(1_700_000_000_000_000L, atBoundary.entityVersion().getAsLong());
    assertEquals(Optional.of(Instant.ofEpochSecond(1700000000)), atBoundary.occurredAt());
    assertEquals(Optional.of(false), atBoundary.livemode());
    assertEquals("", atBoundary.scope());
    assertEquals(Optional.of("0"), atSigning.secretId());
    assertEquals(Optional.of(Instant.ofEpochSecond(1700000000)), atSigning.signedAt());
  }

  @Test
  void st1IsRejectedOneSecondPastTheTolerance() {
    JsonNode v = ProviderVectors.byId("ST-1");
    DeliveryRejectedException e = reject(delivery(v, header(v)), secrets(v), clockAt(1700000301));
    assertEquals(RejectionReason.TIMESTAMP_OUT_OF_TOLERANCE, e.reason());
    assertEquals(
        "Stripe-Signature timestamp is 301 s old, 1 s beyond the tolerance of 300 s: the delivery may be a"
            + " replay, or this server's clock is behind (check NTP)",
        e.getMessage());
  }

  @Test
  void st1WithATimestampFarInTheFutureIsRejectedUnlikeStripesSdks() {
    // the spec notes the official SDKs accept now = 1699999000; this adapter's window is two-sided
    JsonNode v = ProviderVectors.byId("ST-1");
    DeliveryRejectedException e = reject(delivery(v, header(v)), secrets(v), clockAt(1699999000));
    assertEquals(RejectionReason.TIMESTAMP_OUT_OF_TOLERANCE, e.reason());
    assertEquals(
        "Stripe-Signature timestamp is 1000 s in the future, 700 s beyond the tolerance of 300 s: this server's"
            + " clock is behind the sender's, or the timestamp was forged (check NTP)",
        e.getMessage());
    adapter.verify(delivery(v, header(v)), secrets(v), clockAt(1699999700));
  }

  @Test
  void st2VerifiesWithEitherSecretAloneAndIgnoresTheDecoyV0() {
    JsonNode v = ProviderVectors.byId("ST-2");
    Clock clock = clockAt(1700000300);
    for (JsonNode secret : v.get("secrets")) {
      Secrets one = Secrets.builder().add("only", secret.asText()).build();
      WebhookEvent event = adapter.verify(delivery(v, header(v)), one, clock);
      assertEquals(Optional.of("only"), event.secretId());
      assertEquals("customer.subscription.updated", event.type());
      assertEquals(Optional.of("subscription:sub_1TestVector0002"), event.entityKey());
      assertEquals(1_700_000_299_000_000L, event.entityVersion().getAsLong());
      assertEquals(Optional.of(true), event.livemode());
      assertEquals(Optional.empty(), event.apiVersion());
    }
    Secrets both = secrets(v);
    assertEquals(Optional.of("0"), adapter.verify(delivery(v, header(v)), both, clock).secretId());
  }

  @Test
  void st2HeaderWithOnlyItsV0EntryHasNoSignatureOfTheExpectedScheme() {
    JsonNode v = ProviderVectors.byId("ST-2");
    String v0Only = "t=1700000300," + header(v).substring(header(v).indexOf("v0="));
    DeliveryRejectedException e = reject(delivery(v, v0Only), secrets(v), clockAt(1700000300));
    assertEquals(RejectionReason.SIGNATURE_MALFORMED, e.reason());
    assertEquals(
        "Stripe-Signature has no signature with the expected scheme v1 (v0 and other schemes are ignored)",
        e.getMessage());
  }

  @Test
  void st2DecoyV0CarryingAValidSignatureIsStillIgnored() {
    // a downgrade attempt: the valid value relabelled v0 must not be accepted
    JsonNode v = ProviderVectors.byId("ST-2");
    String firstV1 = header(v).split(",")[1].substring(3);
    DeliveryRejectedException e =
        reject(delivery(v, "t=1700000300,v0=" + firstV1), secrets(v), clockAt(1700000300));
    assertEquals(RejectionReason.SIGNATURE_MALFORMED, e.reason());
  }

  @Test
  void st3NonAsciiBodyVerifiesOverItsUtf8Bytes() {
    JsonNode v = ProviderVectors.byId("ST-3");
    byte[] body = ProviderVectors.body(v);
    assertEquals(254, body.length);

    WebhookEvent event = adapter.verify(delivery(v, header(v)), secrets(v), clockAt(1700000600));

    assertEquals("customer:cus_TestVector0003", event.entityKey().orElseThrow());
    assertEquals("Zoë Ångström", event.payload().at("/data/object/name").asText());
  }

  @Test
  void st3SignatureOfUtf16BytesDoesNotVerify() {
    JsonNode v = ProviderVectors.byId("ST-3");
    String wrong = "4f865b895b44e61512b577d25d6e3a5a9d3ee8be1f54e7107fc7d1a5c7068708";
    // the trap itself: that value is what hashing the body as UTF-16LE gives
    byte[] utf16 = v.get("body").asText().getBytes(StandardCharsets.UTF_16LE);
    Secret secret = Secret.of("k", v.get("secrets").get(0).asText().getBytes(StandardCharsets.UTF_8));
    assertEquals(wrong, Signatures.hex(Signatures.hmacSha256(
        secret, ByteBuffer.wrap("1700000600.".getBytes(StandardCharsets.US_ASCII)), ByteBuffer.wrap(utf16))));

    DeliveryRejectedException e = reject(delivery(v, "t=1700000600,v1=" + wrong), secrets(v), clockAt(1700000600));
    assertEquals(RejectionReason.SIGNATURE_MISMATCH, e.reason());
  }

  @Test
  void st4St1HeaderDoesNotVerifyABodyWithOneExtraSpace() {
    JsonNode v = ProviderVectors.byId("ST-4");
    DeliveryRejectedException e =
        reject(delivery(v, v.get("negative_header_to_reject").asText()), secrets(v), clockAt(1700000000));
    assertEquals(RejectionReason.SIGNATURE_MISMATCH, e.reason());
    assertEquals(
        "Stripe-Signature matches none of the 1 configured secret (id 0): the body was probably re-encoded or"
            + " parsed by a framework before verification (verify the exact raw bytes), or the secret is wrong;"
            + " the whsec_ prefix is part of the key, and each endpoint and each mode (test or live) has its own"
            + " secret",
        e.getMessage());
    assertEquals("evt_1TestVector0001", adapter.verify(delivery(v, header(v)), secrets(v), clockAt(1700000000)).eventId());
  }

  @Test
  void testSignerReproducesEveryVectorHeader() {
    for (JsonNode v : ProviderVectors.of("stripe")) {
      List<String> secrets = new ArrayList<>();
      v.get("secrets").forEach(s -> secrets.add(s.asText()));
      String signed = StripeTestSigner.withSecrets(secrets.toArray(new String[0]))
          .signatureHeader(ProviderVectors.body(v), Instant.ofEpochSecond(v.get("timestamp").asLong()));
      assertTrue(header(v).startsWith(signed), v.get("id").asText() + ": " + signed);
    }
  }

  private static String header(JsonNode v) {
    return v.get("expected_headers").get("Stripe-Signature").asText();
  }

  private static Secrets secrets(JsonNode v) {
    List<String> values = new ArrayList<>();
    v.get("secrets").forEach(s -> values.add(s.asText()));
    return Secrets.of(values.toArray(new String[0]));
  }

  private static InboundDelivery delivery(JsonNode v, String signature) {
    return InboundDelivery.of(
        "POST", "/webhooks/stripe", HttpHeaders.of(Map.of("Stripe-Signature", signature)), ProviderVectors.body(v));
  }

  private static Clock clockAt(long epochSecond) {
    return Clock.fixed(Instant.ofEpochSecond(epochSecond), ZoneOffset.UTC);
  }

  private DeliveryRejectedException reject(InboundDelivery delivery, Secrets secrets, Clock clock) {
    return assertThrows(DeliveryRejectedException.class, () -> adapter.verify(delivery, secrets, clock));
  }
}
