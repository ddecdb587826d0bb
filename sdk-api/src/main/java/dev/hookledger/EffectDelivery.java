package dev.hookledger;

/**
 * One attempt at delivering one effect, as given to an {@link EffectHandler}: its idempotency key,
 * which attempt this is, where it goes and which event enqueued it. Immutable.
 */
public interface EffectDelivery {
  /**
   * The effect's idempotency key: the same on every attempt, takeover, replay and backfill. Never null.
   */
  String idempotencyKey();

  /** Which attempt this is, starting at 1. */
  int attempt();

  /** The destination's name: the registered name of the {@code EffectHandler}. Never null. */
  String destination();

  /** The effect's name within its handler (or the ordinal of its {@code send}). Never null. */
  String effectName();

  /** The {@code @OnEvent} method that enqueued it, by the name the ledger records. Never null. */
  String handler();

  /** The provider of the event that enqueued it ({@code stripe}). Never null. */
  String provider();

  /** The scope of that event (the Stripe account, the Shopify shop, the GitHub hook); never null, may be empty. */
  String scope();

  /** The provider's id of that event. Never null. */
  String eventId();
}
