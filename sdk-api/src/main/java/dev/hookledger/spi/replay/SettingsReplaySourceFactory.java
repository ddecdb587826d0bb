package dev.hookledger.spi.replay;

import static java.util.Objects.requireNonNull;

import dev.hookledger.spi.ReplaySource;
import dev.hookledger.spi.ReplaySourceFactory;
import java.util.Map;
import java.util.function.Function;

/**
 * A {@link ReplaySourceFactory} that lists its settings once and reads them through
 * {@link ReplaySettings}, so that every built-in factory names missing and bad settings the same
 * way. An adapter's public factory delegates to one, so that its own type stays final and its
 * settings are listed in one place.
 */
public final class SettingsReplaySourceFactory implements ReplaySourceFactory {
  private final String provider;
  private final Map<String, String> settings;
  private final Function<ReplaySettings, ReplaySource> create;

  /**
   * @param provider the provider id
   * @param create builds the source from the settings read
   * @param namesAndDescriptions the settings, as {@link ReplaySettings#catalogue} takes them
   */
  public SettingsReplaySourceFactory(String provider, Function<ReplaySettings, ReplaySource> create,
      String... namesAndDescriptions) {
    this.provider = requireNonNull(provider, "provider");
    this.create = requireNonNull(create, "create");
    this.settings = ReplaySettings.catalogue(namesAndDescriptions);
  }

  @Override
  public String provider() {
    return provider;
  }

  @Override
  public Map<String, String> settings() {
    return settings;
  }

  @Override
  public ReplaySource create(Map<String, String> values) {
    return create.apply(new ReplaySettings(provider, values));
  }
}
