package dev.hookledger.spi.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.net.http.HttpHeaders;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ReplayRetriesTest {
  private static final Instant NOW = Instant.parse("2024-09-10T12:00:00Z");
  private final ReplayRetries retries =
      ReplayRetries.defaults().withClock(Clock.fixed(NOW, ZoneOffset.UTC)).withMaxWait(Duration.ofSeconds(10));

  private static ApiResponse answer(int status, Map<String, String> headers) {
    Map<String, List<String>> multi = new java.util.HashMap<>();
    headers.forEach((k, v) -> multi.put(k, List.of(v)));
    return new ApiResponse(status, HttpHeaders.of(multi, (k, v) -> true), new byte[0]);
  }

  @Test
  void backoffDoublesFromOneSecondUpToMaxWait() {
    assertEquals(
        List.of(Duration.ofSeconds(1), Duration.ofSeconds(2), Duration.ofSeconds(4), Duration.ofSeconds(8), Duration.ofSeconds(10)),
        List.of(retries.backoff(1), retries.backoff(2), retries.backoff(3), retries.backoff(4), retries.backoff(5)));
  }

  @Test
  void retryAfterInSecondsIsWaitedEvenBeyondMaxWaitSoTheCallerCanRefuse() {
    assertEquals(Duration.ofSeconds(7), retries.rateLimitWait(answer(429, Map.of("Retry-After", "7")), 1));
    assertEquals(Duration.ofSeconds(120), retries.rateLimitWait(answer(429, Map.of("Retry-After", "120")), 1));
  }

  @Test
  void retryAfterAsHttpDateIsMeasuredFromTheClock() {
    assertEquals(
        Duration.ofSeconds(30),
        retries.rateLimitWait(answer(429, Map.of("Retry-After", "Tue, 10 Sep 2024 12:00:30 GMT")), 1));
  }

  @Test
  void exhaustedGitHubQuotaWaitsUntilTheReset() {
    long reset = NOW.plusSeconds(42).getEpochSecond();
    ApiResponse limited = answer(403, Map.of("x-ratelimit-remaining", "0", "x-ratelimit-reset", Long.toString(reset)));

    assertEquals(Duration.ofSeconds(42), retries.rateLimitWait(limited, 1));
  }

  @Test
  void resetInThePastWaitsNothing() {
    long reset = NOW.minusSeconds(5).getEpochSecond();
    ApiResponse limited = answer(403, Map.of("x-ratelimit-remaining", "0", "x-ratelimit-reset", Long.toString(reset)));

    assertEquals(Duration.ZERO, retries.rateLimitWait(limited, 1));
  }

  @Test
  void unreadableOrMissingHintsFallBackToBackoff() {
    assertEquals(Duration.ofSeconds(4), retries.rateLimitWait(answer(429, Map.of("Retry-After", "soon")), 3));
    assertEquals(Duration.ofSeconds(2), retries.rateLimitWait(answer(429, Map.of("x-ratelimit-remaining", "12")), 2));
  }

  @Test
  void badLimitsAreRefusedNamingTheValue() {
    IllegalArgumentException attempts = assertThrows(IllegalArgumentException.class, () -> retries.withMaxAttempts(0));
    IllegalArgumentException wait = assertThrows(IllegalArgumentException.class, () -> retries.withMaxWait(Duration.ZERO));

    assertEquals("maxAttempts must be >= 1, but was 0", attempts.getMessage());
    assertEquals("maxWait must be positive, but was PT0S", wait.getMessage());
  }
}
