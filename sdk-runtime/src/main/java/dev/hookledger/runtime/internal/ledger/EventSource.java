package dev.hookledger.runtime.internal.ledger;

/** How an event reached the ledger: {@code event.source}. */
public enum EventSource {
  /** Received signed, over HTTP (or through {@code WebhookRuntime.receive}). */
  DELIVERY("delivery"),
  /** Fetched from the provider's API by a replay. */
  REPLAY("replay");

  private final String sql;

  EventSource(String sql) {
    this.sql = sql;
  }

  public String sql() {
    return sql;
  }
}
