package dev.hookledger.spi.replay;

import java.time.Duration;

/**
 * Waits, so that a replay can honour a provider's {@code Retry-After}; tests pass one that only
 * records the wait.
 */
@FunctionalInterface
public interface Sleeper {
  /** Blocks the calling thread; the default. */
  Sleeper SYSTEM = duration -> Thread.sleep(duration.toMillis());

  /** Waits {@code duration}, or less if interrupted. */
  void sleep(Duration duration) throws InterruptedException;
}
