package dev.hookledger.runtime.admin;

import static java.util.Objects.requireNonNull;

import java.time.Instant;
import java.util.List;

/**
 * Events received and settled per minute over the last hour, as the ledger records them
 * ({@code received_at}, {@code settled_at}: {@code done}, {@code ignored}, {@code stale} or
 * {@code dead}). Immutable.
 *
 * @param minutes one entry per minute, oldest first, the current (partial) minute last; minutes
 *     without events are included with zero counts
 */
public record Throughput(List<Minute> minutes) {
  public Throughput {
    minutes = List.copyOf(requireNonNull(minutes, "minutes"));
  }

  /**
   * One minute of the series.
   *
   * @param start the minute's first instant
   * @param received events first recorded in it
   * @param settled events that reached a final status (or dead) in it
   */
  public record Minute(Instant start, long received, long settled) {}

  /** The most events received or settled in any one minute; 0 for an idle hour. */
  public long peak() {
    return minutes.stream().mapToLong(m -> Math.max(m.received(), m.settled())).max().orElse(0);
  }
}
