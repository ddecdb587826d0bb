package dev.hookledger.stripe;

import dev.hookledger.internal.replay.ReplaySettings;
import dev.hookledger.spi.ReplaySource;
import dev.hookledger.spi.ReplaySourceFactory;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Builds a {@link StripeReplaySource} from named settings, for the command line and configuration
 * files. Found by {@link java.util.ServiceLoader}. Settings not listed in {@link #settings()} are
 * ignored.
 */
public final class StripeReplaySourceFactory implements ReplaySourceFactory {
  private static final Map<String, String> SETTINGS;

  static {
    Map<String, String> s = new LinkedHashMap<>();
    s.put("api-key", "secret (sk_...) or restricted (rk_...) key that may read events; required, never shown");
    s.put("api-base", "Stripe API base URL; default https://api.stripe.com");
    s.put("account", "connected account (acct_...) whose events to replay, sent as Stripe-Account; default the key's own");
    s.put("delivery-success", "false to replay only events not yet delivered to every endpoint; default all events");
    SETTINGS = Collections.unmodifiableMap(s);
  }

  @Override
  public String provider() {
    return StripeEventFields.PROVIDER;
  }

  @Override
  public Map<String, String> settings() {
    return SETTINGS;
  }

  @Override
  public ReplaySource create(Map<String, String> values) {
    ReplaySettings settings = new ReplaySettings(provider(), values);
    StripeReplaySource.Builder builder =
        StripeReplaySource.builder()
            .apiKey(settings.required("api-key"))
            .apiBase(settings.baseUri("api-base", "https://api.stripe.com"));
    settings.optional("account").ifPresent(builder::account);
    settings.bool("delivery-success").ifPresent(builder::deliverySuccess);
    return builder.build();
  }
}
