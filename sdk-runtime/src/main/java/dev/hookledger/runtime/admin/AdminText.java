package dev.hookledger.runtime.admin;

import dev.hookledger.runtime.internal.admin.DurationText;
import dev.hookledger.runtime.internal.admin.TimeText;
import java.time.Duration;
import java.time.Instant;

/**
 * Times and durations as the admin tools print them, so that the command line, the admin page and
 * a page of the application's own read alike. Stateless and thread-safe; every result is never null.
 */
public final class AdminText {
  private AdminText() {}

  /** An instant in UTC, to the second, ISO-8601: {@code 2025-03-01T12:00:07Z}. */
  public static String second(Instant at) {
    return TimeText.second(at);
  }

  /** An instant relative to {@code now}: {@code 4m 10s ago}, {@code in 2h 5m}, or {@code now} within a second. */
  public static String relative(Instant at, Instant now) {
    return TimeText.relative(at, now);
  }

  /** An approximate age for people: {@code 2d 3h}, {@code 5h 12m}, {@code 3m 20s}, {@code 12s}. */
  public static String age(Duration d) {
    return DurationText.age(d);
  }

  /** A duration exactly, in its largest whole unit: {@code 3d}, {@code 36h}, {@code 90m}, {@code 45s}. */
  public static String duration(Duration d) {
    return DurationText.format(d);
  }
}
