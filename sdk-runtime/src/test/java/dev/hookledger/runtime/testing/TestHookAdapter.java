package dev.hookledger.runtime.testing;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hookledger.DeliveryRejectedException;
import dev.hookledger.InboundDelivery;
import dev.hookledger.RejectionReason;
import dev.hookledger.Secret;
import dev.hookledger.Secrets;
import dev.hookledger.WebhookEvent;
import dev.hookledger.internal.Json;
import dev.hookledger.spi.ProviderAdapter;
import dev.hookledger.spi.Signatures;
import java.io.IOException;
import java.time.Clock;
import java.util.Optional;

/**
 * A minimal provider for the runtime's tests: {@code X-Test-Signature: sha256=<hex HMAC-SHA256 of
 * the body>}, the event id and type in {@code X-Test-Event-Id} and {@code X-Test-Event-Type}, the
 * tenant (and scope) in the path after {@code /{id}/}; optionally the entity key and version (for the
 * ordering guard) in {@code X-Test-Entity-Key} and {@code X-Test-Entity-Version}. Found by
 * {@code ServiceLoader} as {@code testhook}.
 */
public final class TestHookAdapter implements ProviderAdapter {
  public static final String SIGNATURE = "X-Test-Signature";
  public static final String EVENT_ID = "X-Test-Event-Id";
  public static final String EVENT_TYPE = "X-Test-Event-Type";
  public static final String ENTITY_KEY = "X-Test-Entity-Key";
  public static final String ENTITY_VERSION = "X-Test-Entity-Version";

  private final String id;

  public TestHookAdapter() {
    this("testhook");
  }

  public TestHookAdapter(String id) {
    this.id = id;
  }

  @Override
  public String id() {
    return id;
  }

  @Override
  public String tenantOf(InboundDelivery delivery) {
    String marker = "/" + id + "/";
    int at = delivery.path().indexOf(marker);
    return at < 0 ? "" : delivery.path().substring(at + marker.length());
  }

  /** Refuses a missing or malformed signature header before the body is read. */
  @Override
  public void checkHeaders(InboundDelivery delivery, Secrets secrets) {
    signatureHeader(delivery, secrets);
  }

  private String signatureHeader(InboundDelivery delivery, Secrets secrets) {
    if (secrets.isEmpty()) {
      throw reject(RejectionReason.NO_SECRET_CONFIGURED, "no secret configured for " + id);
    }
    String header = delivery.headers().first(SIGNATURE)
        .orElseThrow(() -> reject(RejectionReason.SIGNATURE_MISSING, SIGNATURE + " header is missing"));
    if (!header.startsWith("sha256=")) {
      throw reject(RejectionReason.SIGNATURE_MALFORMED, SIGNATURE + " must start with sha256=");
    }
    return header;
  }

  @Override
  public WebhookEvent verify(InboundDelivery delivery, Secrets secrets, Clock clock) {
    String header = signatureHeader(delivery, secrets);
    byte[] candidate = Signatures.decodeHex(header.substring(7), 32, SIGNATURE);
    Optional<Secret> matched = Signatures.matchSha256(secrets, new byte[][] {candidate}, delivery.body());
    if (matched.isEmpty()) {
      throw reject(RejectionReason.SIGNATURE_MISMATCH, SIGNATURE + " matches none of the configured secrets");
    }
    String eventId = required(delivery, EVENT_ID);
    String type = required(delivery, EVENT_TYPE);
    JsonNode payload;
    try {
      payload = Json.parse(delivery.bodyBytes());
    } catch (IOException e) {
      throw reject(RejectionReason.MALFORMED, "body is not JSON: " + Json.describe(e));
    }
    return WebhookEvent.builder()
        .provider(id)
        .scope(tenantOf(delivery))
        .eventId(eventId)
        .type(type)
        .secretId(matched.get().id())
        .body(delivery.bodyBytes())
        .payload(payload)
        .entityKey(delivery.headers().first(ENTITY_KEY).orElse(null))
        .entityVersion(delivery.headers().first(ENTITY_VERSION).map(Long::valueOf).orElse(null))
        .header("x-test-event-type", type)
        .build();
  }

  private static String required(InboundDelivery delivery, String name) {
    return delivery.headers().first(name).filter(v -> !v.isBlank())
        .orElseThrow(() -> reject(RejectionReason.MALFORMED, name + " header is missing"));
  }

  private static DeliveryRejectedException reject(RejectionReason reason, String message) {
    return new DeliveryRejectedException(reason, message);
  }
}
