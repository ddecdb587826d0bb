package dev.hookledger.spi.standardwebhooks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hookledger.DeliveryRejectedException;
import dev.hookledger.InboundDelivery;
import dev.hookledger.RejectionReason;
import dev.hookledger.Secret;
import dev.hookledger.Secrets;
import dev.hookledger.WebhookEvent;
import dev.hookledger.spi.ProviderAdapter;
import dev.hookledger.spi.PublicKeys;
import dev.hookledger.spi.testkit.AdapterContractTest;
import dev.hookledger.spi.testkit.ProviderVectors;
import dev.hookledger.standardwebhooks.StandardWebhooksAdapter;
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
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The contract kit applied to a fourth provider, Standard Webhooks, built from the SPI helpers
 * alone; plus its published vectors and an Ed25519 ({@code v1a}) delivery.
 */
class StandardWebhooksAdapterContractTest extends AdapterContractTest {

  @Override
  protected ProviderAdapter adapter() {
    return new StandardWebhooksAdapter();
  }

  @Override
  protected String signatureHeader() {
    return StandardWebhooksAdapter.SIGNATURE;
  }

  @Override
  protected InboundDelivery sign(String secret, byte[] body, Instant signedAt) {
    return StandardWebhooksTestSigner.sign(secret, "msg_contract", signedAt, body);
  }

  @Override
  protected String validBody() {
    return "{\"type\":\"invoice.paid\",\"timestamp\":\"2024-06-01T12:00:00Z\",\"data\":{\"id\":\"in_1\"}}";
  }

  @Override
  protected String nonAsciiBody() {
    return "{\"type\":\"customer.renamed\",\"timestamp\":\"2024-06-01T12:00:00Z\",\"data\":{\"name\":\"Zoë 東京 🚀\"}}";
  }

  @Override
  protected Optional<Duration> timestampTolerance() {
    return Optional.of(Duration.ofMinutes(5));
  }

  @Override
  protected Set<String> identifyingFields() {
    return Set.of("/type");
  }

  @Override
  protected String secretValue(String name) {
    byte[] key = Arrays.copyOf(("contract-key-" + name).getBytes(StandardCharsets.UTF_8), 32);
    return "whsec_" + Base64.getEncoder().encodeToString(key);
  }

  @Override
  protected Secret secret(String id, String value) {
    return StandardWebhooksTestSigner.secret(id, value);
  }

  @Test
  void officialVectorSw1WithoutATypeIsAcceptedWithTheEmptyType() {
    JsonNode v = ProviderVectors.byId("SW-1");
    Secrets secrets = Secrets.builder().add(secret("sw1", v.get("secret").asText())).build();

    // the spec only recommends a type: the event is recorded, and only @OnEvent("*") receives it
    WebhookEvent event = new StandardWebhooksAdapter().verify(vectorDelivery(v), secrets, clockAt(v, 0));

    assertEquals("msg_p5jXN8AQM9LWM0D4loKWxJek", event.eventId());
    assertEquals("", event.type());
    assertEquals(Optional.of("sw1"), event.secretId());
  }

  @Test
  void computedVectorSw2IsAccepted() {
    JsonNode v = ProviderVectors.byId("SW-2");
    Secrets secrets = Secrets.builder().add(secret("sw2", v.get("secret").asText())).build();

    WebhookEvent event = new StandardWebhooksAdapter().verify(vectorDelivery(v), secrets, clockAt(v, 0));

    assertEquals("msg_vector2", event.eventId());
    assertEquals("invoice.paid", event.type());
    assertEquals(Optional.of("sw2"), event.secretId());
    assertEquals(Optional.of(Instant.parse("2024-01-01T00:00:00Z")), event.occurredAt());
  }

  @Test
  void vectorSw2IsRejectedOneSecondBeyondTheWindowOnEitherSide() {
    JsonNode v = ProviderVectors.byId("SW-2");
    Secrets secrets = Secrets.builder().add(secret("sw2", v.get("secret").asText())).build();
    StandardWebhooksAdapter adapter = new StandardWebhooksAdapter();
    adapter.verify(vectorDelivery(v), secrets, clockAt(v, 300));
    adapter.verify(vectorDelivery(v), secrets, clockAt(v, -300));
    for (int offset : new int[] {301, -301}) {
      DeliveryRejectedException e = assertThrows(
          DeliveryRejectedException.class,
          () -> adapter.verify(vectorDelivery(v), secrets, clockAt(v, offset)));
      assertEquals(RejectionReason.TIMESTAMP_OUT_OF_TOLERANCE, e.reason());
    }
  }

  @Test
  void ed25519V1aSignatureVerifiesWithAGeneratedKey() throws Exception {
    KeyPair pair = KeyPairGenerator.getInstance("Ed25519").generateKeyPair();
    byte[] body = utf8(validBody());
    long ts = NOW.getEpochSecond();
    Signature jdk = Signature.getInstance("Ed25519");
    jdk.initSign(pair.getPrivate());
    jdk.update(StandardWebhooksTestSigner.prefix("msg_ed", ts).array());
    jdk.update(body);
    String header = "v1a," + Base64.getEncoder().encodeToString(jdk.sign());
    StandardWebhooksAdapter adapter = StandardWebhooksAdapter.builder(StandardWebhooksAdapter.DEFAULT_ID)
        .publicKey("ed25519-key-0", PublicKeys.fromDer(pair.getPublic().getEncoded()))
        .build();

    WebhookEvent event = adapter.verify(
        StandardWebhooksTestSigner.delivery("msg_ed", ts, header, body), Secrets.none(), clock());
    assertEquals(Optional.of("ed25519-key-0"), event.secretId());

    byte[] tampered = body.clone();
    tampered[3] ^= 0x01;
    assertEquals(RejectionReason.SIGNATURE_MISMATCH,
        assertThrows(DeliveryRejectedException.class,
            () -> adapter.verify(StandardWebhooksTestSigner.delivery("msg_ed", ts, header, tampered),
                Secrets.none(), clock())).reason());
  }

  private String expectRejectionAt(JsonNode v, InboundDelivery delivery, Secrets secrets, RejectionReason reason) {
    DeliveryRejectedException e = assertThrows(
        DeliveryRejectedException.class,
        () -> new StandardWebhooksAdapter().verify(delivery, secrets, clockAt(v, 0)));
    assertEquals(reason, e.reason(), e.getMessage());
    return e.getMessage();
  }

  private static InboundDelivery vectorDelivery(JsonNode v) {
    return StandardWebhooksTestSigner.delivery(
        v.get("webhook_id").asText(), v.get("timestamp").asLong(),
        v.get("expected_headers").get("webhook-signature").asText(), ProviderVectors.body(v));
  }

  private static Clock clockAt(JsonNode v, long offsetSeconds) {
    return Clock.fixed(Instant.ofEpochSecond(v.get("timestamp").asLong() + offsetSeconds), ZoneOffset.UTC);
  }
}
