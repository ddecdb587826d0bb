package dev.hookledger.runtime.admin;

import static java.util.Objects.requireNonNull;

import dev.hookledger.internal.UnusableSecrets;
import dev.hookledger.spi.ReplaySource;
import dev.hookledger.spi.ReplaySourceFactory;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.TreeSet;

/**
 * Where the command line's {@code replay} and {@code reconcile} and the admin page's reconcile get a
 * provider's {@link ReplaySource}: the {@link ReplaySourceFactory} of that provider found by
 * {@link ServiceLoader}, given its settings, each from the variable
 * {@code HOOKLEDGER_<PROVIDER>_<SETTING>} ({@code HOOKLEDGER_ACME_API_KEY} for provider
 * {@code acme}'s {@code api-key}), overridden by the command line's {@code --set}.
 *
 * <pre>{@code
 * ReplaySources sources = ReplaySources.fromEnvironment();      // HOOKLEDGER_STRIPE_API_KEY, ...
 * admin.reconcile(sources.create("stripe"), since, until);
 * }</pre>
 *
 * <p>Setting values (API keys among them) are never logged nor put in a message. Immutable and
 * thread-safe.
 */
public final class ReplaySources {
  private final Map<String, String> environment;

  private ReplaySources(Map<String, String> environment) {
    this.environment = Map.copyOf(environment);
  }

  /** Settings from the process's environment variables. */
  public static ReplaySources fromEnvironment() {
    return new ReplaySources(System.getenv());
  }

  /**
   * Settings from {@code variables}, named as environment variables are
   * ({@code HOOKLEDGER_STRIPE_API_KEY}): for settings an application reads from elsewhere.
   */
  public static ReplaySources of(Map<String, String> variables) {
    return new ReplaySources(requireNonNull(variables, "variables"));
  }

  /**
   * The providers whose factories are on the class path, sorted (Shopify's among them: its factory
   * says why it cannot list).
   */
  public List<String> providers() {
    TreeSet<String> found = new TreeSet<>();
    ServiceLoader.load(ReplaySourceFactory.class).forEach(f -> found.add(f.provider()));
    return List.copyOf(found);
  }

  /**
   * Builds {@code provider}'s source from the variables alone.
   *
   * @see #create(String, Map)
   */
  public ReplaySource create(String provider) {
    return create(provider, Map.of());
  }

  /**
   * Builds {@code provider}'s source, each of {@code overrides} (by setting name, {@code api-key})
   * taking the place of its variable.
   *
   * @throws IllegalArgumentException if no factory is on the class path, a {@code --set} names an
   *     unknown setting, or the factory refuses the settings
   * @throws UnsupportedOperationException if the provider has no API to replay from
   */
  public ReplaySource create(String provider, Map<String, String> overrides) {
    requireNonNull(provider, "provider");
    requireNonNull(overrides, "overrides");
    ReplaySourceFactory factory = find(provider);
    Map<String, String> known = factory.settings();
    for (String name : overrides.keySet()) {
      if (!known.containsKey(name)) {
        throw new IllegalArgumentException("unknown setting '" + name + "' for " + provider + " replay (settings: "
            + String.join(", ", new TreeSet<>(known.keySet())) + ")");
      }
    }
    Map<String, String> settings = new LinkedHashMap<>();
    for (String name : known.keySet()) {
      String value = overrides.containsKey(name) ? overrides.get(name) : environment.get(variable(provider, name));
      if (value != null) {
        if (UnusableSecrets.isPlaceholder(value)) {
          // an API key copied from a template as ${...} would be sent to the provider as is
          throw new IllegalArgumentException((overrides.containsKey(name) ? "--set " + name : "environment variable "
              + variable(provider, name)) + " is an unresolved placeholder (${...}): set the value itself");
        }
        settings.put(name, value);
      }
    }
    return factory.create(settings);
  }

  /** The environment variable read for one setting: {@code HOOKLEDGER_ACME_API_KEY}. */
  public static String variable(String provider, String setting) {
    return ("HOOKLEDGER_" + provider + "_" + setting).toUpperCase(Locale.ROOT).replace('-', '_').replace('.', '_');
  }

  private static ReplaySourceFactory find(String provider) {
    TreeSet<String> found = new TreeSet<>();
    for (ReplaySourceFactory f : ServiceLoader.load(ReplaySourceFactory.class)) {
      if (f.provider().equals(provider)) {
        return f;
      }
      found.add(f.provider());
    }
    // the same hint as an adapter not found: the runtime names no provider of its own
    throw new IllegalArgumentException("no replay source for provider '" + provider + "' on the class path: "
        + "add the provider's module, e.g. dev.hookledger:hookledger-" + provider + ", or one with its ReplaySourceFactory (found: " + (found.isEmpty() ? "none" : String.join(", ", found)) + ")");
  }
}
