package dev.hookledger.spi;

import static java.util.Objects.requireNonNull;

import java.time.Instant;

/**
 * One event as a provider's own API lists it, for reconciling the ledger with the provider
 * ({@link ReplaySource#list}): its identity as the adapter gives a received delivery of it, and what
 * the provider says of its delivery.
 *
 * @param scope the ledger scope (GitHub hook id, Stripe account; empty for none)
 * @param eventId the provider's event id
 * @param type the type the adapter gives it ({@code invoice.paid}, {@code issues.opened})
 * @param at when the provider created or last attempted it
 * @param delivery what the provider says of its delivery
 * @param detail the provider's own words for it ({@code HTTP 502}, {@code pending_webhooks=1}); never null
 */
public record ListedEvent(String scope, String eventId, String type, Instant at, Delivery delivery, String detail) {

  public ListedEvent {
    requireNonNull(scope, "scope");
    requireNonNull(eventId, "eventId");
    requireNonNull(type, "type");
    requireNonNull(at, "at");
    requireNonNull(delivery, "delivery");
    requireNonNull(detail, "detail");
  }

  /** What a provider says of an event's delivery to this endpoint. */
  public enum Delivery {
    /** An attempt was answered 2xx. */
    DELIVERED,
    /** Every attempt so far failed (an error status, a timeout, no connection). */
    FAILED,
    /** Not (or not yet) confirmed delivered: the provider is still trying. */
    PENDING
  }
}
