package dev.hookledger.runtime.internal.admin;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;

/** Instants as people read them: to the second, and relative to now ({@code 4m 10s ago}, {@code in 2h 5m}). */
public final class TimeText {
  private TimeText() {}

  /** ISO-8601 in UTC, to the second: {@code 2025-03-01T12:00:07Z}. */
  public static String second(Instant at) {
    return at.truncatedTo(ChronoUnit.SECONDS).toString();
  }

  /** {@code 4m 10s ago}, {@code in 2h 5m}, or {@code now} within a second, by {@link DurationText#age}. */
  public static String relative(Instant at, Instant now) {
    Duration d = Duration.between(now, at);
    if (d.abs().compareTo(Duration.ofSeconds(1)) < 0) {
      return "now";
    }
    return d.isNegative() ? DurationText.age(d.negated()) + " ago" : "in " + DurationText.age(d);
  }
}
