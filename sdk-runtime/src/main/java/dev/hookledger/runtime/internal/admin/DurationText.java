package dev.hookledger.runtime.internal.admin;

import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Durations as operators write them: {@code 30d}, {@code 12h}, {@code 90m}, {@code 45s}, {@code 2w}. */
public final class DurationText {
  private static final Pattern SHORT = Pattern.compile("(\\d{1,9})([smhdw])");

  private DurationText() {}

  /**
   * Reads {@code 30d}, {@code 2h}, ... or an ISO-8601 duration ({@code PT2H}).
   *
   * @throws IllegalArgumentException naming the text if it is neither
   */
  public static Duration parse(String text) {
    Matcher m = SHORT.matcher(text.trim().toLowerCase(Locale.ROOT));
    if (m.matches()) {
      long n = Long.parseLong(m.group(1));
      return switch (m.group(2)) {
        case "s" -> Duration.ofSeconds(n);
        case "m" -> Duration.ofMinutes(n);
        case "h" -> Duration.ofHours(n);
        case "d" -> Duration.ofDays(n);
        default -> Duration.ofDays(7 * n);
      };
    }
    try {
      return Duration.parse(text.trim());
    } catch (RuntimeException e) {
      throw new IllegalArgumentException(
          "not a duration: '" + text + "' (write 45s, 90m, 12h, 30d, 2w or ISO-8601 like PT2H)");
    }
  }

  /** The largest whole unit that renders the duration exactly: {@code 3d}, {@code 36h}, {@code 90m}, {@code 45s}. */
  public static String format(Duration d) {
    long s = d.getSeconds();
    if (s != 0 && s % 86_400 == 0) {
      return s / 86_400 + "d";
    }
    if (s != 0 && s % 3_600 == 0) {
      return s / 3_600 + "h";
    }
    if (s != 0 && s % 60 == 0) {
      return s / 60 + "m";
    }
    return s + "s";
  }

  /** An approximate age for people: {@code 2d 3h}, {@code 5h 12m}, {@code 3m 20s}, {@code 12s}. */
  public static String age(Duration d) {
    long s = Math.max(0, d.getSeconds());
    if (s >= 86_400) {
      return s / 86_400 + "d " + s % 86_400 / 3_600 + "h";
    }
    if (s >= 3_600) {
      return s / 3_600 + "h " + s % 3_600 / 60 + "m";
    }
    if (s >= 60) {
      return s / 60 + "m " + s % 60 + "s";
    }
    return s + "s";
  }
}
