package dev.hookledger.runtime.admin;

import dev.hookledger.runtime.internal.VisibleText;
import dev.hookledger.runtime.internal.admin.DurationText;
import dev.hookledger.runtime.internal.admin.TimeText;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;

/**
 * Times, durations and the senders' text as the admin tools print them, so that the command line,
 * the admin page and a page of the application's own read alike. Stateless and thread-safe; every
 * result is never null.
 */
public final class AdminText {
  private AdminText() {}

  /**
   * {@code text} (an error, an id, a header, a body: the senders' and handlers' text) as it is shown
   * to a person: its lines and tabs kept, and every other control character (C0, DEL, C1), the line
   * and paragraph separators and the bidirectional marks, overrides and isolates as
   * {@code \}{@code uXXXX}, seen and never obeyed. The command line, the admin JSON and the metrics'
   * tags follow the same rule.
   */
  public static String visible(String text) {
    return VisibleText.text(text);
  }

  /** Whether {@code c} is one of the characters {@link #visible} shows as {@code \}{@code uXXXX} (or a line feed or tab). */
  public static boolean obeyed(char c) {
    return VisibleText.unsafe(c);
  }

  /**
   * A point in time as an operator types it: an ISO instant ({@code 2025-03-01T08:00:00Z}), a local
   * date-time read as UTC ({@code 2025-03-01T08:00}, what a browser's date-time field sends), a date
   * (UTC midnight) or a duration back from {@code now} ({@code 2h}, {@code 3d}).
   *
   * @param name what the value is, for the message ({@code --since}, {@code since})
   * @throws IllegalArgumentException naming {@code name} and the text
   */
  public static Instant when(String name, String text, Instant now) {
    try {
      if (text.contains("T") && !text.startsWith("P")) {
        return text.matches(".*(Z|[+-]\\d{2}:?\\d{2})$") ? OffsetDateTime.parse(text).toInstant()
            : LocalDateTime.parse(text).toInstant(ZoneOffset.UTC);
      }
      if (text.matches("\\d{4}-\\d{2}-\\d{2}")) {
        return LocalDate.parse(text).atStartOfDay(ZoneOffset.UTC).toInstant();
      }
    } catch (DateTimeParseException e) {
      throw new IllegalArgumentException(name + " is not an ISO instant or date: '" + text + "'");
    }
    try {
      return now.minus(DurationText.parse(text));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(name + " is not an ISO instant, a date or a duration back from now: '" + text
          + "' (write 2025-03-01T08:00:00Z, 2025-03-01, 90m or 3d)");
    }
  }

  /** An instant in UTC, to the second, ISO-8601: {@code 2025-03-01T12:00:07Z}. */
  public static String second(Instant at) {
    return TimeText.second(at);
  }

  /** An instant relative to {@code now}: {@code 4m 10s ago}, {@code in 2h 5m}, or {@code now} within a second. */
  public static String relative(Instant at, Instant now) {
    return TimeText.relative(at, now);
  }

  /**
   * A count of waiting events as {@link InboxStatus} counts them: the figure, or {@code over 10000}
   * when it is above {@link InboxStatus#COUNTED} (the read stopped there).
   */
  public static String counted(long n) {
    return n > InboxStatus.COUNTED ? "over " + InboxStatus.COUNTED : Long.toString(n);
  }

  /** {@code status}'s total: exact, or {@code over N} when more events wait than were counted. */
  public static String total(InboxStatus s) {
    return s.waiting() > InboxStatus.COUNTED ? "over " + (s.total() - 1) : Long.toString(s.total());
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
