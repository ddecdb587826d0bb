package dev.hookledger.internal;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hookledger.WebhookEvent;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

/**
 * The payload tree a {@link WebhookEvent} parses once, itself, without the deep copy its public
 * {@link WebhookEvent#payload()} makes for each call: for the runtime's payload parameters, which
 * only read it (a pointer, a required-properties check, Jackson's mapping to the parameter's type).
 * The copy of a push's whole tree per parameter was a share of the workers' CPU in a profile. Not
 * public API; callers must not modify the tree.
 *
 * <p>Calls the event's private {@code tree()} through a lookup this module is allowed, as
 * {@link EventBytes} reads its arrays, so that {@link WebhookEvent} needs no hook to this class.
 */
public final class PayloadTree {
  private static final MethodHandle TREE;

  static {
    try {
      TREE = MethodHandles.privateLookupIn(WebhookEvent.class, MethodHandles.lookup())
          .findVirtual(WebhookEvent.class, "tree", MethodType.methodType(JsonNode.class));
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  private PayloadTree() {}

  /**
   * The event's shared payload tree, parsed on first use.
   *
   * @throws dev.hookledger.WebhookException if the payload is not JSON, as {@link WebhookEvent#payload()}
   */
  public static JsonNode of(WebhookEvent event) {
    requireNonNull(event, "event");
    try {
      return (JsonNode) TREE.invokeExact(event);
    } catch (RuntimeException | Error e) {
      throw e;
    } catch (Throwable e) {
      throw new IllegalStateException(e);
    }
  }
}
