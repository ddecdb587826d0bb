package dev.hookledger.shopify;

import static dev.hookledger.spi.testkit.AdapterContractTest.withHeader;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.hookledger.DeliveryRejectedException;
import dev.hookledger.HttpHeaders;
import dev.hookledger.InboundDelivery;
import dev.hookledger.RejectionReason;
import dev.hookledger.Secrets;
import dev.hookledger.WebhookEvent;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** {@link ShopifyAdapter} beyond the contract kit: identity, header flavours, entities, messages. */
class ShopifyAdapterTest {
  private static final String SECRET = "shpss_adapter_test";
  private static final String WEBHOOK_ID = "b54557e4-bdd9-4b37-8a5f-bf7d70bcd043";
  private static final String EVENT_ID = "98880550-7158-44d4-b7cd-2c97c8a091b5";
  private static final Instant TRIGGERED = Instant.parse("2025-03-11T20:54:30.516267807Z");
  private static final String ORDER = "{\"id\":9007199254740993,\"updated_at\":\"2024-09-10T11:14:00-04:00\"}";

  private final ShopifyAdapter adapter = new ShopifyAdapter();
  private final ShopifyTestSigner signer = ShopifyTestSigner.withSecret(SECRET).shop("acme.myshopify.com")
      .webhookId(WEBHOOK_ID).eventId(EVENT_ID).triggeredAt(TRIGGERED);

  @Test
  void webhookIdIsTheEventIdByDefaultAndTheDeliveryId() {
    WebhookEvent event = verify(adapter, signer.delivery("orders/create", ORDER));
    assertEquals(WEBHOOK_ID, event.eventId());
    assertEquals(Optional.of(WEBHOOK_ID), event.deliveryId());
    assertEquals("acme.myshopify.com", event.scope());
    assertEquals(Optional.of(TRIGGERED), event.occurredAt());
  }

  @Test
  void eventIdAndTopicIdentityDeduplicatesOneMerchantActionAcrossSubscriptions() {
    ShopifyAdapter perAction = ShopifyAdapter.builder().identity(ShopifyEventIdentity.EVENT_ID_AND_TOPIC).build();
    WebhookEvent first = verify(perAction, signer.webhookId("sub-1-delivery").delivery("orders/create", ORDER));
    WebhookEvent second = verify(perAction, signer.webhookId("sub-2-delivery").delivery("orders/create", ORDER));
    assertEquals(EVENT_ID + ":orders/create", first.eventId());
    assertEquals(first.eventId(), second.eventId());
    assertEquals(Optional.of("sub-2-delivery"), second.deliveryId());
    assertEquals(ShopifyEventIdentity.EVENT_ID_AND_TOPIC, perAction.identity());
  }

  @Test
  void unprefixedHeaderFlavourIsReadAndFallsBackToEventIdAndTopic() {
    InboundDelivery d = signer.unprefixed().delivery("orders/updated", ORDER);
    WebhookEvent event = verify(adapter, d);
    assertEquals(EVENT_ID + ":orders/updated", event.eventId());
    assertEquals(Optional.empty(), event.deliveryId());
    assertEquals("acme.myshopify.com", event.scope());
    assertEquals("acme.myshopify.com", adapter.tenantOf(d));
    assertEquals(Map.of(
        "shopify-topic", "orders/updated",
        "shopify-shop-domain", "acme.myshopify.com",
        "shopify-api-version", "2024-07",
        "shopify-event-id", EVENT_ID,
        "shopify-triggered-at", "2025-03-11T20:54:30.516267807Z",
        "user-agent", "Shopify-Captain-Hook"), event.headers());
  }

  @Test
  void nonSecretHeadersAreKeptAsEvidence() {
    WebhookEvent event = verify(adapter, signer.delivery("orders/create", ORDER));
    assertEquals(Map.of(
        "x-shopify-topic", "orders/create",
        "x-shopify-shop-domain", "acme.myshopify.com",
        "x-shopify-api-version", "2024-07",
        "x-shopify-webhook-id", WEBHOOK_ID,
        "x-shopify-event-id", EVENT_ID,
        "x-shopify-triggered-at", "2025-03-11T20:54:30.516267807Z",
        "user-agent", "Shopify-Captain-Hook"), event.headers());
  }

  @Test
  void idAboveTwoToTheFiftyThreeStaysExactInTheEntityKey() {
    // 2^53 + 1 would read back as ...992 through a double
    assertEquals(Optional.of("order:9007199254740993"), verify(adapter, signer.delivery("orders/create", ORDER)).entityKey());
  }

  @Test
  void deleteWithoutUpdatedAtHasNoVersionForItsOnlyTimeIsUnsigned() {
    WebhookEvent event = verify(adapter, signer.delivery("products/delete", "{\"id\":788032119674292922}"));
    assertEquals(Optional.of("product:788032119674292922"), event.entityKey());
    assertEquals(OptionalLong.empty(), event.entityVersion());
    assertEquals(Optional.of(TRIGGERED), event.occurredAt(), "the header is still its occurred-at");
  }

  @Test
  void shopAndAppTopicsUseTheShopAsEntityAndInventoryLevelsTheirPair() {
    assertEquals(Optional.of("shop:acme.myshopify.com"),
        verify(adapter, signer.delivery("app/uninstalled", "{\"id\":1,\"name\":\"Acme\"}")).entityKey());
    assertEquals(Optional.of("inventory_level:808950810:905684977"),
        verify(adapter, signer.delivery("inventory_levels/update",
            "{\"inventory_item_id\":808950810,\"location_id\":905684977,\"available\":6,"
                + "\"updated_at\":\"2024-09-10T11:14:00-04:00\"}")).entityKey());
    assertEquals(Optional.of("company:5"), verify(adapter, signer.delivery("companies/create", "{\"id\":5}")).entityKey());
  }

  @Test
  void missingIdentityHeadersAreMalformedWithTheirNames() {
    InboundDelivery d = signer.delivery("orders/create", ORDER);
    assertRejected(withHeader(d, "X-Shopify-Topic", null), RejectionReason.MALFORMED,
        "X-Shopify-Topic header is missing; Shopify sends it with every delivery");
    assertRejected(withHeader(d, "X-Shopify-Shop-Domain", null), RejectionReason.MALFORMED,
        "X-Shopify-Shop-Domain header is missing; Shopify sends it with every delivery");
    assertRejected(withHeader(withHeader(d, "X-Shopify-Webhook-Id", null), "X-Shopify-Event-Id", null),
        RejectionReason.MALFORMED,
        "both X-Shopify-Webhook-Id and X-Shopify-Event-Id headers are missing; Shopify sends one of them with"
            + " every delivery");
    ShopifyAdapter perAction = ShopifyAdapter.builder().identity(ShopifyEventIdentity.EVENT_ID_AND_TOPIC).build();
    DeliveryRejectedException e = assertThrows(DeliveryRejectedException.class, () ->
        perAction.verify(withHeader(d, "X-Shopify-Event-Id", null), Secrets.of(SECRET), Clock.systemUTC()));
    assertEquals("X-Shopify-Event-Id header is missing, and this adapter identifies events by it", e.getMessage());
  }

  @Test
  void unparsableTriggeredAtIsDroppedNeverARefusal() {
    WebhookEvent event = verify(adapter,
        withHeader(signer.delivery("orders/create", ORDER), "X-Shopify-Triggered-At", "last tuesday"));
    assertEquals(Optional.empty(), event.occurredAt());
    assertEquals(OptionalLong.of(micros("2024-09-10T15:14:00Z")), event.entityVersion(), "updated_at still orders it");
  }

  @Test
  void unparsableUpdatedAtLeavesTheOrderWithoutAVersionRatherThanTheUnsignedHeaders() {
    WebhookEvent event = verify(adapter, signer.delivery("orders/updated", "{\"id\":7,\"updated_at\":\"soon\"}"));
    assertEquals(Optional.of("order:7"), event.entityKey());
    assertEquals(OptionalLong.empty(), event.entityVersion());
  }

  @Test
  void triggeredAtInTheYear9999NeverBecomesAVersionThatWouldFreezeTheEntity() {
    // a */delete payload has no updated_at: the header is the only version, and it is unsigned
    InboundDelivery forged = withHeader(signer.delivery("products/delete", "{\"id\":5}"),
        "X-Shopify-Triggered-At", "9999-12-31T23:59:59Z");
    WebhookEvent event = adapter.verify(forged, Secrets.of(SECRET), Clock.fixed(TRIGGERED, ZoneOffset.UTC));
    assertEquals(Optional.of("product:5"), event.entityKey());
    assertEquals(OptionalLong.empty(), event.entityVersion());
    assertEquals(Optional.empty(), event.occurredAt());
  }

  @Test
  void forgedTriggeredAtWithinTheToleranceNeverBecomesAVersion() {
    // before: a Triggered-At up to 300 s ahead became the version of shop: and */delete entities, so
    // a captured body re-posted every 5 minutes froze the shop's genuine events as stale
    Clock now = Clock.fixed(TRIGGERED, ZoneOffset.UTC);
    String ahead = TRIGGERED.plusSeconds(299).toString();
    String shopPayload = "{\"id\":690933842,\"domain\":\"acme.myshopify.com\"}";
    for (InboundDelivery forged : List.of(
        withHeader(signer.delivery("shop/update", shopPayload), "X-Shopify-Triggered-At", ahead),
        withHeader(signer.delivery("app/uninstalled", shopPayload), "X-Shopify-Triggered-At", ahead),
        withHeader(signer.delivery("products/delete", "{\"id\":5}"), "X-Shopify-Triggered-At", ahead))) {
      WebhookEvent event = adapter.verify(forged, Secrets.of(SECRET), now);
      assertEquals(OptionalLong.empty(), event.entityVersion(), event.type());
      assertEquals(Optional.of(Instant.parse(ahead)), event.occurredAt(), "believed as occurred-at only");
    }
  }

  @Test
  void triggeredAtWithinTheToleranceAheadIsTheOccurredAtAndBeyondItIsNot() {
    InboundDelivery d = signer.delivery("products/delete", "{\"id\":5}");
    Clock fiveMinutesBehind = Clock.fixed(TRIGGERED.minusSeconds(300), ZoneOffset.UTC);
    Clock sixMinutesBehind = Clock.fixed(TRIGGERED.minusSeconds(360), ZoneOffset.UTC);
    assertEquals(Optional.of(TRIGGERED), adapter.verify(d, Secrets.of(SECRET), fiveMinutesBehind).occurredAt());
    assertEquals(Optional.empty(), adapter.verify(d, Secrets.of(SECRET), sixMinutesBehind).occurredAt());
    ShopifyAdapter lenient = ShopifyAdapter.builder().triggeredAtTolerance(Duration.ofMinutes(10)).build();
    assertEquals(Optional.of(TRIGGERED), lenient.verify(d, Secrets.of(SECRET), sixMinutesBehind).occurredAt());
  }

  @Test
  void appAndShopTopicsAreOrderedByNeitherTheHeaderNorTheShopsUpdatedAt() {
    String shopPayload = "{\"id\":690933842,\"domain\":\"acme.myshopify.com\",\"updated_at\":\"2020-01-01T00:00:00-05:00\"}";
    for (String topic : new String[] {"app/uninstalled", "shop/update"}) {
      WebhookEvent event = adapter.verify(signer.delivery(topic, shopPayload), Secrets.of(SECRET),
          Clock.fixed(TRIGGERED, ZoneOffset.UTC));
      assertEquals(Optional.of("shop:acme.myshopify.com"), event.entityKey(), topic);
      assertEquals(OptionalLong.empty(), event.entityVersion(), topic);
    }
  }

  @Test
  void signatureRejectionsAreSpecific() {
    InboundDelivery d = signer.delivery("orders/create", ORDER);
    assertRejected(withHeader(d, "X-Shopify-Hmac-Sha256", null), RejectionReason.SIGNATURE_MISSING,
        "X-Shopify-Hmac-Sha256 header is missing: the request was not sent by Shopify, or a proxy removed the header");
    assertRejected(withHeader(d, "X-Shopify-Hmac-Sha256", "not base64!"), RejectionReason.SIGNATURE_MALFORMED,
        "X-Shopify-Hmac-Sha256 is not base64");
    assertRejected(withHeader(d, "X-Shopify-Hmac-Sha256", "YWJj"), RejectionReason.SIGNATURE_MALFORMED,
        "X-Shopify-Hmac-Sha256 must decode to 32 bytes, but decoded to 3");
  }

  @Test
  void tenantIsTheShopDomain() {
    assertEquals("acme.myshopify.com", adapter.tenantOf(signer.delivery("orders/create", ORDER)));
    assertEquals("", adapter.tenantOf(InboundDelivery.post("/webhooks/shopify", HttpHeaders.empty(), "")));
  }

  @Test
  void builderRefusesBadOptionsNamingTheValue() {
    assertEquals("maxBodyBytes must be >= 1, but was -1",
        assertThrows(IllegalArgumentException.class, () -> ShopifyAdapter.builder().maxBodyBytes(-1)).getMessage());
    assertEquals("identity",
        assertThrows(NullPointerException.class, () -> ShopifyAdapter.builder().identity(null)).getMessage());
    assertEquals(ShopifyAdapter.DEFAULT_MAX_BODY_BYTES, new ShopifyAdapter().maxBodyBytes());
    assertEquals("triggeredAtTolerance must be at least 1 second, but was PT0S", assertThrows(
        IllegalArgumentException.class, () -> ShopifyAdapter.builder().triggeredAtTolerance(Duration.ZERO)).getMessage());
  }

  private static long micros(String iso) {
    Instant at = Instant.parse(iso);
    return at.getEpochSecond() * 1_000_000 + at.getNano() / 1_000;
  }

  private static WebhookEvent verify(ShopifyAdapter adapter, InboundDelivery d) {
    return adapter.verify(d, Secrets.of(SECRET), Clock.systemUTC());
  }

  private void assertRejected(InboundDelivery d, RejectionReason reason, String message) {
    DeliveryRejectedException e =
        assertThrows(DeliveryRejectedException.class, () -> adapter.verify(d, Secrets.of(SECRET), Clock.systemUTC()));
    assertEquals(reason, e.reason());
    assertEquals(message, e.getMessage());
  }
}
