package dev.hookledger.runtime.internal.outbox;

import dev.hookledger.EffectDelivery;
import java.time.Duration;
import java.util.UUID;

/**
 * One effect leased to this node for one attempt: what to send, and the fence ({@code owner},
 * {@code attempt}) its result is written under.
 */
record ClaimedEffect(String scope, UUID key, String provider, String eventId, String handler, String name,
    String kind, String destination, String method, String url, String headers, byte[] body, String contentType,
    String payloadType, int attempt, String owner, Duration lease) implements EffectDelivery {
  @Override
  public String idempotencyKey() {
    return key.toString();
  }

  @Override
  public String effectName() {
    return name;
  }

  @Override
  public String toString() {
    // never the body or the headers: they may carry personal data or credentials
    return "effect " + key + " (" + name + " of " + handler + " on " + provider + "/" + scope + "/" + eventId
        + ", to " + destination + ")";
  }
}
