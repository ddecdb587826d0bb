package dev.hookledger.runtime.internal.receive;

import dev.hookledger.SecretResolver;
import dev.hookledger.runtime.UnknownProviderException;
import dev.hookledger.spi.ProviderAdapter;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/** The registered providers by id, each with its secrets and body limit. Immutable. */
public final class ProviderRegistry {
  private final Map<String, Registration> byId;
  private final String registered;

  private ProviderRegistry(Map<String, Registration> byId) {
    this.byId = byId;
    this.registered = String.join(", ", new TreeSet<>(byId.keySet()));
  }

  /**
   * @throws IllegalArgumentException if two adapters share an id, naming both classes
   */
  public static ProviderRegistry of(List<Registration> registrations) {
    Map<String, Registration> byId = new LinkedHashMap<>();
    for (Registration r : registrations) {
      Registration before = byId.putIfAbsent(r.adapter().id(), r);
      if (before != null) {
        throw new IllegalArgumentException("two adapters with id '" + r.adapter().id() + "': "
            + before.adapter().getClass().getName() + " and " + r.adapter().getClass().getName());
      }
    }
    return new ProviderRegistry(Collections.unmodifiableMap(byId));
  }

  /**
   * The registration of {@code id}.
   *
   * @throws UnknownProviderException naming the registered ids
   */
  public Registration get(String id) {
    return find(id).orElseThrow(
        () -> new UnknownProviderException(id, "unknown provider '" + id + "' (registered: " + registered + ")"));
  }

  /** The registration of {@code id}, if there is one: the filter's per-request look-up, which throws nothing. */
  public Optional<Registration> find(String id) {
    return Optional.ofNullable(byId.get(id));
  }

  /** The registered ids, sorted. */
  public Set<String> ids() {
    return Collections.unmodifiableSet(new TreeSet<>(byId.keySet()));
  }

  /** Every registration, in id order. */
  public List<Registration> all() {
    return new TreeMap<>(byId).values().stream().toList();
  }

  /**
   * One provider as configured.
   *
   * @param maxBodyBytes the effective limit: the builder's override, else the adapter's
   */
  public record Registration(ProviderAdapter adapter, SecretResolver secrets, int maxBodyBytes) {}
}
