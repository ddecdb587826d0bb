package dev.hookledger.runtime.internal.dispatch;

import dev.hookledger.Outbox;
import dev.hookledger.WebhookEvent;
import org.jooq.DSLContext;

/**
 * Where a handler's {@link Outbox} comes from: what dispatch needs of the outbox, owned here so that
 * the outbox depends on dispatch and never the other way round. The outbox implements it; the
 * assembly hands that to the processor, which gives it to each attempt's {@link TransactionEventContext}.
 * Thread-safe.
 */
public interface Outboxes {
  /**
   * The outbox of one {@code @OnEvent} method's call on {@code event}, writing in {@code tx}.
   *
   * @param handler the method's recorded name, part of its effects' keys
   * @param enqueued told of each effect it writes
   */
  Outbox open(DSLContext tx, WebhookEvent event, String handler, Runnable enqueued);

  /** After the commit of a transaction that enqueued effects: they are due now. */
  void committed();
}
