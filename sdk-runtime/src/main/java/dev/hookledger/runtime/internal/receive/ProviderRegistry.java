package dev.hookledger.runtime.internal.receive;

import dev.hookledger.SecretResolver;
import dev.hookledger.runtime.UnknownProviderException;
import dev.hookledger.spi.ProviderAdapter;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/** The registered providers by id, each with its secrets and body limit. Immutable. */
public final class ProviderRegistry {
  private final Map<String, Registration> byId;

  private ProviderRegistry(Map<String, Registration> byId) {
    this.byId = byId;
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
    Registration r = byId.get(id);
    if (r == null) {
      throw new UnknownProviderException(id, "unknown provider '" + id + "' (registered: " + String.join(", ", ids()) + ")");
    }
    return r;
  }

  /** The registered ids, sorted. */
  public Set<String> ids() {
    return Collections.unmodifiableSet(new TreeSet<>(byId.keySet()));
  }

  /**
   * One provider as configured.
   *
   * @param maxBodyBytes the effective limit: the builder's override, else the adapter's
   */
  public record Registration(ProviderAdapter adapter, SecretResolver secrets, int maxBodyBytes) {}
}
