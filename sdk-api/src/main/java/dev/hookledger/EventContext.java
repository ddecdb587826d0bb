package dev.hookledger;

/**
 * What a handler may ask about the delivery it is processing, beyond the event itself. Passed to an
 * {@link OnEvent} method that declares a parameter of this type. Valid only during that call.
 */
public interface EventContext {
  /** The event being processed; never null. */
  WebhookEvent event();

  /** Which attempt this is, starting at 1. */
  int attempt();

  /**
   * A key that stays the same across every attempt at this event, for the idempotency header of a
   * downstream API (Stripe's {@code Idempotency-Key}, for example). Never null.
   */
  String idempotencyKey();

  /**
   * Runs {@code action} after the transaction that settles this event has committed, and never if it
   * rolls back. For effects outside the database: emails, messages, cache evictions. An exception it
   * throws is logged and does not undo the commit.
   */
  void afterCommit(Runnable action);
}
