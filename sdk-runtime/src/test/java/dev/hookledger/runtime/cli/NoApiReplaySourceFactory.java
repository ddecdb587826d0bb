package dev.hookledger.runtime.cli;

import dev.hookledger.spi.ReplaySource;
import dev.hookledger.spi.ReplaySourceFactory;
import java.util.Map;

/** A provider without a replay API, as Shopify is: its factory says so. */
public final class NoApiReplaySourceFactory implements ReplaySourceFactory {
  static final String MESSAGE = "noapi has no API to list past deliveries: reconcile from its resource APIs instead";

  @Override
  public String provider() {
    return "noapi";
  }

  @Override
  public Map<String, String> settings() {
    return Map.of();
  }

  @Override
  public ReplaySource create(Map<String, String> settings) {
    throw new UnsupportedOperationException(MESSAGE);
  }
}
