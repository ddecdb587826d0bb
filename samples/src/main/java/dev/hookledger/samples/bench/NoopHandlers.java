package dev.hookledger.samples.bench;

import dev.hookledger.OnEvent;

/**
 * {@code bench --noop-handlers}: handlers for the types a {@link LoadPlan} sends, as the sample's
 * declare them (Shopify's with the ordering guard), that do nothing: no payload parameter to map,
 * no statement. What is left of processing is the framework's own cost per event: the transaction,
 * the lease check, the guard, dispatch and the settle.
 */
public final class NoopHandlers {
  @OnEvent(value = "invoice.paid", provider = "stripe")
  void paid() {}

  @OnEvent(value = "push", provider = "github")
  void pushed() {}

  @OnEvent(value = {"orders/create", "orders/updated"}, provider = "shopify", skipStale = true)
  void changed() {}
}
