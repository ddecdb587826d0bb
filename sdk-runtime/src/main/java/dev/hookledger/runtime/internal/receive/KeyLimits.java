package dev.hookledger.runtime.internal.receive;

import dev.hookledger.DeliveryRejectedException;
import dev.hookledger.RejectionReason;
import dev.hookledger.WebhookEvent;
import java.nio.charset.StandardCharsets;

/**
 * The longest event id, scope and entity key the ledger takes, checked before a row is queued. They
 * are primary-key columns, and PostgreSQL refuses a B-tree entry over about 2.7 KB: an id longer
 * than that (taken from an unsigned header by GitHub and Shopify) failed its whole group-commit
 * batch, so every delivery sharing the batch was answered 503 (seen here: 15 of 145). Refused
 * alone, with 400, it fails nothing else. 1,024 bytes each keep provider, scope and id together under
 * the index's bound; real ids are a few dozen bytes. Thread-safe.
 */
public final class KeyLimits {
  /** The most UTF-8 bytes of an event id, a scope or an entity key. */
  public static final int MAX_KEY_BYTES = 1024;

  private KeyLimits() {}

  /**
   * Refuses an event whose id, scope or entity key is longer than {@link #MAX_KEY_BYTES}.
   *
   * @throws DeliveryRejectedException {@code MALFORMED}, naming the field and its length (never its value)
   */
  public static void check(WebhookEvent event) {
    check("event id", event.eventId());
    check("scope", event.scope());
    event.entityKey().ifPresent(key -> check("entity key", key));
  }

  private static void check(String what, String value) {
    // a char is at most 3 UTF-8 bytes: only a long string needs encoding to be measured
    if (value.length() * 3L > MAX_KEY_BYTES) {
      int bytes = value.getBytes(StandardCharsets.UTF_8).length;
      if (bytes > MAX_KEY_BYTES) {
        throw new DeliveryRejectedException(RejectionReason.MALFORMED,
            what + " is " + bytes + " bytes long; the ledger takes at most " + MAX_KEY_BYTES);
      }
    }
  }
}
