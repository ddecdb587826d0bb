package dev.hookledger.runtime.internal.ledger;

import static java.util.Objects.requireNonNull;

import dev.hookledger.WebhookEvent;

/** The ledger's primary key of one event: provider, scope and the provider's event id. */
public record EventKey(String provider, String scope, String eventId) {

  public EventKey {
    requireNonNull(provider, "provider");
    requireNonNull(scope, "scope");
    requireNonNull(eventId, "eventId");
  }

  public static EventKey of(WebhookEvent event) {
    return new EventKey(event.provider(), event.scope(), event.eventId());
  }

  /** {@code stripe event evt_1}, {@code github event guid (scope hook-7)}: how logs, errors and commands name an event. */
  @Override
  public String toString() {
    return provider + " event " + eventId + (scope.isEmpty() ? "" : " (scope " + scope + ")");
  }
}
