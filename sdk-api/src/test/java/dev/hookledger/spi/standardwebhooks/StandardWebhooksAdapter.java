package dev.hookledger.spi.standardwebhooks;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hookledger.HttpHeaders;
import dev.hookledger.InboundDelivery;
import dev.hookledger.Secrets;
import dev.hookledger.WebhookEvent;
import dev.hookledger.internal.JsonFields;
import dev.hookledger.spi.AsymmetricSignatures;
import dev.hookledger.spi.DeliveryChecks;
import dev.hookledger.spi.ProviderAdapter;
import dev.hookledger.spi.Rejections;
import dev.hookledger.spi.Signatures;
import dev.hookledger.spi.VerificationKey;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Optional;

/**
 * A fourth adapter, for Standard Webhooks (spec v1.0.0), written only from the public SPI helpers to
 * prove that the contract kit and the helpers serve a provider the built-in adapters do not cover.
 * Test-only: kept out of the test-jar.
 *
 * <p>{@code webhook-signature} is a space-separated list of {@code v1,<base64 HMAC-SHA256>} and
 * {@code v1a,<base64 Ed25519>} over {@code <webhook-id>.<webhook-timestamp>.<body>}; the HMAC key is
 * the base64-decoded {@code whsec_} secret; the timestamp window is ±300 s.
 */
public final class StandardWebhooksAdapter implements ProviderAdapter {
  static final String ID = "standard-webhooks";
  static final String SIGNATURE = "webhook-signature";
  static final String MESSAGE_ID = "webhook-id";
  static final String TIMESTAMP = "webhook-timestamp";
  private static final Duration TOLERANCE = Duration.ofMinutes(5);

  private final List<VerificationKey> publicKeys;

  public StandardWebhooksAdapter() {
    this(List.of());
  }

  StandardWebhooksAdapter(List<VerificationKey> publicKeys) {
    this.publicKeys = List.copyOf(publicKeys);
  }

  @Override
  public String id() {
    return ID;
  }

  /** Not when it verifies with public keys: then no secret is configured, and none is needed. */
  @Override
  public boolean needsSecrets() {
    return publicKeys.isEmpty();
  }

  @Override
  public WebhookEvent verify(InboundDelivery delivery, Secrets secrets, Clock clock) {
    HttpHeaders headers = delivery.headers();
    String signature = required(headers, SIGNATURE);
    String messageId = required(headers, MESSAGE_ID);
    String timestamp = required(headers, TIMESTAMP);
    if (!timestamp.matches("[0-9]{1,12}")) {
      throw Rejections.signatureMalformed(TIMESTAMP, "is not a decimal number of seconds");
    }
    List<byte[]> hmacs = new ArrayList<>();
    List<byte[]> ed25519 = new ArrayList<>();
    for (String entry : signature.split(" ")) {
      int comma = entry.indexOf(',');
      String version = comma < 0 ? entry : entry.substring(0, comma);
      Optional<byte[]> value = comma < 0 ? Optional.empty() : base64(entry.substring(comma + 1));
      if (version.equals("v1")) {
        value.filter(v -> v.length == 32).ifPresent(hmacs::add);
      } else if (version.equals("v1a")) {
        value.filter(v -> v.length == 64).ifPresent(ed25519::add);
      }
    }
    if (hmacs.isEmpty() && ed25519.isEmpty()) {
      throw Rejections.signatureMalformed(SIGNATURE, "has no well-formed v1 or v1a entry");
    }
    byte[] prefix = (messageId + "." + timestamp + ".").getBytes(StandardCharsets.UTF_8);
    String secretId = match(secrets, hmacs, ed25519, prefix, delivery.body())
        .orElseThrow(() -> Rejections.signatureMismatch(SIGNATURE, secrets, "the key is the base64 after whsec_"));
    Instant signedAt = Instant.ofEpochSecond(Long.parseLong(timestamp));
    DeliveryChecks.requireWithinTolerance(signedAt, clock, TOLERANCE, TIMESTAMP);

    byte[] body = delivery.bodyBytes();
    JsonNode payload = JsonFields.requireObject(DeliveryChecks.parseJson(body, "the body"), "the body");
    return WebhookEvent.builder()
        .provider(ID)
        .eventId(messageId)
        .type(JsonFields.requiredText(payload, "type", "the body"))
        .occurredAt(JsonFields.isoInstant(payload, "timestamp", "the body"))
        .secretId(secretId)
        .signedAt(signedAt)
        .body(body)
        .payload(payload)
        .header(MESSAGE_ID, messageId)
        .build();
  }

  private Optional<String> match(
      Secrets secrets, List<byte[]> hmacs, List<byte[]> ed25519, byte[] prefix, ByteBuffer body) {
    Optional<String> hmac =
        Signatures.matchSha256(secrets, hmacs.toArray(new byte[0][]), ByteBuffer.wrap(prefix), body)
            .map(s -> s.id());
    if (hmac.isPresent()) {
      return hmac;
    }
    for (int k = 0; k < publicKeys.size(); k++) {
      for (byte[] candidate : ed25519) {
        if (AsymmetricSignatures.verifyEd25519(publicKeys.get(k), candidate, ByteBuffer.wrap(prefix), body)) {
          return Optional.of("ed25519-key-" + k);
        }
      }
    }
    return Optional.empty();
  }

  private static String required(HttpHeaders headers, String name) {
    return headers.first(name).map(String::trim).filter(v -> !v.isEmpty())
        .orElseThrow(() -> Rejections.signatureMissing(name, "Standard Webhooks senders sign with webhook-id, webhook-timestamp and webhook-signature"));
  }

  private static Optional<byte[]> base64(String text) {
    try {
      return Optional.of(Base64.getDecoder().decode(text));
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
  }
}
