package dev.hookledger.runtime.internal.receive;

import dev.hookledger.DeliveryRejectedException;
import dev.hookledger.InboundDelivery;
import dev.hookledger.SecretResolver;
import dev.hookledger.Secrets;
import dev.hookledger.runtime.UnknownProviderException;
import dev.hookledger.spi.ProviderAdapter;
import dev.hookledger.spi.Rejections;
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
  public record Registration(ProviderAdapter adapter, SecretResolver secrets, int maxBodyBytes) {

    /**
     * The secrets of the delivery's tenant (read from headers or path only), refusing a tenant that
     * has none when the adapter needs them: the runtime's one copy of that rule, asked by the header
     * check before the body is read and by {@code Receiver} for a whole delivery.
     *
     * @throws DeliveryRejectedException {@code NO_SECRET_CONFIGURED}, naming the tenant
     */
    public Secrets secretsFor(String providerId, InboundDelivery delivery) {
      String tenant = adapter.tenantOf(delivery);
      Secrets resolved = secrets.resolve(providerId, tenant);
      Secrets found = resolved == null ? Secrets.none() : resolved;
      if (found.isEmpty() && adapter.needsSecrets()) {
        throw Rejections.noSecret(providerId, tenant);
      }
      return found;
    }
  }
}
