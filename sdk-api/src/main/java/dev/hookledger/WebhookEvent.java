package dev.hookledger;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hookledger.internal.Json;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * A verified webhook event: who sent it, its identity, type and versions, and the exact bytes that
 * were signed. Produced by a {@link dev.hookledger.spi.ProviderAdapter} once the signature holds,
 * recorded in the ledger under {@code (provider, scope, eventId)}, and handed to {@link OnEvent}
 * methods.
 *
 * <p>Immutable and thread-safe. The payload is parsed lazily, once, on first use; {@link #payload()}
 * hands each caller a copy of its own, so that one handler changing its tree changes nothing for
 * the event or the handlers after it.
 */
public final class WebhookEvent {
  private final String provider;
  private final String scope;
  private final String eventId;
  private final String type;
  private final String apiVersion;
  private final String entityKey;
  private final Long entityVersion;
  private final Instant occurredAt;
  private final Boolean livemode;
  private final String deliveryId;
  private final String secretId;
  private final Instant signedAt;
  // read without the defensive copy of body() and payloadJson() by the ledger writer, through
  // dev.hookledger.internal.EventBytes: keep these field names
  private final byte[] body;
  private final byte[] payloadJson;
  private final Map<String, String> headers;
  private volatile JsonNode payload;

  private WebhookEvent(Builder b) {
    this.provider = requireText(b.provider, "provider");
    this.scope = b.scope == null ? "" : b.scope;
    this.eventId = requireText(b.eventId, "eventId");
    // empty only where the provider's payload names no type (Standard Webhooks only recommends one)
    this.type = requireNonNull(b.type, "type");
    this.apiVersion = b.apiVersion;
    this.entityKey = b.entityKey;
    this.entityVersion = b.entityVersion;
    this.occurredAt = b.occurredAt;
    this.livemode = b.livemode;
    this.deliveryId = b.deliveryId;
    this.secretId = b.secretId;
    this.signedAt = b.signedAt;
    this.body = requireNonNull(b.body, "body");
    this.payloadJson = b.payloadJson == null ? b.body : b.payloadJson;
    this.headers = Map.copyOf(b.headers);
    this.payload = b.payload;
    if (entityVersion != null && entityKey == null) {
      throw new IllegalArgumentException("entityVersion needs an entityKey");
    }
  }

  public static Builder builder() {
    return new Builder();
  }

  /**
   * A builder holding every field of this event, to build a changed copy; this event is not
   * changed. Where the copy is given a new {@link Builder#body body} or {@link Builder#payloadJson
   * payloadJson}, its payload is read from the new bytes (an unwrapped payload follows the new body).
   * Never null.
   */
  public Builder toBuilder() {
    Builder b = new Builder();
    b.provider = provider;
    b.scope = scope;
    b.eventId = eventId;
    b.type = type;
    b.apiVersion = apiVersion;
    b.entityKey = entityKey;
    b.entityVersion = entityVersion;
    b.occurredAt = occurredAt;
    b.livemode = livemode;
    b.deliveryId = deliveryId;
    b.secretId = secretId;
    b.signedAt = signedAt;
    // shared, not copied: neither the event nor the builder ever writes into these arrays
    b.body = body;
    b.payloadJson = payloadWrapped() ? payloadJson : null;
    b.headers.putAll(headers);
    b.payload = payload;
    b.payloadInherited = true;
    return b;
  }

  /** The adapter id: {@code stripe}, {@code github}, {@code shopify}, ... Never null. */
  public String provider() {
    return provider;
  }

  /**
   * What makes {@link #eventId()} unique within the provider: the GitHub hook id, the Shopify shop
   * domain, the Stripe connected account. Empty (never null) where the id is unique on its own.
   */
  public String scope() {
    return scope;
  }

  /** The provider's id of this event, the same on every retry. Never null. */
  public String eventId() {
    return eventId;
  }

  /**
   * The canonical type: {@code invoice.paid}, {@code issues.opened}, {@code orders/create}. Never
   * null; empty for a Standard Webhooks payload that names no type, which only {@code @OnEvent("*")}
   * receives.
   */
  public String type() {
    return type;
  }

  /** The provider's payload version ({@code 2024-06-20}, {@code 2024-07}), where it sends one. */
  public Optional<String> apiVersion() {
    return Optional.ofNullable(apiVersion);
  }

  /** The entity this event changes ({@code subscription:sub_123}), for the ordering guard. */
  public Optional<String> entityKey() {
    return Optional.ofNullable(entityKey);
  }

  /**
   * A number that grows with the entity's state; the built-in adapters use the time of the change
   * in microseconds since the epoch. Events with equal versions cannot be ordered and are never
   * treated as stale.
   */
  public OptionalLong entityVersion() {
    return entityVersion == null ? OptionalLong.empty() : OptionalLong.of(entityVersion);
  }

  /** When the provider says the event happened, where it says so. */
  public Optional<Instant> occurredAt() {
    return Optional.ofNullable(occurredAt);
  }

  /** Live or test mode, where the provider marks it (Stripe's {@code livemode}). */
  public Optional<Boolean> livemode() {
    return Optional.ofNullable(livemode);
  }

  /** The id of this one delivery attempt or subscription delivery, where the provider sends one. */
  public Optional<String> deliveryId() {
    return Optional.ofNullable(deliveryId);
  }

  /**
   * The id of the secret whose signature matched (see {@link Secrets}); empty for events that were
   * fetched from a provider's API by replay rather than received signed.
   */
  public Optional<String> secretId() {
    return Optional.ofNullable(secretId);
  }

  /** The timestamp covered by the signature, for schemes that sign one (Stripe). */
  public Optional<Instant> signedAt() {
    return Optional.ofNullable(signedAt);
  }

  /** A copy of the exact bytes that were received and signed. */
  public byte[] body() {
    return Arrays.copyOf(body, body.length);
  }

  /** The size of the received body in bytes. */
  public int bodyLength() {
    return body.length;
  }

  /**
   * A copy of the JSON document the payload is read from: the body itself, except where the
   * provider wraps it (GitHub's form-encoded {@code payload=} deliveries).
   */
  public byte[] payloadJson() {
    return Arrays.copyOf(payloadJson, payloadJson.length);
  }

  /** Whether {@link #payloadJson()} differs from {@link #body()}. */
  public boolean payloadWrapped() {
    return payloadJson != body;
  }

  /** Headers the adapter chose to keep as evidence (lower-case names). Never holds a signature or secret. */
  public Map<String, String> headers() {
    return headers;
  }

  /**
   * The payload as a JSON tree: a copy of its own for each call (Jackson's trees are mutable, and
   * every handler of an event asks for it), so changing it changes nothing for anyone else. To read
   * the payload as a class or record, {@link #payloadAs} makes no copy.
   *
   * @throws WebhookException if the payload is not JSON (adapters reject such deliveries, so this
   *     only happens for hand-built events)
   */
  public JsonNode payload() {
    return tree().deepCopy();
  }

  /**
   * The one parsed tree, shared: never handed out but to the runtime's payload parameters, which
   * only read it (through {@code dev.hookledger.internal.PayloadTree}: keep this method's name).
   */
  private JsonNode tree() {
    JsonNode p = payload;
    if (p == null) {
      try {
        p = Json.parse(payloadJson);
      } catch (IOException e) {
        throw new WebhookException(
            "payload of " + provider + " event " + eventId + " is not JSON: " + Json.describe(e), e);
      }
      payload = p;
    }
    return p;
  }

  /** The payload mapped by Jackson to {@code type}; unknown properties are ignored. */
  public <T> T payloadAs(Class<T> type) {
    try {
      return Json.MAPPER.treeToValue(tree(), type);
    } catch (IOException e) {
      throw new WebhookException(
          "payload of " + provider + " event " + eventId + " cannot be read as " + type.getName()
              + ": " + Json.describe(e), e);
    }
  }

  /** The payload as UTF-8 text. */
  public String payloadText() {
    return new String(payloadJson, StandardCharsets.UTF_8);
  }

  /** Identity and type only: payloads never reach a log through this. */
  @Override
  public String toString() {
    return provider + " event " + eventId + (scope.isEmpty() ? "" : " (" + scope + ")") + " " + type;
  }

  private static String requireText(String s, String name) {
    requireNonNull(s, name);
    if (s.isEmpty()) {
      throw new IllegalArgumentException(name + " must not be empty");
    }
    return s;
  }

  /** Builds a {@link WebhookEvent}; used by adapters and by the runtime when it reloads events. */
  public static final class Builder {
    private String provider;
    private String scope;
    private String eventId;
    private String type;
    private String apiVersion;
    private String entityKey;
    private Long entityVersion;
    private Instant occurredAt;
    private Boolean livemode;
    private String deliveryId;
    private String secretId;
    private Instant signedAt;
    private byte[] body;
    private byte[] payloadJson;
    private JsonNode payload;
    // set by toBuilder(): the parsed tree belongs to the copied bytes, so new bytes drop it
    private boolean payloadInherited;
    private final Map<String, String> headers = new LinkedHashMap<>();

    private Builder() {}

    public Builder provider(String provider) { this.provider = provider; return this; }

    public Builder scope(String scope) { this.scope = scope; return this; }

    public Builder eventId(String eventId) { this.eventId = eventId; return this; }

    public Builder type(String type) { this.type = type; return this; }

    public Builder apiVersion(String apiVersion) { this.apiVersion = apiVersion; return this; }

    public Builder entityKey(String entityKey) { this.entityKey = entityKey; return this; }

    public Builder entityVersion(Long entityVersion) { this.entityVersion = entityVersion; return this; }

    public Builder occurredAt(Instant occurredAt) { this.occurredAt = occurredAt; return this; }

    public Builder livemode(Boolean livemode) { this.livemode = livemode; return this; }

    public Builder deliveryId(String deliveryId) { this.deliveryId = deliveryId; return this; }

    public Builder secretId(String secretId) { this.secretId = secretId; return this; }

    public Builder signedAt(Instant signedAt) { this.signedAt = signedAt; return this; }

    /** The exact received bytes; the array is taken over, not copied. */
    public Builder body(byte[] body) {
      this.body = body;
      dropInheritedPayload();
      return this;
    }

    /** The JSON document, when it is not the body itself; the array is taken over. */
    public Builder payloadJson(byte[] payloadJson) {
      this.payloadJson = payloadJson;
      dropInheritedPayload();
      return this;
    }

    /** The already-parsed payload, so that it is not parsed twice. */
    public Builder payload(JsonNode payload) {
      this.payload = payload;
      this.payloadInherited = false;
      return this;
    }

    private void dropInheritedPayload() {
      if (payloadInherited) {
        payload = null;
        payloadInherited = false;
      }
    }

    /** Keeps one header as evidence; never a signature or secret. */
    public Builder header(String name, String value) {
      headers.put(requireNonNull(name, "name").toLowerCase(java.util.Locale.ROOT), requireNonNull(value, "value"));
      return this;
    }

    public WebhookEvent build() {
      return new WebhookEvent(this);
    }
  }
}
