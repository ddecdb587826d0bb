package dev.hookledger.shopify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hookledger.DeliveryRejectedException;
import dev.hookledger.HttpHeaders;
import dev.hookledger.InboundDelivery;
import dev.hookledger.RejectionReason;
import dev.hookledger.Secrets;
import dev.hookledger.WebhookEvent;
import dev.hookledger.spi.testkit.ProviderVectors;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Shopify's vectors SH-1 (the official SDK test) to SH-4 (rotation). */
class ShopifyVectorsTest {
  private final ShopifyAdapter adapter = new ShopifyAdapter();

  @Test
  void everyShopifyVectorIsCovered() {
    List<String> ids = new ArrayList<>();
    ProviderVectors.of("shopify").forEach(v -> ids.add(v.get("id").asText()));
    assertEquals(List.of("SH-1", "SH-2", "SH-3", "SH-4"), ids);
  }

  @Test
  void testSignerReproducesEveryVectorHmac() {
    for (String id : List.of("SH-1", "SH-2", "SH-3")) {
      JsonNode v = ProviderVectors.byId(id);
      assertEquals(hmac(v), ShopifyTestSigner.withSecret(v.get("secret").asText()).hmac(ProviderVectors.body(v)), id);
    }
    JsonNode rotation = ProviderVectors.byId("SH-4");
    byte[] body = ProviderVectors.body(rotation);
    assertEquals(rotation.get("hmac_under_new").asText(),
        ShopifyTestSigner.withSecret(rotation.at("/secrets/new").asText()).hmac(body));
    assertEquals(rotation.get("hmac_under_old").asText(),
        ShopifyTestSigner.withSecret(rotation.at("/secrets/old").asText()).hmac(body));
  }

  @Test
  void sh1OfficialSdkVectorIsAccepted() {
    JsonNode v = ProviderVectors.byId("SH-1");
    WebhookEvent event = adapter.verify(delivery(v, "orders/create", hmac(v)), Secrets.of(v.get("secret").asText()), Clock.systemUTC());
    assertEquals("bar", event.payload().get("foo").asText());
    assertEquals(Optional.empty(), event.entityKey(), "a payload without id has no entity");
  }

  @Test
  void sh2OrderIdAboveTwoToTheFiftyThreeIsKeptExact() {
    JsonNode v = ProviderVectors.byId("SH-2");
    WebhookEvent event = adapter.verify(delivery(v, "orders/create", hmac(v)), Secrets.of(v.get("secret").asText()), Clock.systemUTC());
    assertEquals(Optional.of("order:820982911946154508"), event.entityKey());
    assertEquals(1_725_981_240_000_000L, event.entityVersion().getAsLong(), "updated_at 2024-09-10T11:14:00-04:00");
    assertEquals("orders/create", event.type());
    assertEquals("acme.myshopify.com", event.scope());
    assertEquals(Optional.of("2024-07"), event.apiVersion());
  }

  @Test
  void sh3NonAsciiProductIsAccepted() {
    JsonNode v = ProviderVectors.byId("SH-3");
    WebhookEvent event = adapter.verify(delivery(v, "products/update", hmac(v)), Secrets.of(v.get("secret").asText()), Clock.systemUTC());
    assertEquals(Optional.of("product:632910392"), event.entityKey());
    assertEquals("Crème brûlée — 抹茶 🍵", event.payload().get("title").asText());
    assertEquals(156, event.bodyLength());
  }

  @Test
  void sh4BothSecretsAcceptEitherSignatureAndNewOnlyRejectsTheOld() {
    JsonNode v = ProviderVectors.byId("SH-4");
    Secrets both = Secrets.builder()
        .add("new", v.at("/secrets/new").asText()).add("old", v.at("/secrets/old").asText()).build();
    Secrets newOnly = Secrets.builder().add("new", v.at("/secrets/new").asText()).build();
    InboundDelivery underNew = delivery(v, "products/update", v.get("hmac_under_new").asText());
    InboundDelivery underOld = delivery(v, "products/update", v.get("hmac_under_old").asText());

    assertEquals(Optional.of("new"), adapter.verify(underNew, both, Clock.systemUTC()).secretId());
    assertEquals(Optional.of("old"), adapter.verify(underOld, both, Clock.systemUTC()).secretId());
    assertEquals(Optional.of("new"), adapter.verify(underNew, newOnly, Clock.systemUTC()).secretId());
    DeliveryRejectedException e =
        assertThrows(DeliveryRejectedException.class, () -> adapter.verify(underOld, newOnly, Clock.systemUTC()));
    assertEquals(RejectionReason.SIGNATURE_MISMATCH, e.reason());
    assertEquals("X-Shopify-Hmac-Sha256 matches none of the 1 configured secret (id new): the body was probably"
        + " re-encoded or parsed by a framework before verification (verify the exact raw bytes), or the secret is"
        + " wrong; the key is the app's client secret (API secret key); after a rotation Shopify may sign with the"
        + " old one for up to an hour, and webhooks a merchant created in the admin are signed with another key",
        e.getMessage());
  }

  private static String hmac(JsonNode v) {
    return v.get("expected_headers").get("X-Shopify-Hmac-Sha256").asText();
  }

  private static InboundDelivery delivery(JsonNode v, String topic, String hmac) {
    HttpHeaders headers = HttpHeaders.builder()
        .add("X-Shopify-Hmac-Sha256", hmac)
        .add("X-Shopify-Topic", topic)
        .add("X-Shopify-Shop-Domain", "acme.myshopify.com")
        .add("X-Shopify-API-Version", "2024-07")
        .add("X-Shopify-Webhook-Id", "b54557e4-bdd9-4b37-8a5f-bf7d70bcd043")
        .add("X-Shopify-Event-Id", "98880550-7158-44d4-b7cd-2c97c8a091b5")
        .add("X-Shopify-Triggered-At", "2025-03-11T20:54:30.516267807Z")
        .build();
    return InboundDelivery.of("POST", "/webhooks/shopify", headers, ProviderVectors.body(v));
  }
}
