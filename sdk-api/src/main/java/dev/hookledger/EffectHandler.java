package dev.hookledger;

/**
 * Delivers typed effects of one class that handlers enqueued with {@link Outbox#send(String, Object)}:
 * an e-mail through the application's own client, a Kafka record, a call through a provider's SDK.
 * Registered on the runtime's builder under a name, which is the destination its effects are
 * counted, rate-limited and paused by.
 *
 * <p>Called after the effect's transaction committed, at least once per effect: again after a
 * failure, a crash or a lease taken over. Pass {@link EffectDelivery#idempotencyKey()} on to the
 * system you call wherever it deduplicates (an {@code Idempotency-Key} header, a message key, a
 * unique column), so that a repeat does nothing there.
 *
 * <p>Returning normally settles the effect {@code done}. Throwing {@link PermanentEffectFailure}
 * makes it {@code dead} at once; any other exception retries it later, up to the destination's
 * attempts. Called from the runtime's sender threads, possibly several at once: implementations
 * must be thread-safe.
 *
 * @param <T> the class of the effects it delivers
 */
@FunctionalInterface
public interface EffectHandler<T> {
  /**
   * Delivers one effect.
   *
   * @param effect the effect as the handler enqueued it, read back from its JSON; never null
   * @param delivery which effect and attempt this is; never null
   * @throws PermanentEffectFailure if the effect can never succeed (it is then {@code dead})
   * @throws Exception for anything that may succeed later (it is then retried)
   */
  void deliver(T effect, EffectDelivery delivery) throws Exception;
}
