package dev.hookledger.runtime.cli;

import dev.hookledger.internal.UnusableSecrets;
import dev.hookledger.spi.ReplaySource;
import dev.hookledger.spi.ReplaySourceFactory;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.TreeSet;

/**
 * Finds the {@link ReplaySourceFactory} for a provider by {@link ServiceLoader} and gives it its
 * settings: each from {@code HOOKLEDGER_<PROVIDER>_<SETTING>} in the environment
 * ({@code HOOKLEDGER_ACME_API_KEY} for provider {@code acme}'s {@code api-key}), overridden by {@code --set}.
 */
final class ReplaySources {
  private final Map<String, String> environment;

  ReplaySources(Map<String, String> environment) {
    this.environment = environment;
  }

  /**
   * Builds the source.
   *
   * @throws IllegalArgumentException if no factory is on the class path, a {@code --set} names an
   *     unknown setting, or the factory refuses the settings
   * @throws UnsupportedOperationException if the provider has no API to replay from
   */
  ReplaySource create(String provider, Map<String, String> overrides) {
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
  static String variable(String provider, String setting) {
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
