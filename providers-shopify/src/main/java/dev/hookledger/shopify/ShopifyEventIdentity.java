package dev.hookledger.shopify;

/**
 * Which Shopify header becomes the ledger's event id, that is, what counts as a duplicate.
 *
 * <p>Shopify sends two ids (<a href="https://shopify.dev/docs/apps/build/webhooks/ignore-duplicates">Shopify: ignore duplicates</a>): {@code X-Shopify-Webhook-Id}, one per delivery (one event
 * sent to one subscription) and by every account kept across that delivery's retries, and
 * {@code X-Shopify-Event-Id}, one per merchant action and shared by every subscription that receives
 * it. Whether one Event-Id spans several topics is not documented, so the topic is always part of
 * an id built from it.
 */
public enum ShopifyEventIdentity {
  /**
   * The default: the event id is {@code X-Shopify-Webhook-Id}, so a retried delivery is a duplicate
   * while two subscriptions to one topic are processed separately. When a delivery has no Webhook-Id
   * (Shopify's unprefixed "Events" flavour sends none), falls back to {@link #EVENT_ID_AND_TOPIC}.
   */
  WEBHOOK_ID,

  /**
   * The event id is {@code <X-Shopify-Event-Id>:<topic>}, so one merchant action reaching this
   * endpoint through several subscriptions to the same topic is processed once.
   */
  EVENT_ID_AND_TOPIC
}
