package dev.hookledger.samples.server;

import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Durations as the samples' options take them: {@code 100ms}, {@code 10s}, {@code 5m}, {@code 1h}. */
final class Durations {
  private static final Pattern TEXT = Pattern.compile("(\\d{1,9})(ms|s|m|h)");

  private Durations() {}

  /** @throws IllegalArgumentException naming the option and the value */
  static Duration parse(String option, String text) {
    Matcher m = TEXT.matcher(text.trim().toLowerCase(Locale.ROOT));
    if (!m.matches()) {
      throw new IllegalArgumentException(option + " must be a duration such as 100ms, 10s, 5m or 1h, but was '" + text + "'");
    }
    long n = Long.parseLong(m.group(1));
    return switch (m.group(2)) {
      case "ms" -> Duration.ofMillis(n);
      case "s" -> Duration.ofSeconds(n);
      case "m" -> Duration.ofMinutes(n);
      default -> Duration.ofHours(n);
    };
  }

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
