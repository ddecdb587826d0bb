package dev.hookledger.runtime.internal.inbox;

import dev.hookledger.runtime.RetryPolicy;
import java.time.Duration;

/**
 * How a runtime's inbox workers run, as the builder validated it.
 *
 * @param workers threads processing events; 0 for a runtime that only receives
 * @param batchSize events claimed at most per claim
 * @param lease how long a claim holds before another worker may take the event over
 * @param pollInterval the mean time between polls when no notification arrives
 * @param shutdownTimeout how long {@code close()} waits for events in flight
 * @param maxClaimBytes the most body bytes one claim takes into memory (at least one event is claimed)
 * @param handlerTimeout how long an attempt's handlers may run (its lease is renewed until then)
 */
public record InboxSettings(int workers, int batchSize, Duration lease, Duration pollInterval, Duration shutdownTimeout,
    RetryPolicy retryPolicy, long maxClaimBytes, Duration handlerTimeout) {

  /** An eighth of the heap, at least 16 MiB: a claim of large bodies never crowds out the requests. */
  public static long defaultMaxClaimBytes() {
    return Math.max(16L << 20, Runtime.getRuntime().maxMemory() / 8);
  }
}
