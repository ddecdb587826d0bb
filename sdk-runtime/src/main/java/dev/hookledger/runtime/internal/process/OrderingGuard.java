package dev.hookledger.runtime.internal.process;

import dev.hookledger.WebhookEvent;
import org.jooq.DSLContext;

/**
 * Decides, inside the processing transaction and before any handler runs, whether an event is older
 * than the version already applied for its entity. Methods declared with
 * {@code @OnEvent(skipStale = true)} are then skipped, and an event whose every matching method was
 * skipped settles as {@code stale}.
 */
@FunctionalInterface
public interface OrderingGuard {
  /** Never stale: what runs until the entity-version guard is installed. */
  OrderingGuard NONE = (tx, event) -> false;

  /**
   * @param tx the processing transaction: a version recorded here commits or rolls back with the handlers
   * @return true if the event is stale
   */
  boolean isStale(DSLContext tx, WebhookEvent event);
}
