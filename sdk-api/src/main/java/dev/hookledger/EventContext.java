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
   * Runs {@code action} in this process after the transaction that settles this event has
   * committed, and never if it rolls back: at most once. For in-process notifications only (a cache
   * eviction, a wake-up of a local thread). A crash between the commit and the action loses it for
   * good, and a failure is not retried: an e-mail, an API call or a message goes through
   * {@link #outbox()}, which is durable and retried. An exception the action throws is logged,
   * counted ({@code WebhookListener.afterCommitFailed}, the metric {@code hookledger.aftercommit.failed},
   * and per provider in the ledger, which the admin page shows) and does not undo the commit.
   */
  void afterCommit(Runnable action);

  /**
   * The outbox of the {@code @OnEvent} method being called: effects outside the database, written in
   * this transaction and sent after it commits, at least once, with a key derived from the event. The
   * same as declaring a parameter of type {@link Outbox}. Never null.
   *
   * @throws UnsupportedOperationException from a context that has none (a test's own implementation)
   */
  default Outbox outbox() {
    throw new UnsupportedOperationException("this EventContext has no outbox");
  }
}
