package dev.hookledger.spi.replay;

import static java.util.Objects.requireNonNull;

import java.net.URI;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Reads the named settings a {@link dev.hookledger.spi.ReplaySourceFactory} receives, with errors
 * that name the setting, how to give it, and the bad value unless the setting is a secret.
 * Blank values count as absent.
 */
public final class ReplaySettings {
  private final String provider;
  private final Map<String, String> values;

  /**
   * @param provider the provider id, which names the settings in messages and environment variables
   * @param values the values given, by setting name
   */
  public ReplaySettings(String provider, Map<String, String> values) {
    this.provider = requireNonNull(provider, "provider");
    this.values = Map.copyOf(requireNonNull(values, "settings"));
  }

  /**
   * The settings a factory lists, in the order given: {@code catalogue("api-key", "what it is", ...)}.
   *
   * @throws IllegalArgumentException if the arguments are not name and description pairs
   */
  public static Map<String, String> catalogue(String... namesAndDescriptions) {
    if (namesAndDescriptions.length % 2 != 0) {
      throw new IllegalArgumentException("settings come as name and description pairs, but " + namesAndDescriptions.length + " strings were given");
    }
    Map<String, String> settings = new LinkedHashMap<>();
    for (int i = 0; i < namesAndDescriptions.length; i += 2) {
      settings.put(namesAndDescriptions[i], namesAndDescriptions[i + 1]);
    }
    return Collections.unmodifiableMap(settings);
  }

  /** The value of a setting that must be given. */
  public String required(String name) {
    return optional(name)
        .orElseThrow(() -> new IllegalArgumentException(
            provider + " replay needs the setting '" + name + "' (--set " + name + "=... or "
                + environmentName(name) + ")"));
  }

  /** The value of a setting, trimmed; empty when absent or blank. */
  public Optional<String> optional(String name) {
    return Optional.ofNullable(values.get(name)).map(String::trim).filter(v -> !v.isEmpty());
  }

  /** A {@code true}/{@code false} setting (any letter case). */
  public Optional<Boolean> bool(String name) {
    return optional(name).map(value -> switch (value.toLowerCase(Locale.ROOT)) {
      case "true" -> true;
      case "false" -> false;
      default -> throw bad(name, "must be true or false", value);
    });
  }

  /** A base URL setting, checked and normalised by {@link ProviderApiClient#baseUri}. */
  public URI baseUri(String name, String defaultValue) {
    return ProviderApiClient.baseUri(describe(name), optional(name).orElse(defaultValue));
  }

  /** The error for a bad value: {@code stripe replay setting 'x' must be ..., but was 'value'}. */
  public IllegalArgumentException bad(String name, String rule, String value) {
    return new IllegalArgumentException(describe(name) + " " + rule + ", but was '" + value + "'");
  }

  /** The error for a bad secret: names the rule, never the value. */
  public IllegalArgumentException badSecret(String name, String rule) {
    return new IllegalArgumentException(describe(name) + " " + rule + " (the value is not shown: it is a secret)");
  }

  /** {@code HOOKLEDGER_<PROVIDER>_<SETTING>}, as the command line reads settings from the environment. */
  public String environmentName(String name) {
    return ("HOOKLEDGER_" + provider + "_" + name).toUpperCase(Locale.ROOT).replace('-', '_');
  }

  private String describe(String name) {
    return provider + " replay setting '" + name + "'";
  }
}
