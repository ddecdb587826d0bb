package dev.hookledger.spi;

import java.util.Map;

/**
 * Builds a {@link ReplaySource} from named settings, so that the command line and configuration
 * files can replay any provider found on the class path. Listed in
 * {@code META-INF/services/dev.hookledger.spi.ReplaySourceFactory}.
 */
public interface ReplaySourceFactory {

  /** The provider id, as {@link ProviderAdapter#id()}. */
  String provider();

  /**
   * The settings this factory reads, with a one-line description each, for {@code --help} and for
   * the error that names a missing one (e.g. {@code api-key} for Stripe; {@code token},
   * {@code repository}, {@code hook-id} for GitHub).
   */
  Map<String, String> settings();

  /**
   * Builds a source.
   *
   * @param settings values by the names of {@link #settings()}; credentials among them are never
   *     logged or echoed
   * @throws IllegalArgumentException naming the missing or bad setting (not its value, if secret)
   * @throws UnsupportedOperationException if the provider has no API to replay from, with a message
   *     that says so plainly and what to do instead
   */
  ReplaySource create(Map<String, String> settings);
}
