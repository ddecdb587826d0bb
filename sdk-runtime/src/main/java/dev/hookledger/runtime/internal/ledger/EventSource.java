package dev.hookledger.runtime.internal.ledger;

import dev.hookledger.runtime.EventStatus;

/** How an event reached the ledger: {@code event.source}, which also decides the row's first status. */
public enum EventSource {
  /** Received signed, over HTTP (or through {@code WebhookRuntime.receive}); waits for processing. */
  DELIVERY("delivery", EventStatus.PENDING),
  /** Fetched from the provider's API by a replay; waits for processing like a delivery. */
  REPLAY("replay", EventStatus.PENDING),
  /**
   * Received signed in {@code SHADOW} mode and passed on to the application's existing endpoint,
   * which handled it: recorded settled ({@code ignored}), so that switching to enforcing never
   * runs it again.
   */
  SHADOW("shadow", EventStatus.IGNORED);

  private final String sql;
  private final EventStatus initialStatus;

  EventSource(String sql, EventStatus initialStatus) {
    this.sql = sql;
    this.initialStatus = initialStatus;
  }

  public String sql() {
    return sql;
  }

  /** The status a new row of this source is inserted with. */
  public EventStatus initialStatus() {
    return initialStatus;
  }

  /** Whether the provider sent it to us (so that a second copy is a duplicate delivery, and counted). */
  public boolean isDelivery() {
    return this != REPLAY;
  }
}
