package dev.hookledger.runtime.admin;

import static java.util.Objects.requireNonNull;

import dev.hookledger.runtime.EventSource;
import dev.hookledger.runtime.EventStatus;
import dev.hookledger.runtime.internal.ledger.EventKey;
import dev.hookledger.runtime.internal.process.RootCause;
import java.time.Instant;
import java.util.Optional;

/**
 * One ledger row as a list shows it: identity, type, status, attempts (of the most allowed), the
 * last error and its root cause in one line, and whether it is failing or stuck. No body, no
 * headers: {@link InboxAdmin#show} gives those. Immutable.
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
  private final int maxAttempts;
  private final boolean stuck;

  // built by EventViews from a ledger row; settledAt and lastError may be null
  EventSummary(String provider, String scope, String eventId, String type, EventStatus status,
      EventSource source, int attempts, int duplicates, Instant receivedAt, Instant availableAt,
      Instant settledAt, String lastError, int maxAttempts, boolean stuck) {
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
    this.maxAttempts = maxAttempts;
    this.stuck = stuck;
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

  /**
   * The deepest cause of the last error in one line: its exception class (without the package)
   * and message, such as {@code IllegalStateException: order 7 not found}, at most
   * {@value RootCause#MAX_CHARS} characters. Empty when there is no error.
   */
  public Optional<String> rootCause() {
    return lastError().map(RootCause::of);
  }

  /**
   * The most attempts an event gets before it is dead, as the admin was configured
   * ({@link InboxAdmin.Builder#maxAttempts}); with {@link #attempts()}, "attempt k of N".
   */
  public int maxAttempts() {
    return maxAttempts;
  }

  /**
   * Whether the event waits after at least one failed attempt: {@code pending} until its next
   * attempt at {@link #availableAt()}, or {@code processing} an attempt after the first. A failing
   * event is not dead yet: each of its attempts fails, and it is retried until the last.
   */
  public boolean failing() {
    return lastError != null && (status == EventStatus.PENDING && attempts >= 1
        || status == EventStatus.PROCESSING && attempts >= 2);
  }

  /**
   * Whether the event is waiting, due and not taken for longer than the admin's
   * {@link InboxAdmin.Builder#stuckAfter stuckAfter}, by the database's clock: no live worker
   * claimed it, or the worker holding its lease stopped. A failing event backing off is not stuck.
   */
  public boolean stuck() {
    return stuck;
  }

  /**
   * When the next attempt may start: {@link #availableAt()} for a {@code pending} event; empty for
   * any other status (a {@code processing} event is in an attempt now).
   */
  public Optional<Instant> nextAttemptAt() {
    return status == EventStatus.PENDING ? Optional.of(availableAt) : Optional.empty();
  }

  /** {@code provider event id (scope s)}: how commands name an event. */
  @Override
  public String toString() {
    return new EventKey(provider, scope, eventId).toString();
  }
}
