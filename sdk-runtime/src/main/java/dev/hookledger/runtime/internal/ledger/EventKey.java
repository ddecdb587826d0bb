package dev.hookledger.runtime.internal.ledger;

import static java.util.Objects.requireNonNull;

import dev.hookledger.WebhookEvent;
import dev.hookledger.runtime.internal.VisibleText;

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

  /**
   * {@code stripe event evt_1}, {@code github event guid (scope hook-7)}: how logs, errors and
   * commands name an event; a control or bidirectional character of the sender's id or scope is
   * shown as {@code \}{@code uXXXX} ({@link VisibleText}), so that a log line stays one true line.
   */
  @Override
  public String toString() {
    return provider + " event " + VisibleText.line(eventId)
        + (scope.isEmpty() ? "" : " (scope " + VisibleText.line(scope) + ")");
  }
}
