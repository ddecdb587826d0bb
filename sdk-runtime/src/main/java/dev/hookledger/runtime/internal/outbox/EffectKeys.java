package dev.hookledger.runtime.internal.outbox;

import java.nio.charset.StandardCharsets;
import java.util.UUID;

/**
 * The idempotency key of an effect: a name-based UUID (version 3) of the event's provider, scope
 * and id, the enqueuing handler's recorded name and the effect's name, each field ended by a
 * newline (which none of them may hold ambiguously: a newline inside a field would shift the
 * others, so the fields are length-prefixed). The same inputs give the same key on every node, in
 * every attempt, takeover, replay and backfill.
 */
public final class EffectKeys {
  private EffectKeys() {}

  public static UUID of(String provider, String scope, String eventId, String handler, String name) {
    StringBuilder b = new StringBuilder("hookledger-effect\n");
    for (String part : new String[] {provider, scope, eventId, handler, name}) {
      b.append(part.length()).append(':').append(part).append('\n');
    }
    return UUID.nameUUIDFromBytes(b.toString().getBytes(StandardCharsets.UTF_8));
  }
}
