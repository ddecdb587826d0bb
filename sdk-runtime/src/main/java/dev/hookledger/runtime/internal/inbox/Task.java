package dev.hookledger.runtime.internal.inbox;

import dev.hookledger.WebhookEvent;
import dev.hookledger.runtime.internal.ledger.EventKey;
import dev.hookledger.runtime.internal.ledger.Lease;

/**
 * One leased event waiting in a pool's queue: claimed by a poll, or recorded by this runtime
 * already leased to it (its insert was its claim).
 */
record Task(EventKey key, WebhookEvent event, Lease lease) {
  /** Tells a worker to stop. */
  static final Task STOP = new Task(null, null, null);

  static Task leased(Lease lease) {
    return new Task(lease.key(), lease.event(), lease);
  }
}
