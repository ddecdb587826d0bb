package dev.hookledger.runtime.admin;

import static java.util.Objects.requireNonNull;

import dev.hookledger.runtime.EventSource;
import dev.hookledger.runtime.EventStatus;
import dev.hookledger.runtime.internal.ledger.EventKey;
import java.time.Instant;
import java.util.Optional;

/**
 * One ledger row as a list shows it: identity, type, status, attempts and the last error. No body,
 * no headers: {@link InboxAdmin#show} gives those. Immutable.
 */
public final class EventSummary {
  private final String provider;
  private final String scope;
  private final String eventId;
  private final String type;
  private final EventStatus status;
  private final EventSource source;
  private final int attempts;
  private final int duplicates;
  private final Instant receivedAt;
  private final Instant availableAt;
  private final Instant settledAt;
  private final String lastError;

  // built by EventViews from a ledger row; settledAt and lastError may be null
  EventSummary(String provider, String scope, String eventId, String type, EventStatus status,
      EventSource source, int attempts, int duplicates, Instant receivedAt, Instant availableAt,
      Instant settledAt, String lastError) {
    this.provider = requireNonNull(provider, "provider");
    this.scope = requireNonNull(scope, "scope");
    this.eventId = requireNonNull(eventId, "eventId");
    this.type = requireNonNull(type, "type");
    this.status = requireNonNull(status, "status");
    this.source = requireNonNull(source, "source");
    this.attempts = attempts;
    this.duplicates = duplicates;
    this.receivedAt = requireNonNull(receivedAt, "receivedAt");
    this.availableAt = requireNonNull(availableAt, "availableAt");
    this.settledAt = settledAt;
    this.lastError = lastError;
  }

  public String provider() {
    return provider;
  }

  /** The scope that makes the id unique (GitHub hook, Shopify shop, Stripe account); empty, never null, where none. */
  public String scope() {
    return scope;
  }

  public String eventId() {
    return eventId;
  }

  public String type() {
    return type;
  }

  /** Where the event stands. */
  public EventStatus status() {
    return status;
  }

  /** How the event reached the ledger. */
  public EventSource source() {
    return source;
  }

  /** Processing attempts so far (reset to 0 by a retry). */
  public int attempts() {
    return attempts;
  }

  /** Later deliveries of this event that were refused as duplicates. */
  public int duplicates() {
    return duplicates;
  }

  public Instant receivedAt() {
    return receivedAt;
  }

  /** When a worker may next claim the event. */
  public Instant availableAt() {
    return availableAt;
  }

  /** When the event reached {@code done}, {@code ignored}, {@code stale} or {@code dead}. */
  public Optional<Instant> settledAt() {
    return Optional.ofNullable(settledAt);
  }

  /** The error of the last failed attempt, kept after a retry until the next attempt. */
  public Optional<String> lastError() {
    return Optional.ofNullable(lastError);
  }

  /** {@code provider event id (scope s)}: how commands name an event. */
  @Override
  public String toString() {
    return new EventKey(provider, scope, eventId).toString();
  }
}
