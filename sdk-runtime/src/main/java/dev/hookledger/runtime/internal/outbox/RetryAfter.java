package dev.hookledger.runtime.internal.outbox;

import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Optional;

/**
 * Reads a {@code Retry-After} header (RFC 9110, section 10.2.3): a number of seconds, or an
 * HTTP-date, read against {@code now}. A date in the past is no wait; a header that is neither is
 * ignored, as if absent. Capped at a day: a destination cannot park an effect for longer by a typo.
 */
final class RetryAfter {
  static final Duration MAX = Duration.ofDays(1);

  private RetryAfter() {}

  static Optional<Duration> parse(String value, Instant now) {
    if (value == null) {
      return Optional.empty();
    }
    String v = value.trim();
    if (v.matches("\\d{1,10}")) {
      return Optional.of(cap(Duration.ofSeconds(Long.parseLong(v))));
    }
    try {
      Instant at = ZonedDateTime.parse(v, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant();
      Duration d = Duration.between(now, at);
      return Optional.of(d.isNegative() ? Duration.ZERO : cap(d));
    } catch (DateTimeParseException e) {
      return Optional.empty();
    }
  }

  private static Duration cap(Duration d) {
    return d.compareTo(MAX) > 0 ? MAX : d;
  }
}
