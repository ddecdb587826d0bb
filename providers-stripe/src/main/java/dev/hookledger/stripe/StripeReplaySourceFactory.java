package dev.hookledger.stripe;

import dev.hookledger.spi.ReplaySource;
import dev.hookledger.spi.ReplaySourceFactory;
import dev.hookledger.spi.replay.ReplaySettings;
import dev.hookledger.spi.replay.SettingsReplaySourceFactory;
import java.util.Map;

/**
 * Builds a {@link StripeReplaySource} from named settings, for the command line and configuration
 * files. Found by {@link java.util.ServiceLoader}. Settings not listed in {@link #settings()} are
 * ignored.
 */
public final class StripeReplaySourceFactory implements ReplaySourceFactory {
  private final SettingsReplaySourceFactory catalogue = new SettingsReplaySourceFactory(
      StripeEventFields.PROVIDER, StripeReplaySourceFactory::build,
      "api-key", "secret (sk_...) or restricted (rk_...) key that may read events; required, never shown",
      "api-base", "Stripe API base URL; default https://api.stripe.com",
      "account", "connected account (acct_...) whose events to replay, sent as Stripe-Account; default the key's own",
      "delivery-success", "false to replay only events not yet delivered to every endpoint; default all events");

  /** Called by {@code ServiceLoader}. */
  public StripeReplaySourceFactory() {}

  @Override
  public String provider() {
    return catalogue.provider();
  }

  @Override
  public Map<String, String> settings() {
    return catalogue.settings();
  }

  @Override
  public ReplaySource create(Map<String, String> values) {
    return catalogue.create(values);
  }

  private static ReplaySource build(ReplaySettings settings) {
    StripeReplaySource.Builder builder =
        StripeReplaySource.builder()
            .apiKey(settings.required("api-key"))
            .apiBase(settings.baseUri("api-base", "https://api.stripe.com"));
    settings.optional("account").ifPresent(builder::account);
    settings.bool("delivery-success").ifPresent(builder::deliverySuccess);
    return builder.build();
  }
}
