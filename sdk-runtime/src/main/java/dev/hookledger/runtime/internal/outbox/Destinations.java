package dev.hookledger.runtime.internal.outbox;

import dev.hookledger.runtime.Destination;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The destinations of one runtime by name: those the builder named, each effect handler's (with the
 * defaults unless the builder named it too), and, made on first use, an absolute URL's origin with
 * the defaults. The one owner of which settings an effect is sent with. Thread-safe.
 */
public final class Destinations {
  private final Map<String, Destination> named;
  private final Map<String, EffectHandlerRegistration<?>> handlersByType = new HashMap<>();
  private final Map<String, Destination> origins = new ConcurrentHashMap<>();

  public Destinations(Map<String, Destination> named, List<EffectHandlerRegistration<?>> handlers) {
    Map<String, Destination> all = new HashMap<>(named);
    for (EffectHandlerRegistration<?> h : handlers) {
      all.putIfAbsent(h.destination(), Destination.named(h.destination()));
      handlersByType.put(h.type().getName(), h);
    }
    this.named = Map.copyOf(all);
  }

  /** A named destination, if the builder named it or an effect handler is registered under it. */
  Optional<Destination> named(String name) {
    return Optional.ofNullable(named.get(name));
  }

  /**
   * Whether this node can send to the destination: one it names, or an absolute URL's origin. A
   * node that lacks a destination (its configuration differs, or it runs an older build) leaves
   * those effects to the nodes that have it, rather than failing them.
   */
  boolean sends(String name) {
    return named.containsKey(name) || name.contains("://");
  }

  /** The destination an effect row names: a named one, else an origin's, with the defaults. */
  Destination of(String name) {
    Destination d = named.get(name);
    return d != null ? d : origins.computeIfAbsent(name, Destination::named);
  }

  /** The handler of effects of exactly this class, or of the nearest of its supertypes that has one. */
  Optional<EffectHandlerRegistration<?>> handlerFor(Class<?> type) {
    for (Class<?> c = type; c != null; c = c.getSuperclass()) {
      EffectHandlerRegistration<?> h = handlersByType.get(c.getName());
      if (h != null) {
        return Optional.of(h);
      }
      for (Class<?> i : c.getInterfaces()) {
        h = handlersByType.get(i.getName());
        if (h != null) {
          return Optional.of(h);
        }
      }
    }
    return Optional.empty();
  }

  /** The handler registered for the class of this name, as an effect row's {@code payload_type} holds it. */
  Optional<EffectHandlerRegistration<?>> handlerNamed(String type) {
    return Optional.ofNullable(handlersByType.get(type));
  }
}
