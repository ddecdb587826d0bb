package dev.hookledger.runtime.internal.ledger;

import dev.hookledger.WebhookEvent;
import dev.hookledger.internal.EventBytes;

/**
 * Events as work items hold them: every field and the very same body array, but not the JSON tree
 * the adapter parsed while verifying. A tree is several times its body's size; an event waiting in
 * a worker's queue parses its payload again, once, when a handler first asks for it.
 */
public final class UnparsedEvents {
  private UnparsedEvents() {}

  /** {@code event} without its parsed payload; the arrays are shared, not copied. */
  public static WebhookEvent of(WebhookEvent event) {
    WebhookEvent.Builder b = WebhookEvent.builder()
        .provider(event.provider())
        .scope(event.scope())
        .eventId(event.eventId())
        .type(event.type())
        .apiVersion(event.apiVersion().orElse(null))
        .entityKey(event.entityKey().orElse(null))
        .entityVersion(event.entityVersion().isPresent() ? event.entityVersion().getAsLong() : null)
        .occurredAt(event.occurredAt().orElse(null))
        .livemode(event.livemode().orElse(null))
        .deliveryId(event.deliveryId().orElse(null))
        .secretId(event.secretId().orElse(null))
        .signedAt(event.signedAt().orElse(null))
        .body(EventBytes.body(event))
        .payloadJson(event.payloadWrapped() ? EventBytes.payloadJson(event) : null);
    event.headers().forEach(b::header);
    return b.build();
  }
}
