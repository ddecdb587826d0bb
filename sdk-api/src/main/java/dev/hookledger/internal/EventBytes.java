package dev.hookledger.internal;

import static java.util.Objects.requireNonNull;

import dev.hookledger.WebhookEvent;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;

/**
 * The byte arrays a {@link WebhookEvent} holds, without the copy its public accessors make: for the
 * ledger writer, which binds them to one insert per delivery, and bodies reach 25 MiB. Not public
 * API; callers must not modify the arrays.
 *
 * <p>Reads the event's private fields through a lookup this module is allowed (a module always has
 * private access to itself), so that {@link WebhookEvent} needs no hook to this class: the
 * dependency goes one way, from the implementation to the public type.
 */
public final class EventBytes {
  private static final MethodHandle BODY;
  private static final MethodHandle PAYLOAD_JSON;

  static {
    try {
      MethodHandles.Lookup lookup = MethodHandles.privateLookupIn(WebhookEvent.class, MethodHandles.lookup());
      BODY = lookup.findGetter(WebhookEvent.class, "body", byte[].class);
      PAYLOAD_JSON = lookup.findGetter(WebhookEvent.class, "payloadJson", byte[].class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  private EventBytes() {}

  /** The event's body itself, not a copy. */
  public static byte[] body(WebhookEvent event) {
    return read(BODY, requireNonNull(event, "event"));
  }

  /** The event's payload document itself (the body, unless the provider wraps it), not a copy. */
  public static byte[] payloadJson(WebhookEvent event) {
    return read(PAYLOAD_JSON, requireNonNull(event, "event"));
  }

  private static byte[] read(MethodHandle getter, WebhookEvent event) {
    try {
      return (byte[]) getter.invokeExact(event);
    } catch (RuntimeException | Error e) {
      throw e;
    } catch (Throwable e) {
      throw new IllegalStateException(e);
    }
  }
}
