package dev.hookledger.shopify;

import static java.util.Objects.requireNonNull;

import dev.hookledger.HttpHeaders;
import dev.hookledger.InboundDelivery;
import dev.hookledger.Secret;
import dev.hookledger.spi.Signatures;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;
import java.util.UUID;

/**
 * Signs bodies the way Shopify does and adds the headers Shopify sends, for tests and local tools.
 *
 * <pre>{@code
 * InboundDelivery d = ShopifyTestSigner.withSecret("shpss_...").shop("acme.myshopify.com")
 *     .delivery("orders/create", "{\"id\":820982911946154508,...}");
 * }</pre>
 *
 * <p>Each delivery carries {@code X-Shopify-Hmac-Sha256}, {@code X-Shopify-Topic},
 * {@code X-Shopify-Shop-Domain} (default {@value #DEFAULT_SHOP}), {@code X-Shopify-API-Version}
 * (default {@value #DEFAULT_API_VERSION}), {@code X-Shopify-Webhook-Id} and
 * {@code X-Shopify-Event-Id} (random UUIDs unless fixed), and {@code X-Shopify-Triggered-At}
 * (the current time unless fixed). {@link #unprefixed()} sends the {@code Shopify-*} flavour
 * instead, which has no Webhook-Id. Immutable and thread-safe.
 */
public final class ShopifyTestSigner {
  public static final String DEFAULT_SHOP = "hookledger-test.myshopify.com";
  public static final String DEFAULT_API_VERSION = "2024-07";
  /** Where deliveries are addressed. */
  public static final String PATH = "/webhooks/shopify";

  private final Secret secret;
  private final String shop;
  private final String apiVersion;
  private final String webhookId;
  private final String eventId;
  private final Instant triggeredAt;
  private final boolean unprefixed;

  private ShopifyTestSigner(
      Secret secret, String shop, String apiVersion, String webhookId, String eventId, Instant triggeredAt,
      boolean unprefixed) {
    this.secret = secret;
    this.shop = shop;
    this.apiVersion = apiVersion;
    this.webhookId = webhookId;
    this.eventId = eventId;
    this.triggeredAt = triggeredAt;
    this.unprefixed = unprefixed;
  }

  /** A signer with the app's client secret (used as its UTF-8 bytes). */
  public static ShopifyTestSigner withSecret(String secret) {
    requireNonNull(secret, "secret");
    return new ShopifyTestSigner(
        Secret.of("test", secret.getBytes(StandardCharsets.UTF_8)), DEFAULT_SHOP, DEFAULT_API_VERSION,
        null, null, null, false);
  }

  /** The same signer for another shop domain. */
  public ShopifyTestSigner shop(String shop) {
    return new ShopifyTestSigner(secret, requireNonNull(shop, "shop"), apiVersion, webhookId, eventId, triggeredAt, unprefixed);
  }

  /** The same signer sending this API version. */
  public ShopifyTestSigner apiVersion(String apiVersion) {
    return new ShopifyTestSigner(secret, shop, requireNonNull(apiVersion, "apiVersion"), webhookId, eventId, triggeredAt, unprefixed);
  }

  /** The same signer sending this Webhook-Id on every delivery (as a retry does). */
  public ShopifyTestSigner webhookId(String webhookId) {
    return new ShopifyTestSigner(secret, shop, apiVersion, requireNonNull(webhookId, "webhookId"), eventId, triggeredAt, unprefixed);
  }

  /** The same signer sending this Event-Id on every delivery. */
  public ShopifyTestSigner eventId(String eventId) {
    return new ShopifyTestSigner(secret, shop, apiVersion, webhookId, requireNonNull(eventId, "eventId"), triggeredAt, unprefixed);
  }

  /** The same signer sending this Triggered-At on every delivery. */
  public ShopifyTestSigner triggeredAt(Instant triggeredAt) {
    return new ShopifyTestSigner(secret, shop, apiVersion, webhookId, eventId, requireNonNull(triggeredAt, "triggeredAt"), unprefixed);
  }

  /** The same signer sending the unprefixed {@code Shopify-*} header flavour, without a Webhook-Id. */
  public ShopifyTestSigner unprefixed() {
    return new ShopifyTestSigner(secret, shop, apiVersion, webhookId, eventId, triggeredAt, true);
  }

  /** The {@code X-Shopify-Hmac-Sha256} value for {@code body}. */
  public String hmac(byte[] body) {
    return Base64.getEncoder().encodeToString(Signatures.hmacSha256(secret, ByteBuffer.wrap(body)));
  }

  /** A complete delivery of {@code topic} ({@code orders/create}) with a UTF-8 {@code body}. */
  public InboundDelivery delivery(String topic, String body) {
    return signed(topic, body.getBytes(StandardCharsets.UTF_8));
  }

  /** A complete delivery of {@code topic} with {@code body}'s exact bytes. */
  public InboundDelivery delivery(String topic, byte[] body) {
    return signed(topic, body.clone());
  }

  private InboundDelivery signed(String topic, byte[] body) {
    String prefix = unprefixed ? "Shopify-" : "X-Shopify-";
    HttpHeaders.Builder headers =
        HttpHeaders.builder()
            .add("Content-Type", "application/json")
            .add("User-Agent", "Shopify-Captain-Hook")
            .add(prefix + ShopifyAdapter.HMAC, hmac(body))
            .add(prefix + ShopifyEventFields.TOPIC, requireNonNull(topic, "topic"))
            .add(prefix + ShopifyEventFields.SHOP_DOMAIN, shop)
            .add(prefix + ShopifyEventFields.API_VERSION, apiVersion)
            .add(prefix + ShopifyEventFields.EVENT_ID, eventId != null ? eventId : UUID.randomUUID().toString())
            .add(prefix + ShopifyEventFields.TRIGGERED_AT, (triggeredAt != null ? triggeredAt : Instant.now()).toString());
    if (!unprefixed) {
      headers.add(prefix + ShopifyEventFields.WEBHOOK_ID, webhookId != null ? webhookId : UUID.randomUUID().toString());
    }
    return InboundDelivery.of("POST", PATH, headers.build(), body);
  }
}
