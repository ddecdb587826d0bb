package dev.hookledger.internal;

import static java.util.Objects.requireNonNull;

import dev.hookledger.WebhookEvent;

/**
 * The byte arrays a {@link WebhookEvent} holds, without the copy its public accessors make: for the
 * ledger writer, which binds them to one insert per delivery, and bodies reach 25 MiB. Not public
 * API; callers must not modify the arrays.
 */
public final class EventBytes {
  /** How this class reads a {@link WebhookEvent}'s fields; given once, by that class's initialiser. */
  public interface Access {
    byte[] body(WebhookEvent event);

    byte[] payloadJson(WebhookEvent event);
  }

  // written by WebhookEvent's class initialiser, which every thread holding an event has seen complete
  private static volatile Access access;

  private EventBytes() {}

  /**
   * Called by {@link WebhookEvent}'s initialiser only.
   *
   * @throws IllegalStateException on a second call
   */
  public static synchronized void install(Access fields) {
    if (access != null) {
      throw new IllegalStateException("EventBytes access is installed by WebhookEvent, once");
    }
    access = requireNonNull(fields, "fields");
  }

  /** The event's body itself, not a copy. */
  public static byte[] body(WebhookEvent event) {
    return access.body(requireNonNull(event, "event"));
  }

  /** The event's payload document itself (the body, unless the provider wraps it), not a copy. */
  public static byte[] payloadJson(WebhookEvent event) {
    return access.payloadJson(requireNonNull(event, "event"));
  }
}
