package dev.hookledger.shopify;

import static dev.hookledger.spi.json.JsonFields.text;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hookledger.DeliveryRejectedException;
import dev.hookledger.HttpHeaders;
import dev.hookledger.RejectionReason;
import dev.hookledger.WebhookEvent;
import dev.hookledger.spi.json.JsonFields;
import dev.hookledger.spi.json.JsonSelection;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How a Shopify delivery (its headers plus the parsed payload) maps to {@link WebhookEvent} fields,
 * shared by the {@link ShopifyAdapter} and anything that rebuilds events from the same headers.
 *
 * <ul>
 *   <li>event id: see {@link ShopifyEventIdentity} ({@code X-Shopify-Webhook-Id} by default);
 *       delivery id: {@code X-Shopify-Webhook-Id};
 *   <li>scope: {@code X-Shopify-Shop-Domain} ({@code acme.myshopify.com}), as sent;
 *   <li>type: {@code X-Shopify-Topic} as sent ({@code orders/create});
 *   <li>API version: {@code X-Shopify-API-Version} ({@code 2024-07}, {@code unstable});
 *   <li>entity key: the topic's resource in the singular with the payload's {@code id}
 *       ({@code orders/create} → {@code order:820982911946154508}, exact above 2^53);
 *       {@code inventory_levels/*} → {@code inventory_level:<inventory_item_id>:<location_id>};
 *       {@code app/*} and {@code shop/*} → {@code shop:<shop domain>};
 *   <li>entity version, as microseconds: the payload's {@code updated_at} (ISO-8601 with offset,
 *       seconds; signed with the body), and nothing else. {@code app/*} and {@code shop/*} (whose
 *       payload is the shop, whose {@code updated_at} is not the event's time) and
 *       {@code *}{@code /delete} (whose payload is just the id) have no version: the only time they
 *       carry is the unsigned {@code X-Shopify-Triggered-At}, and an unsigned time must never order
 *       an entity (a forged one up to the tolerance ahead, re-posted with a captured body, made
 *       every genuine event of the shop {@code stale}). An {@code updated_at} that does not parse
 *       gives no version (with a warning), never a refusal;
 *   <li>occurred-at: {@code X-Shopify-Triggered-At} (RFC 3339), for the record only; one more
 *       than the tolerance in the future is dropped.
 * </ul>
 *
 * <p>Every header is read in both flavours, {@code X-Shopify-*} and the unprefixed {@code Shopify-*}.
 */
record ShopifyEventFields(
    String eventId,
    String scope,
    String type,
    String apiVersion,
    String entityKey,
    Long entityVersion,
    Instant occurredAt,
    String deliveryId) {

  static final String PROVIDER = "shopify";
  static final String TOPIC = "Topic";
  static final String SHOP_DOMAIN = "Shop-Domain";
  static final String API_VERSION = "API-Version";
  static final String WEBHOOK_ID = "Webhook-Id";
  static final String EVENT_ID = "Event-Id";
  static final String TRIGGERED_AT = "Triggered-At";
  private static final String WHAT = "the Shopify payload";
  private static final String SHOP_KEY = "shop:";
  private static final Logger log = LoggerFactory.getLogger(ShopifyEventFields.class);

  /**
   * The members of a payload {@link #from} reads: a received body is read for these only, the rest
   * of it (an order's line items, addresses, fulfillments) skipped.
   */
  static final JsonSelection SELECTION = JsonSelection.members()
      .whole("id").whole("updated_at").whole("inventory_item_id").whole("location_id");

  /**
   * Reads the fields from a delivery's headers and its parsed JSON payload.
   *
   * @param unsignedSkew how far in the future the unsigned {@code X-Shopify-Triggered-At} may lie
   *     and still be believed, measured on {@code clock}
   * @throws DeliveryRejectedException {@code MALFORMED} when the topic, the shop domain or every
   *     usable id header is missing, or the payload is not an object: what identifies the event.
   *     A timestamp that does not parse only leaves the event without a version.
   */
  static ShopifyEventFields from(HttpHeaders headers, JsonNode payload, ShopifyEventIdentity identity, Clock clock,
      Duration unsignedSkew) {
    JsonFields.requireObject(payload, WHAT);
    String topic = required(headers, TOPIC);
    String shop = required(headers, SHOP_DOMAIN);
    String webhookId = header(headers, WEBHOOK_ID).orElse(null);
    String eventId = eventId(headers, identity, webhookId, topic);
    Instant triggeredAt = triggeredAt(headers, clock, unsignedSkew);
    String entityKey = entityKey(topic, shop, payload);
    // only the signed updated_at orders an entity: X-Shopify-Triggered-At is unsigned (see above)
    Instant version = entityKey == null || entityKey.startsWith(SHOP_KEY) || !payload.hasNonNull("updated_at") ? null
        // signed, so believed as sent; one that does not parse is no version, never the header's
        : JsonFields.orderingInstant(payload, "updated_at", WHAT);
    return new ShopifyEventFields(
        eventId,
        shop,
        topic,
        header(headers, API_VERSION).orElse(null),
        entityKey,
        entityKey == null || version == null ? null : JsonFields.micros(version),
        triggeredAt,
        webhookId);
  }

  /** Copies these fields (and the provider id) into {@code builder}; returns it. */
  WebhookEvent.Builder applyTo(WebhookEvent.Builder builder) {
    return builder
        .provider(PROVIDER)
        .scope(scope)
        .eventId(eventId)
        .type(type)
        .apiVersion(apiVersion)
        .entityKey(entityKey)
        .entityVersion(entityVersion)
        .occurredAt(occurredAt)
        .deliveryId(deliveryId);
  }

  /**
   * {@code X-Shopify-Triggered-At}, the event's occurred-at, believed only as far as an unsigned
   * header can be: one that does not parse, or lies more than {@code skew} after now, is dropped
   * with a warning. It is never an entity version.
   */
  private static Instant triggeredAt(HttpHeaders headers, Clock clock, Duration skew) {
    Instant at = header(headers, TRIGGERED_AT).map(t -> JsonFields.orderingInstant(t, name(TRIGGERED_AT))).orElse(null);
    if (at != null && at.isAfter(clock.instant().plus(skew))) {
      log.warn("{} is more than {} s in the future; it is unsigned, so the event is recorded without it",
          name(TRIGGERED_AT), skew.getSeconds());
      return null;
    }
    return at;
  }

  /** The value of {@code X-Shopify-<suffix>}, else of the unprefixed {@code Shopify-<suffix>}. */
  static Optional<String> header(HttpHeaders headers, String suffix) {
    Optional<String> value = headers.first("X-Shopify-" + suffix).or(() -> headers.first("Shopify-" + suffix));
    return value.map(String::trim).filter(v -> !v.isEmpty());
  }

  private static String eventId(HttpHeaders headers, ShopifyEventIdentity identity, String webhookId, String topic) {
    if (identity == ShopifyEventIdentity.WEBHOOK_ID && webhookId != null) {
      return webhookId;
    }
    Optional<String> eventId = header(headers, EVENT_ID);
    if (eventId.isPresent()) {
      return eventId.get() + ":" + topic;
    }
    throw malformed(
        identity == ShopifyEventIdentity.WEBHOOK_ID
            ? "both " + name(WEBHOOK_ID) + " and " + name(EVENT_ID) + " headers are missing; Shopify sends one of them with every delivery"
            : name(EVENT_ID) + " header is missing, and this adapter identifies events by it");
  }

  private static String entityKey(String topic, String shop, JsonNode payload) {
    int slash = topic.indexOf('/');
    String resource = slash >= 0 ? topic.substring(0, slash) : topic.split("\\.", 2)[0];
    if (resource.equals("app") || resource.equals("shop")) {
      return SHOP_KEY + shop;
    }
    if (resource.equals("inventory_levels")) {
      String item = text(payload, "inventory_item_id");
      String location = text(payload, "location_id");
      return item == null || location == null ? null : "inventory_level:" + item + ":" + location;
    }
    String id = text(payload, "id");
    return id == null ? null : singular(resource) + ":" + id;
  }

  private static String singular(String resource) {
    if (resource.endsWith("ies")) {
      return resource.substring(0, resource.length() - 3) + "y";
    }
    return resource.endsWith("s") ? resource.substring(0, resource.length() - 1) : resource;
  }

  private static String required(HttpHeaders headers, String suffix) {
    return header(headers, suffix)
        .orElseThrow(() -> malformed(name(suffix) + " header is missing; Shopify sends it with every delivery"));
  }

  private static String name(String suffix) {
    return "X-Shopify-" + suffix;
  }

  private static DeliveryRejectedException malformed(String message) {
    return new DeliveryRejectedException(RejectionReason.MALFORMED, message);
  }
}
