package dev.hookledger.shopify;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hookledger.HttpHeaders;
import dev.hookledger.InboundDelivery;
import dev.hookledger.Secret;
import dev.hookledger.Secrets;
import dev.hookledger.WebhookEvent;
import dev.hookledger.spi.DeliveryChecks;
import dev.hookledger.spi.ProviderAdapter;
import dev.hookledger.spi.Rejections;
import dev.hookledger.spi.Signatures;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * Verifies Shopify webhook deliveries ({@code X-Shopify-Hmac-Sha256}) and reads their headers.
 *
 * <pre>{@code
 * ProviderAdapter shopify = new ShopifyAdapter();
 * ProviderAdapter perAction = ShopifyAdapter.builder()
 *     .identity(ShopifyEventIdentity.EVENT_ID_AND_TOPIC).build();
 * }</pre>
 *
 * <p>Verification: the header is the standard base64 (with padding) of the HMAC-SHA256 of the raw
 * body, keyed with the app's client secret as UTF-8, compared in constant time. Shopify sends one
 * signature and can take up to an hour to switch to a rotated secret, so configure the new and the
 * old secret together for that hour. Shopify signs no timestamp ({@code X-Shopify-Triggered-At} is
 * not signed), so there is no tolerance window. Ordering uses the signed payload's
 * {@code updated_at} only: the unsigned header is the event's occurred-at and never its entity
 * version, so that no forged time can freeze an entity's ordering. The module's README lists what
 * is signed and what is not.
 *
 * <p>Both header flavours are read: {@code X-Shopify-*} and the unprefixed {@code Shopify-*} of
 * Shopify's newer "Events" deliveries.
 *
 * <p>Identity: by default the ledger's event id is {@code X-Shopify-Webhook-Id}, which names one
 * delivery (one event sent to one subscription) and which Shopify's docs say to deduplicate on; its
 * retries keep it. See {@link ShopifyEventIdentity} for the alternative. Scope and tenant: the shop
 * domain, so one app's events from different shops never collide and a
 * {@link dev.hookledger.SecretResolver} can answer per shop. Other fields: {@link ShopifyEventFields}.
 *
 * <p>Immutable and thread-safe.
 */
public final class ShopifyAdapter implements ProviderAdapter {
  /** The provider id, {@code shopify}. */
  public static final String ID = ShopifyEventFields.PROVIDER;
  /** Shopify publishes no body limit: 5 MiB, like any adapter that does not say otherwise. */
  public static final int DEFAULT_MAX_BODY_BYTES = 5 * 1024 * 1024;
  /** How far in the future the unsigned {@code X-Shopify-Triggered-At} is believed by default: 300 s. */
  public static final Duration DEFAULT_TRIGGERED_AT_TOLERANCE = Duration.ofSeconds(300);

  static final String HMAC = "Hmac-Sha256";
  private static final String HMAC_HEADER = "X-Shopify-" + HMAC;
  private static final String MISMATCH_HINT =
      "the key is the app's client secret (API secret key); after a rotation Shopify may sign with the old"
          + " one for up to an hour, and webhooks a merchant created in the admin are signed with another key";
  /** Header suffixes kept as evidence, in whichever flavour they arrived. */
  private static final List<String> EVIDENCE =
      List.of(
          ShopifyEventFields.TOPIC,
          ShopifyEventFields.SHOP_DOMAIN,
          ShopifyEventFields.API_VERSION,
          ShopifyEventFields.WEBHOOK_ID,
          ShopifyEventFields.EVENT_ID,
          ShopifyEventFields.TRIGGERED_AT,
          "Name",
          "Sub-Topic");

  private final ShopifyEventIdentity identity;
  private final int maxBodyBytes;
  private final Duration triggeredAtTolerance;

  /** An adapter with the defaults: ids from {@code X-Shopify-Webhook-Id}, body limit 5 MiB. */
  public ShopifyAdapter() {
    this(builder());
  }

  private ShopifyAdapter(Builder builder) {
    this.identity = builder.identity;
    this.maxBodyBytes = builder.maxBodyBytes;
    this.triggeredAtTolerance = builder.triggeredAtTolerance;
  }

  public static Builder builder() {
    return new Builder();
  }

  @Override
  public String id() {
    return ID;
  }

  /** 32: an app's client secret is 32 hex digits (newer apps prefix them with {@code shpss_}). */
  @Override
  public int minimumSecretLength() {
    return 32;
  }

  @Override
  public int maxBodyBytes() {
    return maxBodyBytes;
  }

  /** True: a resource belongs to one shop: its events all carry that shop as their scope. */
  @Override
  public boolean entitiesStayInScope() {
    return true;
  }

  /** Which header the ledger's event id comes from. */
  public ShopifyEventIdentity identity() {
    return identity;
  }

  /** The shop domain ({@code X-Shopify-Shop-Domain}), or empty. */
  @Override
  public String tenantOf(InboundDelivery delivery) {
    return ShopifyEventFields.header(delivery.headers(), ShopifyEventFields.SHOP_DOMAIN).orElse("");
  }

  /**
   * Refuses, before the body is read, a delivery with no well-formed HMAC (a shop without a secret
   * is the runtime's to refuse, before this is called).
   */
  @Override
  public void checkHeaders(InboundDelivery delivery, Secrets secrets) {
    expectedHmac(delivery.headers());
  }

  @Override
  public WebhookEvent verify(InboundDelivery delivery, Secrets secrets, Clock clock) {
    HttpHeaders headers = delivery.headers();
    byte[] expected = expectedHmac(headers);
    Secret secret =
        Signatures.matchSha256(secrets, new byte[][] {expected}, delivery.body())
            .orElseThrow(() -> Rejections.signatureMismatch(HMAC_HEADER, secrets, MISMATCH_HINT));

    byte[] body = delivery.bodyBytes();
    // only the members that identify the event are kept: the payload's tree is built when a handler asks
    JsonNode identityFields = ShopifyEventFields.SELECTION.readBody(body, "the Shopify body");
    WebhookEvent.Builder event =
        ShopifyEventFields.from(headers, identityFields, identity, clock, triggeredAtTolerance)
            .applyTo(WebhookEvent.builder())
            .secretId(secret.id())
            .body(body);
    for (String suffix : EVIDENCE) {
      keep(headers, "X-Shopify-" + suffix, event);
      keep(headers, "Shopify-" + suffix, event);
    }
    keep(headers, "User-Agent", event);
    return event.build();
  }

  private static byte[] expectedHmac(HttpHeaders headers) {
    String hmac =
        ShopifyEventFields.header(headers, HMAC)
            .orElseThrow(() -> Rejections.signatureMissing(
                HMAC_HEADER, "the request was not sent by Shopify, or a proxy removed the header"));
    return Signatures.decodeBase64(hmac, 32, HMAC_HEADER);
  }

  private static void keep(HttpHeaders headers, String name, WebhookEvent.Builder event) {
    Optional<String> value = headers.first(name);
    value.ifPresent(v -> event.header(name, v));
  }

  @Override
  public String toString() {
    return "ShopifyAdapter[identity=" + identity + ", maxBodyBytes=" + maxBodyBytes + ", triggeredAtTolerance="
        + triggeredAtTolerance + "]";
  }

  /** Options for a {@link ShopifyAdapter}; not thread-safe. */
  public static final class Builder {
    private ShopifyEventIdentity identity = ShopifyEventIdentity.WEBHOOK_ID;
    private int maxBodyBytes = DEFAULT_MAX_BODY_BYTES;
    private Duration triggeredAtTolerance = DEFAULT_TRIGGERED_AT_TOLERANCE;

    private Builder() {}

    /** Which header becomes the ledger's event id; {@link ShopifyEventIdentity#WEBHOOK_ID} by default. */
    public Builder identity(ShopifyEventIdentity identity) {
      this.identity = requireNonNull(identity, "identity");
      return this;
    }

    /** The largest body accepted, in bytes; at least 1. */
    public Builder maxBodyBytes(int maxBodyBytes) {
      this.maxBodyBytes = DeliveryChecks.requireBodyLimit(maxBodyBytes);
      return this;
    }

    /**
     * How far in the future {@code X-Shopify-Triggered-At} may lie and still give an event its
     * occurred-at; at least one second; default {@link #DEFAULT_TRIGGERED_AT_TOLERANCE}. The header
     * is not signed, so a later one is dropped (with a warning). It never orders an entity, whatever
     * this tolerance.
     */
    public Builder triggeredAtTolerance(Duration tolerance) {
      requireNonNull(tolerance, "tolerance");
      if (tolerance.getSeconds() < 1) {
        throw new IllegalArgumentException("triggeredAtTolerance must be at least 1 second, but was " + tolerance);
      }
      this.triggeredAtTolerance = tolerance;
      return this;
    }

    public ShopifyAdapter build() {
      return new ShopifyAdapter(this);
    }
  }
}
