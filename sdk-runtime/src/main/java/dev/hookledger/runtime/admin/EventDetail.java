package dev.hookledger.runtime.admin;

import static java.util.Objects.requireNonNull;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * One ledger row in full, as {@link InboxAdmin#show} returns it: the summary, the evidence kept
 * with the event (selected headers, the id of the secret that matched, the signed timestamp), the
 * lease, and the body as UTF-8 text. Never holds a secret value or a signature header. Immutable.
 */
public final class EventDetail {
  private final EventSummary summary;
  private final Map<String, String> headers;
  private final String body;
  private final int bodyLength;
  private final String payload;
  private final String secretId;
  private final Instant signedAt;
  private final Extra extra;
  private final List<EventAttempt> attempts;

  /**
   * The remaining columns, none required.
   *
   * @param apiVersion the provider's payload version
   * @param entityKey the entity the ordering guard tracks
   * @param entityVersion its version, or null
   * @param occurredAt when the provider says it happened
   * @param livemode live or test (Stripe)
   * @param deliveryId the delivery attempt's id
   * @param leaseOwner the worker holding the event, while {@code processing}
   * @param leaseUntil when that worker's lease ends
   */
  record Extra(String apiVersion, String entityKey, Long entityVersion, Instant occurredAt,
      Boolean livemode, String deliveryId, String leaseOwner, Instant leaseUntil) {}

  // built by EventViews from a ledger row; payload, secretId and signedAt may be null
  EventDetail(EventSummary summary, Map<String, String> headers, String body, int bodyLength,
      String payload, String secretId, Instant signedAt, Extra extra, List<EventAttempt> attempts) {
    this.summary = requireNonNull(summary, "summary");
    this.headers = Map.copyOf(headers);
    this.body = requireNonNull(body, "body");
    this.bodyLength = bodyLength;
    this.payload = payload;
    this.secretId = secretId;
    this.signedAt = signedAt;
    this.extra = requireNonNull(extra, "extra");
    this.attempts = List.copyOf(attempts);
  }

  /** This event with its recorded {@code attempts}. */
  EventDetail withAttempts(List<EventAttempt> attempts) {
    return new EventDetail(summary, headers, body, bodyLength, payload, secretId, signedAt, extra, attempts);
  }

  /**
   * Its recorded attempts, oldest first: each failed one with its cause and whole error, and the
   * success after failures. Empty for an event settled on its first attempt, or never tried.
   */
  public List<EventAttempt> attempts() {
    return attempts;
  }

  public EventSummary summary() {
    return summary;
  }

  /** Headers kept as evidence, lower-case names; signature-like headers are never included. */
  public Map<String, String> headers() {
    return headers;
  }

  /** The received body decoded as UTF-8 (bytes that are not UTF-8 show as U+FFFD). */
  public String body() {
    return body;
  }

  /** The body's size in bytes as received. */
  public int bodyLength() {
    return bodyLength;
  }

  /** The JSON document, where it differs from the body (GitHub form posts). */
  public Optional<String> payload() {
    return Optional.ofNullable(payload);
  }

  /** The id (never the value) of the secret whose signature matched; empty for replayed events. */
  public Optional<String> secretId() {
    return Optional.ofNullable(secretId);
  }

  /** The timestamp the signature covered, for schemes that sign one. */
  public Optional<Instant> signedAt() {
    return Optional.ofNullable(signedAt);
  }

  public Optional<String> apiVersion() {
    return Optional.ofNullable(extra.apiVersion());
  }

  public Optional<String> entityKey() {
    return Optional.ofNullable(extra.entityKey());
  }

  public OptionalLong entityVersion() {
    Long v = extra.entityVersion();
    return v == null ? OptionalLong.empty() : OptionalLong.of(v);
  }

  public Optional<Instant> occurredAt() {
    return Optional.ofNullable(extra.occurredAt());
  }

  public Optional<Boolean> livemode() {
    return Optional.ofNullable(extra.livemode());
  }

  public Optional<String> deliveryId() {
    return Optional.ofNullable(extra.deliveryId());
  }

  public Optional<String> leaseOwner() {
    return Optional.ofNullable(extra.leaseOwner());
  }

  public Optional<Instant> leaseUntil() {
    return Optional.ofNullable(extra.leaseUntil());
  }

  @Override
  public String toString() {
    return summary.toString();
  }
}
