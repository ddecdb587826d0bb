package dev.hookledger.shopify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hookledger.spi.ReplaySourceFactory;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;

class ShopifyReplaySourceFactoryTest {

  @Test
  void isFoundByServiceLoaderUnderTheShopifyIdWithNoSettings() {
    List<ReplaySourceFactory> found = ServiceLoader.load(ReplaySourceFactory.class).stream()
        .map(ServiceLoader.Provider::get)
        .filter(f -> f.provider().equals("shopify"))
        .toList();

    assertEquals(1, found.size());
    assertEquals(ShopifyReplaySourceFactory.class, found.get(0).getClass());
    assertTrue(found.get(0).settings().isEmpty());
  }

  @Test
  void createSaysPlainlyThatShopifyCannotReplayAndWhatToDoInstead() {
    UnsupportedOperationException e = assertThrows(
        UnsupportedOperationException.class,
        () -> new ShopifyReplaySourceFactory().create(Map.of("access-token", "shpat_x")));

    assertEquals(
        "Shopify has no API to list or redeliver webhook deliveries, so missed Shopify webhooks cannot be replayed. "
            + "Instead: (1) check that the shop's webhook subscriptions still exist, since Shopify removes a "
            + "subscription after repeated failed deliveries: list them with the GraphQL Admin API query "
            + "webhookSubscriptions and re-create missing ones with webhookSubscriptionCreate; (2) reconcile from the "
            + "resource APIs for the outage window, for example orders updated since it began (GraphQL "
            + "orders(query: \"updated_at:>='<since>'\") or REST orders.json?updated_at_min=<since>&status=any), "
            + "and apply what changed.",
        e.getMessage());
  }
}
