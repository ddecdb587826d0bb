package dev.hookledger.internal.replay;

import java.time.Duration;

/**
 * Waits, so that a replay can honour a provider's {@code Retry-After}; tests pass one that only
 * records the wait. Not public API.
 */
@FunctionalInterface
public interface Sleeper {
  /** Blocks the calling thread; the default. */
  Sleeper SYSTEM = duration -> Thread.sleep(duration.toMillis());

  void sleep(Duration duration) throws InterruptedException;
}
