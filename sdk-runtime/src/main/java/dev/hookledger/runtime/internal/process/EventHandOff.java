package dev.hookledger.runtime.internal.process;

import dev.hookledger.WebhookEvent;
import dev.hookledger.runtime.internal.ledger.EventKey;

/**
 * Where the receive path hands a committed event for processing. The local executor does it at
 * once; an inbox worker pool can take its place without touching the receive path.
 */
@FunctionalInterface
public interface EventHandOff {
  /**
   * Schedules one attempt. Never blocks on the attempt and never throws: an event that cannot be
   * scheduled stays {@code pending} in the ledger, which is the source of truth.
   *
   * @param event the event as received, or null to read it from the ledger
   */
  void handOff(EventKey key, WebhookEvent event);
}
