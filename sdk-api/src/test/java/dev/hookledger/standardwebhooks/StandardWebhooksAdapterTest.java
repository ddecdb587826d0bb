package dev.hookledger.standardwebhooks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hookledger.DeliveryRejectedException;
import dev.hookledger.HttpHeaders;
import dev.hookledger.InboundDelivery;
import dev.hookledger.RejectionReason;
import dev.hookledger.Secrets;
import dev.hookledger.WebhookEvent;
import dev.hookledger.spi.PublicKeys;
import dev.hookledger.spi.testkit.ProviderVectors;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.Signature;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.Base64;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The production Standard Webhooks adapter beyond the contract kit: the published vectors with
 * secrets as operators configure them, any provider id, several signatures in one header, where
 * the type comes from, Ed25519 keys, and configuration mistakes named at configuration time.
 */
class StandardWebhooksAdapterTest {
  private static final Instant NOW = Instant.parse("2024-06-01T12:00:00Z");
  private static final String WHSEC = "whsec_" + Base64.getEncoder().encodeToString(
      "0123456789abcdef0123456789abcdef".getBytes(StandardCharsets.US_ASCII));
  private static final String OTHER = "whsec_" + Base64.getEncoder().encodeToString(
      "fedcba9876543210fedcba9876543210".getBytes(StandardCharsets.US_ASCII));
  private static final String BODY = "{\"type\":\"user.created\",\"timestamp\":\"2024-06-01T11:59:58Z\",\"data\":{\"id\":\"user_1\"}}";

  @Test
  void vectorSw2VerifiesWithTheWholeWhsecTextAsTheSecret() {
    JsonNode v = ProviderVectors.byId("SW-2");

    WebhookEvent event = StandardWebhooksAdapter.named("clerk")
        .verify(vectorDelivery(v), Secrets.of(v.get("secret").asText()), clockAt(v, 0));

    assertEquals("clerk", event.provider());
    assertEquals("msg_vector2", event.eventId());
    assertEquals("", event.scope());
    assertEquals("invoice.paid", event.type());
    assertEquals(Optional.of("0"), event.secretId());
    assertEquals(Optional.of(Instant.ofEpochSecond(1704067200)), event.signedAt());
    assertEquals(Optional.of(Instant.parse("2024-01-01T00:00:00Z")), event.occurredAt());
    assertEquals(java.util.Map.of("webhook-id", "msg_vector2"), event.headers());
  }

  @Test
  void vectorSw1IsAcceptedWhenEveryEventHasOneType() {
    JsonNode v = ProviderVectors.byId("SW-1");
    StandardWebhooksAdapter adapter = StandardWebhooksAdapter.builder("svix").singleType("message").build();

    WebhookEvent event = adapter.verify(vectorDelivery(v),
        Secrets.builder().add(StandardWebhooksAdapter.secret("sw1", v.get("secret").asText())).build(), clockAt(v, 0));

    assertEquals("msg_p5jXN8AQM9LWM0D4loKWxJek", event.eventId());
    assertEquals("message", event.type());
    assertEquals(Optional.of("sw1"), event.secretId());
    assertEquals(Optional.empty(), event.occurredAt());
  }

  @Test
  void anyOfSeveralSignaturesInTheHeaderVerifiesAndTheMatchingSecretIsRecorded() {
    byte[] body = BODY.getBytes(StandardCharsets.UTF_8);
    String rotating = StandardWebhooksTestSigner.withSecrets(OTHER, WHSEC).signatureHeader("msg_1", body, NOW);
    String junk = "v1," + Base64.getEncoder().encodeToString(new byte[32]);
    String header = "v2,unknown " + junk + " v1a," + Base64.getEncoder().encodeToString(new byte[64]) + " " + rotating;
    StandardWebhooksAdapter adapter = StandardWebhooksAdapter.named("clerk");

    WebhookEvent event = adapter.verify(delivery("msg_1", header, body),
        Secrets.builder().add("current", WHSEC).build(), clock());
    assertEquals(Optional.of("current"), event.secretId());

    assertEquals(RejectionReason.SIGNATURE_MISMATCH, rejection(adapter,
        delivery("msg_1", junk + " v2,unknown", body), Secrets.of(WHSEC)).reason());
  }

  @Test
  void aHeaderWithMoreEntriesThanAnyRotationNeedsIsRefusedAsMalformed() {
    byte[] body = BODY.getBytes(StandardCharsets.UTF_8);
    String good = StandardWebhooksTestSigner.withSecrets(WHSEC).signatureHeader("msg_1", body, NOW);
    String header = (good + " ").repeat(17).trim();

    DeliveryRejectedException e = rejection(StandardWebhooksAdapter.named("clerk"), delivery("msg_1", header, body),
        Secrets.of(WHSEC));
    assertEquals(RejectionReason.SIGNATURE_MALFORMED, e.reason());
    assertEquals("webhook-signature has 17 entries; at most 16 are accepted", e.getMessage());
  }

  @Test
  void theTypeIsReadFromAConfiguredFieldOrJsonPointer() {
    String body = "{\"event_type\":\"email.sent\",\"data\":{\"kind\":\"email.bounced\"}}";
    InboundDelivery delivery = StandardWebhooksTestSigner.withSecrets(WHSEC).provider("resend").delivery("msg_t", body, NOW);

    assertEquals("email.sent", StandardWebhooksAdapter.builder("resend").typeField("event_type").build()
        .verify(delivery, Secrets.of(WHSEC), clock()).type());
    assertEquals("email.bounced", StandardWebhooksAdapter.builder("resend").typeField("/data/kind").build()
        .verify(delivery, Secrets.of(WHSEC), clock()).type());

    DeliveryRejectedException e = rejection(StandardWebhooksAdapter.named("resend"), delivery, Secrets.of(WHSEC));
    assertEquals(RejectionReason.MALFORMED, e.reason());
    assertEquals("the resend body has no 'type' (a non-empty string is required; configure typeField or singleType"
        + " if this sender puts its type elsewhere)", e.getMessage());
  }

  @Test
  void theToleranceIsConfigurableAndTwoSided() {
    StandardWebhooksAdapter adapter = StandardWebhooksAdapter.builder("clerk").tolerance(Duration.ofSeconds(60)).build();
    StandardWebhooksTestSigner signer = StandardWebhooksTestSigner.withSecrets(WHSEC);
    adapter.verify(signer.delivery("msg_w", BODY, NOW.minusSeconds(60)), Secrets.of(WHSEC), clock());
    adapter.verify(signer.delivery("msg_w", BODY, NOW.plusSeconds(60)), Secrets.of(WHSEC), clock());

    assertEquals("webhook-timestamp is 61 s old, 1 s beyond the tolerance of 60 s: the delivery may be a replay,"
        + " or this server's clock is behind (check NTP)",
        rejection(adapter, signer.delivery("msg_w", BODY, NOW.minusSeconds(61)), Secrets.of(WHSEC)).getMessage());
    assertEquals(RejectionReason.TIMESTAMP_OUT_OF_TOLERANCE,
        rejection(adapter, signer.delivery("msg_w", BODY, NOW.plusSeconds(61)), Secrets.of(WHSEC)).reason());
  }

  @Test
  void aWhpkPublicKeyVerifiesV1aSignaturesWithoutAnySecret() throws Exception {
    KeyPair pair = KeyPairGenerator.getInstance("Ed25519").generateKeyPair();
    byte[] der = pair.getPublic().getEncoded();
    String whpk = "whpk_" + Base64.getEncoder().encodeToString(Arrays.copyOfRange(der, der.length - 32, der.length));
    byte[] body = BODY.getBytes(StandardCharsets.UTF_8);
    Signature ed = Signature.getInstance("Ed25519");
    ed.initSign(pair.getPrivate());
    ed.update(("msg_ed." + NOW.getEpochSecond() + ".").getBytes(StandardCharsets.UTF_8));
    ed.update(body);
    InboundDelivery delivery = delivery("msg_ed", "v1a," + Base64.getEncoder().encodeToString(ed.sign()), body);

    StandardWebhooksAdapter keyed = StandardWebhooksAdapter.builder("acme").publicKey("2026-01", whpk).build();
    assertEquals(Optional.of("2026-01"), keyed.verify(delivery, Secrets.none(), clock()).secretId());

    assertEquals(RejectionReason.SIGNATURE_MISMATCH,
        rejection(StandardWebhooksAdapter.named("acme"), delivery, Secrets.of(WHSEC)).reason());
    // a tenant without secrets is the runtime's to refuse: the adapter says whether it needs them
    assertEquals(false, keyed.needsSecrets(), "verifies with its public keys alone");
    assertEquals(true, StandardWebhooksAdapter.named("acme").needsSecrets());
    assertEquals(RejectionReason.SIGNATURE_MISMATCH,
        rejection(StandardWebhooksAdapter.named("acme"), delivery, Secrets.none()).reason());
  }

  @Test
  void anOccurredAtThatIsNotIsoIsEvidenceLostNotADeliveryRefused() {
    String body = "{\"type\":\"user.created\",\"timestamp\":1717243200}";
    WebhookEvent event = StandardWebhooksAdapter.named("clerk")
        .verify(StandardWebhooksTestSigner.withSecrets(WHSEC).delivery("msg_o", body, NOW), Secrets.of(WHSEC), clock());
    assertEquals(Optional.empty(), event.occurredAt());
  }

  @Test
  void configurationMistakesAreNamedWithoutTheSecret() {
    assertEquals("provider id must be lower-case letters, digits and '-', starting with a letter, but was 'Clerk'",
        assertThrows(IllegalArgumentException.class, () -> StandardWebhooksAdapter.named("Clerk")).getMessage());
    IllegalArgumentException notBase64 = assertThrows(IllegalArgumentException.class,
        () -> StandardWebhooksAdapter.secret("2026-01", "whsec_not*base64"));
    assertEquals("secret '2026-01' is not a Standard Webhooks secret: the text after whsec_ must be base64"
        + " (copy the whole secret from the sender's dashboard)", notBase64.getMessage());
    assertEquals("tolerance must be >= 1 s, but was PT0S", assertThrows(IllegalArgumentException.class,
        () -> StandardWebhooksAdapter.builder("clerk").tolerance(Duration.ZERO)).getMessage());
    assertEquals("typeField must not be blank", assertThrows(IllegalArgumentException.class,
        () -> StandardWebhooksAdapter.builder("clerk").typeField(" ")).getMessage());
  }

  @Test
  void aConfiguredWhsecTextThatIsNotBase64FailsNamingTheSecretIdOnly() {
    InboundDelivery delivery = StandardWebhooksTestSigner.withSecrets(WHSEC).delivery("msg_b", BODY, NOW);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> StandardWebhooksAdapter.named("clerk").verify(delivery, Secrets.of("whsec_%%%"), clock()));
    assertEquals("secret '0' of provider 'clerk' is not a Standard Webhooks secret: the text after whsec_ must be"
        + " base64 (copy the whole secret from the sender's dashboard)", e.getMessage());
    assertFalse(e.getMessage().contains("%%%"));
  }

  private static DeliveryRejectedException rejection(StandardWebhooksAdapter adapter, InboundDelivery d, Secrets s) {
    return assertThrows(DeliveryRejectedException.class, () -> adapter.verify(d, s, clock()));
  }

  private static InboundDelivery delivery(String messageId, String signature, byte[] body) {
    return InboundDelivery.of("POST", "/webhooks/clerk", HttpHeaders.builder()
        .add(StandardWebhooksAdapter.MESSAGE_ID, messageId)
        .add(StandardWebhooksAdapter.TIMESTAMP, Long.toString(NOW.getEpochSecond()))
        .add(StandardWebhooksAdapter.SIGNATURE, signature)
        .build(), body);
  }

  private static InboundDelivery vectorDelivery(JsonNode v) {
    return InboundDelivery.of("POST", "/webhooks/clerk", HttpHeaders.builder()
        .add(StandardWebhooksAdapter.MESSAGE_ID, v.get("webhook_id").asText())
        .add(StandardWebhooksAdapter.TIMESTAMP, v.get("timestamp").asText())
        .add(StandardWebhooksAdapter.SIGNATURE, v.at("/expected_headers/webhook-signature").asText())
        .build(), ProviderVectors.body(v));
  }

  private static Clock clock() {
    return Clock.fixed(NOW, ZoneOffset.UTC);
  }

  private static Clock clockAt(JsonNode v, long offsetSeconds) {
    return Clock.fixed(Instant.ofEpochSecond(v.get("timestamp").asLong() + offsetSeconds), ZoneOffset.UTC);
  }
}
