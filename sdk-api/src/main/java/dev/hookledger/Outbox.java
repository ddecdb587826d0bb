package dev.hookledger;

/**
 * Effects outside the database (an HTTP call, an e-mail, a message), written as rows of the ledger's
 * effect table in the handler's own transaction and sent after it commits, at least once, with an
 * idempotency key derived from the event. Asked for by an {@link OnEvent} method as a parameter of
 * this type, or through {@link EventContext#outbox()}.
 *
 * <pre>{@code
 * @OnEvent("invoice.paid")
 * void paid(@Payload("/data/object") Invoice invoice, DSLContext tx, Outbox outbox) {
 *   tx.insertInto(PAYMENTS)...execute();
 *   outbox.send(HttpEffect.to("receipts", "/v1/receipts")
 *       .json("{\"invoice\":\"" + invoice.id() + "\"}")
 *       .build());
 *   outbox.send("receipt-mail", new ReceiptMail(invoice.customerEmail(), invoice.id()));
 * }
 * }</pre>
 *
 * <p>An effect commits with the event's ledger row and the handler's own writes, or not at all: a
 * handler that throws after {@code send} leaves no effect, and its retry enqueues it again with the
 * same key. Each effect's idempotency key is a name-based UUID of (provider, scope, event id,
 * handler name, effect name), the same on every attempt, takeover, replay and backfill of the event;
 * the key is unique in the table, so no re-run of a handler enqueues one effect twice. An effect
 * without a name is named by the ordinal of its {@code send} within this handler's invocation
 * ({@code 1}, {@code 2}, ...): give effects names when a handler sends a varying number of them.
 *
 * <p>Valid only during the {@code @OnEvent} call it was given to; not thread-safe.
 */
public interface Outbox {
  /**
   * Enqueues an HTTP request, sent by the runtime's HTTP sender after the commit; its idempotency
   * key goes in the destination's idempotency header ({@code Idempotency-Key} by default).
   *
   * @return the effect's idempotency key, never null
   * @throws IllegalArgumentException if the effect names a destination the runtime does not know
   */
  String send(HttpEffect effect);

  /**
   * Enqueues a typed effect: {@code effect} (a record, say) is stored as JSON through the
   * application's Jackson {@code ObjectMapper} and, after the commit, read back and given to the
   * {@link EffectHandler} registered for its class.
   *
   * @param name the effect's name within this handler, part of its idempotency key
   * @return the effect's idempotency key, never null
   * @throws IllegalArgumentException if no {@code EffectHandler} is registered for the effect's class
   */
  String send(String name, Object effect);

  /**
   * Enqueues a typed effect that is delivered after every earlier effect with the same
   * {@code orderingKey} (in commit order) and before every later one. A failing effect holds only
   * the effects of its own key.
   *
   * @param orderingKey the key whose effects are delivered one at a time, in commit order
   * @return the effect's idempotency key, never null
   */
  String send(String name, Object effect, String orderingKey);
}
