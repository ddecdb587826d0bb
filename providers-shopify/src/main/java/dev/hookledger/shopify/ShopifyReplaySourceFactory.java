package dev.hookledger.shopify;

import dev.hookledger.spi.ReplaySource;
import dev.hookledger.spi.ReplaySourceFactory;
import java.util.Map;

/**
 * Tells the command line, in plain words, that Shopify deliveries cannot be replayed and what to
 * do instead. Found by {@link java.util.ServiceLoader}, so that {@code replay shopify} answers with
 * advice rather than "unknown provider".
 *
 * <p>Shopify has no API to list or redeliver webhook deliveries (<a href="https://shopify.dev/docs/apps/build/webhooks/troubleshoot">Shopify: troubleshooting webhooks</a>). After an outage, check
 * that the subscriptions still exist (Shopify removes one after repeated failed deliveries; see
 * {@link ShopifySubscriptionCheck}) and reconcile from the resource APIs for the outage window.
 */
public final class ShopifyReplaySourceFactory implements ReplaySourceFactory {
  static final String NO_REPLAY =
      "Shopify has no API to list or redeliver webhook deliveries, so missed Shopify webhooks cannot be replayed. "
          + "Instead: (1) check that the shop's webhook subscriptions still exist, since Shopify removes a "
          + "subscription after repeated failed deliveries: list them with the GraphQL Admin API query "
          + "webhookSubscriptions and re-create missing ones with webhookSubscriptionCreate; (2) reconcile from the "
          + "resource APIs for the outage window, for example orders updated since it began (GraphQL "
          + "orders(query: \"updated_at:>='<since>'\") or REST orders.json?updated_at_min=<since>&status=any), "
          + "and apply what changed.";

  /** Called by {@code ServiceLoader}. */
  public ShopifyReplaySourceFactory() {}

  @Override
  public String provider() {
    return ShopifyEventFields.PROVIDER;
  }

  /** None: there is nothing to configure for a replay that cannot run. */
  @Override
  public Map<String, String> settings() {
    return Map.of();
  }

  /** @throws UnsupportedOperationException always, with what to do instead */
  @Override
  public ReplaySource create(Map<String, String> settings) {
    throw new UnsupportedOperationException(NO_REPLAY);
  }
}
