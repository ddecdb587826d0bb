package dev.hookledger.runtime.internal.receive;

import dev.hookledger.DeliveryRejectedException;
import dev.hookledger.RejectionReason;
import dev.hookledger.WebhookEvent;
import java.nio.charset.StandardCharsets;

/**
 * The longest event id, scope and entity key the ledger takes, and the text it cannot take at all,
 * checked before a row is queued. They are primary-key columns, and PostgreSQL refuses a B-tree entry
 * over about 2.7 KB: an id longer than that (taken from an unsigned header by GitHub and Shopify)
 * failed its whole group-commit batch, so every delivery sharing the batch was answered 503 (seen
 * here: 15 of 145). Refused alone, with 400, it fails nothing else. 1,024 bytes each keep provider,
 * scope and id together under the index's bound; real ids are a few dozen bytes. PostgreSQL's text
 * and jsonb cannot hold U+0000 at all: an id with a NUL (from a JSON body's escaped NUL) was
 * answered 503, and so redelivered, for ever. Thread-safe.
 */
public final class KeyLimits {
  /** The most UTF-8 bytes of an event id, a scope or an entity key. */
  public static final int MAX_KEY_BYTES = 1024;

  private KeyLimits() {}

  /**
   * Refuses an event whose id, scope or entity key is longer than {@link #MAX_KEY_BYTES}, or any of
   * whose text columns (those, the type, API version, delivery id and kept headers) holds a NUL.
   *
   * @throws DeliveryRejectedException {@code MALFORMED}, naming the field and what is wrong (never its value)
   */
  public static void check(WebhookEvent event) {
    check("event id", event.eventId());
    check("scope", event.scope());
    event.entityKey().ifPresent(key -> check("entity key", key));
    storable("type", event.type());
    event.apiVersion().ifPresent(version -> storable("API version", version));
    event.deliveryId().ifPresent(id -> storable("delivery id", id));
    // the kept headers' names are the adapter's own; their values are the sender's
    event.headers().forEach((name, value) -> storable("header " + name, value));
  }

  private static void check(String what, String value) {
    storable(what, value);
    // a char is at most 3 UTF-8 bytes: only a long string needs encoding to be measured
    if (value.length() * 3L > MAX_KEY_BYTES) {
      int bytes = value.getBytes(StandardCharsets.UTF_8).length;
      if (bytes > MAX_KEY_BYTES) {
        throw new DeliveryRejectedException(RejectionReason.MALFORMED,
            what + " is " + bytes + " bytes long; the ledger takes at most " + MAX_KEY_BYTES);
      }
    }
  }

  private static void storable(String what, String value) {
    if (value.indexOf('\u0000') >= 0) {
      throw new DeliveryRejectedException(RejectionReason.MALFORMED,
          what + " holds a NUL character (U+0000), which the ledger cannot store");
    }
  }
}
