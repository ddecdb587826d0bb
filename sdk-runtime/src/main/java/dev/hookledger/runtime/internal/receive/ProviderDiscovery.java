package dev.hookledger.runtime.internal.receive;

import dev.hookledger.spi.ProviderAdapter;
import java.util.Map;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Finds provider adapters by id through {@link ServiceLoader}, for {@code web.xml} setups and
 * {@code provider(String, Secrets)}. An adapter passed explicitly always wins over discovery.
 */
public final class ProviderDiscovery {
  private static final Logger log = LoggerFactory.getLogger(ProviderDiscovery.class);

  private ProviderDiscovery() {}

  /**
   * The adapter with {@code id} among those listed in {@code META-INF/services}.
   *
   * @throws IllegalArgumentException if none has that id (listing the ids found) or two have it
   */
  public static ProviderAdapter find(String id, ClassLoader loader) {
    Map<String, ProviderAdapter> found = discover(loader);
    ProviderAdapter adapter = found.get(id);
    if (adapter == null) {
      throw new IllegalArgumentException("no ProviderAdapter with id '" + id + "' on the class path (found: "
          + (found.isEmpty() ? "none" : String.join(", ", found.keySet()))
          + "); add the provider's module, e.g. dev.hookledger:hookledger-" + id + ", or pass the adapter itself");
    }
    log.info("provider adapter '{}' found on the class path: {}", id, adapter.getClass().getName());
    return adapter;
  }

  private static Map<String, ProviderAdapter> discover(ClassLoader loader) {
    Map<String, ProviderAdapter> found = new TreeMap<>();
    try {
      for (ProviderAdapter adapter : ServiceLoader.load(ProviderAdapter.class, loader)) {
        ProviderAdapter before = found.putIfAbsent(adapter.id(), adapter);
        if (before != null && before.getClass() != adapter.getClass()) {
          throw new IllegalArgumentException("two adapters with id '" + adapter.id() + "' on the class path: "
              + before.getClass().getName() + " and " + adapter.getClass().getName());
        }
      }
    } catch (ServiceConfigurationError e) {
      throw new IllegalArgumentException("a ProviderAdapter listed in META-INF/services cannot be loaded: " + e.getMessage(), e);
    }
    return found;
  }
}
