package dev.hookledger.internal.replay;

import static java.util.Objects.requireNonNull;

import dev.hookledger.spi.ReplaySource;
import dev.hookledger.spi.ReplaySourceFactory;
import java.util.Map;

/**
 * A {@link ReplaySourceFactory} that lists its settings once and reads them through
 * {@link ReplaySettings}, so that every built-in factory names missing and bad settings the same
 * way. Not public API.
 */
public abstract class SettingsReplaySourceFactory implements ReplaySourceFactory {
  private final String provider;
  private final Map<String, String> settings;

  /**
   * @param provider the provider id
   * @param namesAndDescriptions the settings, as {@link ReplaySettings#catalogue} takes them
   */
  protected SettingsReplaySourceFactory(String provider, String... namesAndDescriptions) {
    this.provider = requireNonNull(provider, "provider");
    this.settings = ReplaySettings.catalogue(namesAndDescriptions);
  }

  @Override
  public final String provider() {
    return provider;
  }

  @Override
  public final Map<String, String> settings() {
    return settings;
  }

  @Override
  public final ReplaySource create(Map<String, String> values) {
    return create(new ReplaySettings(provider, values));
  }

  /** Builds the source from the settings read. */
  protected abstract ReplaySource create(ReplaySettings settings);
}
