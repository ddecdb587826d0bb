package dev.hookledger.samples.bench;

import java.time.Duration;
import java.util.Arrays;

/** Percentiles of a set of latencies, by the nearest-rank method. Immutable. */
final class Latencies {
  private final long[] sortedNanos;

  Latencies(long[] nanos) {
    this.sortedNanos = nanos.clone();
    Arrays.sort(sortedNanos);
  }

  /** Every latency, in nanoseconds, shortest first (a copy). */
  long[] nanos() {
    return sortedNanos.clone();
  }

  int count() {
    return sortedNanos.length;
  }

  /**
   * The {@code p}-th percentile ({@code 0 < p <= 100}): the smallest latency that at least
   * {@code p} percent of the samples do not exceed.
   */
  Duration percentile(double p) {
    if (!(p > 0 && p <= 100)) {
      throw new IllegalArgumentException("percentile must be in (0, 100], but was " + p);
    }
    if (sortedNanos.length == 0) {
      return Duration.ZERO;
    }
    int rank = (int) Math.ceil(p / 100.0 * sortedNanos.length);
    return Duration.ofNanos(sortedNanos[Math.max(rank, 1) - 1]);
  }

  Duration max() {
    return sortedNanos.length == 0 ? Duration.ZERO : Duration.ofNanos(sortedNanos[sortedNanos.length - 1]);
  }

  static String millis(Duration d) {
    return String.format("%.1f ms", d.toNanos() / 1e6);
  }
}
