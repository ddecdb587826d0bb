package dev.hookledger.runtime.internal.inbox;

import dev.hookledger.WebhookEvent;
import dev.hookledger.runtime.internal.ledger.EventKey;
import dev.hookledger.runtime.internal.ledger.Lease;

/**
 * One event waiting in a pool's queue: claimed by a poll (with its lease), or just recorded by this
 * runtime and held in memory (no lease yet: the worker claims it by key).
 */
record Task(EventKey key, WebhookEvent event, Lease lease) {
  /** Tells a worker to stop. */
  static final Task STOP = new Task(null, null, null);

  static Task local(EventKey key, WebhookEvent event) {
    return new Task(key, event, null);
  }

  static Task leased(Lease lease) {
    return new Task(lease.key(), lease.event(), lease);
  }
}
