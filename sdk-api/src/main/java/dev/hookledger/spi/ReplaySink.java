package dev.hookledger.spi;

import dev.hookledger.WebhookEvent;

/** Where a {@link ReplaySource} puts the events it fetched: the runtime's ledger. */
@FunctionalInterface
public interface ReplaySink {

  /**
   * Records one fetched event, exactly as a received one would be.
   *
   * @return true if it was new, false if the ledger already had it
   */
  boolean offer(WebhookEvent event);
}
