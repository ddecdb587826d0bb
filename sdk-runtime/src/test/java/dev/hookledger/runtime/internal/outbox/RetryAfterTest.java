package dev.hookledger.runtime.internal.outbox;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** {@code Retry-After} as RFC 9110 writes it: seconds, or an HTTP-date; anything else is no wait asked. */
class RetryAfterTest {
  private static final Instant NOW = Instant.parse("2026-12-05T08:00:00Z");

  @Test
  void readsSecondsAndHttpDatesAndIgnoresTheRest() {
    assertEquals(Optional.of(Duration.ofSeconds(120)), RetryAfter.parse("120", NOW));
    assertEquals(Optional.of(Duration.ofSeconds(90)), RetryAfter.parse("Sat, 05 Dec 2026 08:01:30 GMT", NOW));
    assertEquals(Optional.of(Duration.ZERO), RetryAfter.parse("Sat, 05 Dec 2026 07:59:00 GMT", NOW), "a date past");
    assertEquals(Optional.of(RetryAfter.MAX), RetryAfter.parse("9999999", NOW), "capped at a day");
    assertEquals(Optional.empty(), RetryAfter.parse("soon", NOW));
    assertEquals(Optional.empty(), RetryAfter.parse("-5", NOW));
    assertEquals(Optional.empty(), RetryAfter.parse(null, NOW));
  }
}
