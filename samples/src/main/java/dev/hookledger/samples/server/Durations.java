package dev.hookledger.samples.server;

import java.time.Duration;

/** Durations as the samples print them: {@code 100ms}, {@code 10s}, {@code 5m}, {@code 1h}. */
final class Durations {
  private Durations() {}

  /** {@code 100ms}, {@code 10s}, {@code 5m}, {@code 1h}: the largest unit that is exact. */
  static String format(Duration d) {
    long ms = d.toMillis();
    if (ms % 3_600_000 == 0 && ms > 0) {
      return ms / 3_600_000 + "h";
    }
    if (ms % 60_000 == 0 && ms > 0) {
      return ms / 60_000 + "m";
    }
    if (ms % 1000 == 0 && ms > 0) {
      return ms / 1000 + "s";
    }
    return ms + "ms";
  }
}
