package dev.hookledger.internal.replay;

import static java.util.Objects.requireNonNull;

import java.time.Clock;
import java.time.Duration;

/**
 * What the builders of the built-in replay tools share: how their API calls are retried and timed.
 * Not public API; the public builders extend it so that the settings read the same everywhere.
 *
 * @param <B> the concrete builder, returned by every setter
 */
public abstract class ReplaySourceBuilder<B extends ReplaySourceBuilder<B>> {
  private ReplayRetries retries = ReplayRetries.defaults();

  protected ReplaySourceBuilder() {}

  /** Calls per request, retries included; default {@value ReplayRetries#DEFAULT_MAX_ATTEMPTS}. */
  public B maxAttempts(int maxAttempts) {
    retries = retries.withMaxAttempts(maxAttempts);
    return self();
  }

  /**
   * The longest single wait before a retry; a provider asking to wait longer fails the replay
   * with a clear error instead. Default one minute.
   */
  public B maxWait(Duration maxWait) {
    retries = retries.withMaxWait(maxWait);
    return self();
  }

  /** The clock for retention checks and rate-limit reset times; default the UTC system clock. */
  public B clock(Clock clock) {
    retries = retries.withClock(requireNonNull(clock, "clock"));
    return self();
  }

  /** How to wait before a retry; tests pass one that records instead of sleeping. */
  public B sleeper(Sleeper sleeper) {
    retries = retries.withSleeper(sleeper);
    return self();
  }

  protected ReplayRetries retries() {
    return retries;
  }

  @SuppressWarnings("unchecked")
  private B self() {
    return (B) this;
  }
}
