package dev.hookledger.runtime.internal.settings;

import dev.hookledger.runtime.ProcessingMode;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The one grammar of settings written as text (web.xml init-params, environment variables, command
 * line options): every door that reads text reads it here. Each parser names what it expected and
 * the text it got; the caller prefixes the setting's name in its own door's terms.
 */
public final class SettingText {
  /** {@code 500ms}, {@code 30s}, {@code 5m}, {@code 2h}, {@code 30d}, {@code 2w}. */
  private static final Pattern SHORT_DURATION = Pattern.compile("(\\d{1,18})\\s*(ms|s|m|h|d|w)");
  /** {@code 1048576}, {@code 512KB}, {@code 128MB}, {@code 1GB}: binary units, as Spring's {@code DataSize}. */
  private static final Pattern SIZE = Pattern.compile("(\\d{1,18})\\s*(B|KB|MB|GB)?");

  private SettingText() {}

  /** A duration: {@code 500ms}, {@code 30s}, {@code 5m}, {@code 2h}, {@code 30d}, {@code 2w}, or ISO-8601 ({@code PT30S}). */
  public static Duration duration(String text) {
    String v = text.trim();
    Matcher m = SHORT_DURATION.matcher(v.toLowerCase(Locale.ROOT));
    try {
      if (m.matches()) {
        long n = Long.parseLong(m.group(1));
        return switch (m.group(2)) {
          case "ms" -> Duration.ofMillis(n);
          case "s" -> Duration.ofSeconds(n);
          case "m" -> Duration.ofMinutes(n);
          case "h" -> Duration.ofHours(n);
          case "d" -> Duration.ofDays(n);
          default -> Duration.ofDays(Math.multiplyExact(7, n));
        };
      }
      return Duration.parse(v);
    } catch (DateTimeParseException | ArithmeticException e) {
      throw new IllegalArgumentException("must be a duration such as 500ms, 30s, 5m, 2h, 30d or PT30S, but was '"
          + text + "'", e);
    }
  }

  /** The shortest text of {@code d} in this grammar: {@code 30s}, {@code 5m}, {@code 500ms}, {@code 0s}. */
  public static String format(Duration d) {
    if (d.isZero()) {
      return "0s";
    }
    long ms = d.toMillis();
    if (!Duration.ofMillis(ms).equals(d) || ms < 0) {
      return d.toString();
    }
    long[] units = {7L * 86_400_000, 86_400_000, 3_600_000, 60_000, 1000, 1};
    String[] names = {"w", "d", "h", "m", "s", "ms"};
    for (int i = 0; i < units.length; i++) {
      if (ms % units[i] == 0) {
        return ms / units[i] + names[i];
      }
    }
    return ms + "ms";
  }

  /** A whole number within {@code int}. */
  public static int whole(String text) {
    try {
      return Integer.parseInt(text.trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("must be a whole number, but was '" + text + "'", e);
    }
  }

  /** A number of bytes: {@code 1048576}, or with a binary unit, {@code 512KB}, {@code 128MB}, {@code 1GB}. */
  public static long bytes(String text) {
    Matcher m = SIZE.matcher(text.trim().toUpperCase(Locale.ROOT));
    try {
      if (m.matches()) {
        long n = Long.parseLong(m.group(1));
        String unit = m.group(2) == null ? "B" : m.group(2);
        return switch (unit) {
          case "KB" -> Math.multiplyExact(n, 1L << 10);
          case "MB" -> Math.multiplyExact(n, 1L << 20);
          case "GB" -> Math.multiplyExact(n, 1L << 30);
          default -> n;
        };
      }
    } catch (ArithmeticException | NumberFormatException e) {
      // too large: answered below as any other text that is not a size
    }
    throw new IllegalArgumentException("must be a number of bytes such as 1048576, 512KB, 128MB or 1GB, but was '"
        + text + "'");
  }

  /** A decimal number such as {@code 2} or {@code 0.2}. */
  public static double decimal(String text) {
    try {
      return Double.parseDouble(text.trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("must be a number such as 2 or 0.2, but was '" + text + "'", e);
    }
  }

  /** A processing mode by name, in any case, {@code -} for {@code _}. */
  public static ProcessingMode mode(String text) {
    String name = text.trim().toUpperCase(Locale.ROOT).replace('-', '_');
    try {
      return ProcessingMode.valueOf(name);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("must be one of " + Arrays.toString(ProcessingMode.values())
          + ", but was '" + text + "'", e);
    }
  }

  /** {@code true} or {@code false}, in any case; anything else is refused, never read as false. */
  public static boolean yesNo(String text) {
    String t = text.trim().toLowerCase(Locale.ROOT);
    if (!t.equals("true") && !t.equals("false")) {
      throw new IllegalArgumentException("must be true or false, but was '" + text + "'");
    }
    return t.equals("true");
  }

  /** Comma-separated values, each trimmed, blanks dropped. */
  public static List<String> list(String text) {
    List<String> out = new ArrayList<>();
    if (text != null) {
      for (String part : text.split(",")) {
        if (!part.isBlank()) {
          out.add(part.trim());
        }
      }
    }
    return List.copyOf(out);
  }
}
