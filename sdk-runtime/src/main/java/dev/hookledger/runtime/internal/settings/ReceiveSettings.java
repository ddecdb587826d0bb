package dev.hookledger.runtime.internal.settings;

import java.time.Duration;
import java.util.Map;

/**
 * How deliveries are taken in: the ledger writers and the deliveries that may wait for them, the
 * bytes of bodies held at once, the time a body may take to arrive, and the body limits set per
 * provider over their adapters' own.
 */
public record ReceiveSettings(int ledgerWriters, int queueCapacity, long maxInFlightBodyBytes, Duration bodyReadTimeout,
    Map<String, Integer> maxBodyBytes) {
  public ReceiveSettings {
    maxBodyBytes = Map.copyOf(maxBodyBytes);
  }
}
