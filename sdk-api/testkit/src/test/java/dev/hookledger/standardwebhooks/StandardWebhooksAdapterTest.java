package dev.hookledger.standardwebhooks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hookledger.DeliveryRejectedException;
import dev.hookledger.HttpHeaders;
import dev.hookledger.InboundDelivery;
import dev.hookledger.RejectionReason;
import dev.hookledger.Secrets;
import dev.hookledger.WebhookEvent;
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
  void vectorSw1WithSvixHeadersVerifiesAndItsTypelessPayloadHasTheEmptyType() {
    JsonNode v = ProviderVectors.byId("SW-1");

    WebhookEvent event = StandardWebhooksAdapter.named("clerk")
        .verify(vectorDelivery(v, StandardWebhooksAdapter.SVIX_MESSAGE_ID, StandardWebhooksAdapter.SVIX_TIMESTAMP,
            StandardWebhooksAdapter.SVIX_SIGNATURE), Secrets.of(v.get("secret").asText()), clockAt(v, 0));

    assertEquals("msg_p5jXN8AQM9LWM0D4loKWxJek", event.eventId());
    assertEquals("", event.type());
    assertEquals(java.util.Map.of("svix-id", "msg_p5jXN8AQM9LWM0D4loKWxJek"), event.headers());
  }

  @Test
  void theSvixSetIsReadFirstAndTheWebhookSetWhenTheSvixSetIsIncomplete() {
    JsonNode v = ProviderVectors.byId("SW-1");
    String good = v.at("/expected_headers/webhook-signature").asText();
    String junk = "v1," + Base64.getEncoder().encodeToString(new byte[32]);
    StandardWebhooksAdapter adapter = StandardWebhooksAdapter.named("clerk");
    Secrets secrets = Secrets.of(v.get("secret").asText());

    InboundDelivery svixGood = headers(v, "svix-signature", good, "webhook-signature", junk);
    assertEquals("msg_p5jXN8AQM9LWM0D4loKWxJek", adapter.verify(svixGood, secrets, clockAt(v, 0)).eventId());
    InboundDelivery svixJunk = headers(v, "svix-signature", junk, "webhook-signature", good);
    DeliveryRejectedException e = assertThrows(DeliveryRejectedException.class,
        () -> adapter.verify(svixJunk, secrets, clockAt(v, 0)));
    assertEquals(RejectionReason.SIGNATURE_MISMATCH, e.reason());
    assertTrue(e.getMessage().startsWith("svix-signature "), e.getMessage());

    InboundDelivery svixIncomplete = InboundDelivery.of("POST", "/webhooks/clerk", HttpHeaders.builder()
        .add("svix-id", "msg_p5jXN8AQM9LWM0D4loKWxJek")
        .add("webhook-id", "msg_p5jXN8AQM9LWM0D4loKWxJek")
        .add("webhook-timestamp", v.get("timestamp").asText())
        .add("webhook-signature", good)
        .build(), ProviderVectors.body(v));
    assertEquals("msg_p5jXN8AQM9LWM0D4loKWxJek", adapter.verify(svixIncomplete, secrets, clockAt(v, 0)).eventId());
  }

  @Test
  void theHeadersAreCheckedBeforeTheBodyInEitherSet() {
    StandardWebhooksAdapter adapter = StandardWebhooksAdapter.named("clerk");
    JsonNode v = ProviderVectors.byId("SW-1");
    adapter.checkHeaders(withoutBody(vectorDelivery(v)), Secrets.of(WHSEC));
    adapter.checkHeaders(withoutBody(vectorDelivery(v, "svix-id", "svix-timestamp", "svix-signature")), Secrets.of(WHSEC));

    DeliveryRejectedException none = assertThrows(DeliveryRejectedException.class, () -> adapter.checkHeaders(
        InboundDelivery.of("POST", "/webhooks/clerk", HttpHeaders.builder().build(), new byte[0]), Secrets.of(WHSEC)));
    assertEquals(RejectionReason.SIGNATURE_MISSING, none.reason());
    assertTrue(none.getMessage().startsWith("webhook-signature "), none.getMessage());
    DeliveryRejectedException partSvix = assertThrows(DeliveryRejectedException.class, () -> adapter.checkHeaders(
        InboundDelivery.of("POST", "/webhooks/clerk", HttpHeaders.builder().add("svix-id", "msg_1")
            .add("svix-signature", "v1,x").build(), new byte[0]), Secrets.of(WHSEC)));
    assertEquals(RejectionReason.SIGNATURE_MISSING, partSvix.reason());
    assertTrue(partSvix.getMessage().startsWith("svix-timestamp "), partSvix.getMessage());
    DeliveryRejectedException malformed = assertThrows(DeliveryRejectedException.class, () -> adapter.checkHeaders(
        InboundDelivery.of("POST", "/webhooks/clerk", HttpHeaders.builder().add("svix-id", "msg_1")
            .add("svix-timestamp", "soon").add("svix-signature", "v1,x").build(), new byte[0]), Secrets.of(WHSEC)));
    assertEquals(RejectionReason.SIGNATURE_MALFORMED, malformed.reason());
  }

  @Test
  void aPayloadWithoutTypeHasTheEmptyTypeOrTheTypeAtTheConfiguredPointer() {
    JsonNode v = ProviderVectors.byId("SW-1");
    Secrets secrets = Secrets.of(v.get("secret").asText());

    assertEquals("", StandardWebhooksAdapter.named("clerk").verify(vectorDelivery(v), secrets, clockAt(v, 0)).type());
    assertEquals("2432232314", StandardWebhooksAdapter.builder("clerk").typeField("/test").build()
        .verify(vectorDelivery(v), secrets, clockAt(v, 0)).type());

    byte[] objectType = "{\"type\":{\"name\":\"user.created\"}}".getBytes(StandardCharsets.UTF_8);
    DeliveryRejectedException e = rejection(StandardWebhooksAdapter.named("clerk"), delivery("msg_t", StandardWebhooksTestSigner
        .withSecrets(WHSEC).signatureHeader("msg_t", objectType, NOW), objectType), Secrets.of(WHSEC));
    assertEquals(RejectionReason.MALFORMED, e.reason());
    assertEquals("the clerk body's 'type' is not a string (configure typeField or singleType if this sender puts its"
        + " type elsewhere)", e.getMessage());
  }

  @Test
  void aSecretWithoutThePrefixIsBase64DecodedAsTheReferenceLibrariesDo() {
    JsonNode sw1 = ProviderVectors.byId("SW-1");
    JsonNode sw2 = ProviderVectors.byId("SW-2");
    String sw1Base64 = sw1.get("secret").asText().substring("whsec_".length());
    String sw2Base64 = sw2.get("secret").asText().substring("whsec_".length());
    StandardWebhooksAdapter adapter = StandardWebhooksAdapter.named("clerk");

    assertEquals("msg_p5jXN8AQM9LWM0D4loKWxJek", adapter.verify(vectorDelivery(sw1), Secrets.of(sw1Base64),
        clockAt(sw1, 0)).eventId());
    assertEquals("msg_vector2", adapter.verify(vectorDelivery(sw2), Secrets.of(sw2Base64), clockAt(sw2, 0)).eventId());
    // raw key bytes (0x00..0x1f), as Svix's Webhook(byte[]) takes them
    assertEquals("msg_vector2", adapter.verify(vectorDelivery(sw2), Secrets.builder()
        .add(dev.hookledger.Secret.of("raw", Base64.getDecoder().decode(sw2Base64))).build(), clockAt(sw2, 0)).eventId());
    assertEquals("msg_vector2", adapter.verify(vectorDelivery(sw2), Secrets.builder()
        .add(StandardWebhooksAdapter.secret("early", sw2Base64)).build(), clockAt(sw2, 0)).eventId());

    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> adapter.verify(vectorDelivery(sw2), Secrets.of("not base64!"), clockAt(sw2, 0)));
    assertEquals("secret '0' of provider 'clerk' is not a Standard Webhooks secret: without the whsec_ prefix, the"
        + " whole text must be base64 (copy the whole secret from the sender's dashboard)", e.getMessage());
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

    // nothing at the default 'type': accepted, with the empty type only @OnEvent("*") receives
    assertEquals("", StandardWebhooksAdapter.named("resend").verify(delivery, Secrets.of(WHSEC), clock()).type());
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

  @Test
  void aKeyShorterThan16BytesIsRefusedAtConfigurationNamingTheSecretAndTheRuleNeverTheValue() {
    StandardWebhooksAdapter adapter = StandardWebhooksAdapter.named("clerk");
    assertEquals("secret '0' of provider 'clerk' is too short for Standard Webhooks: its key (the base64 after whsec_)"
        + " decodes to 1 byte, but must be at least 16 (senders issue 24 to 64; copy the whole secret from the sender's"
        + " dashboard)", assertThrows(IllegalArgumentException.class,
            () -> adapter.checkSecrets(Secrets.of("whsec_AA=="))).getMessage());
    assertEquals("secret '0' of provider 'clerk' is too short for Standard Webhooks: its key (the whole text, base64)"
        + " decodes to 6 bytes, but must be at least 16 (senders issue 24 to 64; copy the whole secret from the sender's"
        + " dashboard)", assertThrows(IllegalArgumentException.class,
            () -> adapter.checkSecrets(Secrets.of("12345678"))).getMessage());
    assertEquals("secret '0' of provider 'clerk' is not a Standard Webhooks secret: without the whsec_ prefix, the"
        + " whole text must be base64 (copy the whole secret from the sender's dashboard)",
        assertThrows(IllegalArgumentException.class, () -> adapter.checkSecrets(Secrets.of("x"))).getMessage());
    assertEquals("secret 'raw' of provider 'clerk' is too short for Standard Webhooks: its key is 15 bytes, but must be"
        + " at least 16 (senders issue 24 to 64; copy the whole secret from the sender's dashboard)",
        assertThrows(IllegalArgumentException.class, () -> adapter.checkSecrets(Secrets.builder()
            .add(dev.hookledger.Secret.of("raw", new byte[15])).build())).getMessage());
    assertEquals("secret 'early' is too short for Standard Webhooks: its key (the base64 after whsec_) decodes to 1"
        + " byte, but must be at least 16 (senders issue 24 to 64; copy the whole secret from the sender's dashboard)",
        assertThrows(IllegalArgumentException.class,
            () -> StandardWebhooksAdapter.secret("early", "whsec_AA==")).getMessage());
    // and a delivery never reaches the HMAC with such a key, whichever door configured it
    InboundDelivery delivery = StandardWebhooksTestSigner.withSecrets(WHSEC).delivery("msg_short", BODY, NOW);
    assertThrows(IllegalArgumentException.class, () -> adapter.verify(delivery, Secrets.of("whsec_AA=="), clock()));

    // 16 bytes is the floor, and the published vectors' keys (24 and 32 bytes) pass
    adapter.checkSecrets(Secrets.of("whsec_" + Base64.getEncoder().encodeToString(new byte[16])));
    adapter.checkSecrets(Secrets.of(ProviderVectors.byId("SW-1").get("secret").asText(),
        ProviderVectors.byId("SW-2").get("secret").asText()));
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
    return vectorDelivery(v, StandardWebhooksAdapter.MESSAGE_ID, StandardWebhooksAdapter.TIMESTAMP,
        StandardWebhooksAdapter.SIGNATURE);
  }

  /** The vector's delivery with its three headers named {@code id}, {@code timestamp}, {@code signature}. */
  private static InboundDelivery vectorDelivery(JsonNode v, String id, String timestamp, String signature) {
    return InboundDelivery.of("POST", "/webhooks/clerk", HttpHeaders.builder()
        .add(id, v.get("webhook_id").asText())
        .add(timestamp, v.get("timestamp").asText())
        .add(signature, v.at("/expected_headers/webhook-signature").asText())
        .build(), ProviderVectors.body(v));
  }

  /** The vector's delivery with both header sets, each with the signature given. */
  private static InboundDelivery headers(JsonNode v, String first, String firstValue, String second, String secondValue) {
    String id = v.get("webhook_id").asText();
    String ts = v.get("timestamp").asText();
    return InboundDelivery.of("POST", "/webhooks/clerk", HttpHeaders.builder()
        .add("svix-id", id).add("svix-timestamp", ts).add(first, firstValue)
        .add("webhook-id", id).add("webhook-timestamp", ts).add(second, secondValue)
        .build(), ProviderVectors.body(v));
  }

  private static InboundDelivery withoutBody(InboundDelivery d) {
    return InboundDelivery.of(d.method(), d.path(), d.headers(), new byte[0]);
  }

  private static Clock clock() {
    return Clock.fixed(NOW, ZoneOffset.UTC);
  }

  private static Clock clockAt(JsonNode v, long offsetSeconds) {
    return Clock.fixed(Instant.ofEpochSecond(v.get("timestamp").asLong() + offsetSeconds), ZoneOffset.UTC);
  }
}
