package dev.hookledger.runtime.internal.admin;

import dev.hookledger.runtime.internal.settings.SettingText;
import java.time.Duration;

/** Durations as operators write them: {@code 30d}, {@code 12h}, {@code 90m}, {@code 45s}, {@code 2w}. */
public final class DurationText {
  private DurationText() {}

  /**
   * Reads {@code 30d}, {@code 2h}, ... or an ISO-8601 duration ({@code PT2H}): the runtime's one
   * grammar of durations ({@link SettingText#duration}), with the operator's words in the message.
   *
   * @throws IllegalArgumentException naming the text if it is neither
   */
  public static Duration parse(String text) {
    try {
      return SettingText.duration(text);
    } catch (IllegalArgumentException e) {
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
