package dev.hookledger.shopify;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.hookledger.DeliveryRejectedException;
import dev.hookledger.HttpHeaders;
import dev.hookledger.spi.DeliveryChecks;
import dev.hookledger.spi.testing.TextMutations;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/** The Shopify mapping of a payload, read from the members the adapter selects. */
class ShopifyEventFieldsTest {
  private static final Clock CLOCK = Clock.fixed(Instant.parse("2024-05-01T12:00:00Z"), ZoneOffset.UTC);

  /**
   * The adapter reads only {@link ShopifyEventFields#SELECTION} of a body: over thousands of mutated
   * payloads read under four topics it finds exactly what the whole tree gives, or refuses with the
   * same message.
   */
  @Test
  void readingOnlyTheSelectedMembersFindsWhatTheWholeTreeFinds() {
    List<String> seeds = List.of(
        "{\"id\":820982911946154508,\"updated_at\":\"2024-05-01T11:59:00-04:00\",\"line_items\":[{\"id\":1,\"title\":\"x\"}],"
            + "\"customer\":{\"id\":7,\"updated_at\":\"2020-01-01T00:00:00Z\"},\"total_price\":\"10.00\"}",
        "{\"inventory_item_id\":271878346596884015,\"location_id\":24826418,\"available\":6,\"updated_at\":1700000000,"
            + "\"id\":\"dup\",\"id\":5}",
        "{\"id\":null,\"updated_at\":{\"nested\":[]},\"location_id\":[1],\"inventory_item_id\":\"abc\"}");
    List<String> topics = List.of("orders/updated", "inventory_levels/update", "shop/update", "products/delete");
    int compared = 0;
    for (String text : TextMutations.of(seeds, "{}[]\":,0123456789-TZadeilnoprtu_ ", 3, 5_000, 17)) {
      byte[] body = text.getBytes(StandardCharsets.UTF_8);
      for (String topic : topics) {
        HttpHeaders headers = HttpHeaders.of(Map.of("X-Shopify-Topic", topic, "X-Shopify-Shop-Domain", "s.myshopify.com",
            "X-Shopify-Webhook-Id", "w-1", "X-Shopify-Triggered-At", "2024-05-01T11:59:59Z"));
        assertEquals(outcome(() -> fields(headers, () -> DeliveryChecks.parseJson(body, "the body"))),
            outcome(() -> fields(headers, () -> ShopifyEventFields.SELECTION.readBody(body, "the body"))),
            topic + " " + text);
        compared++;
      }
    }
    assertEquals(20_000, compared);
  }

  private static ShopifyEventFields fields(HttpHeaders headers,
      Supplier<com.fasterxml.jackson.databind.JsonNode> payload) {
    return ShopifyEventFields.from(headers, payload.get(), ShopifyEventIdentity.WEBHOOK_ID, CLOCK, Duration.ofMinutes(5));
  }

  private static Object outcome(Supplier<ShopifyEventFields> read) {
    try {
      return read.get();
    } catch (DeliveryRejectedException e) {
      return e.reason() + ": " + e.getMessage();
    }
  }
}
