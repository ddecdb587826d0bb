package dev.hookledger.spi.replay;

import static java.util.Objects.requireNonNull;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Optional;

/**
 * How a replay retries a provider API call: at most {@code maxAttempts} calls, waits of at most
 * {@code maxWait} each, through {@code sleeper}, with {@code clock} for reset times.
 *
 * <p>A rate-limited answer waits what the provider asks ({@code Retry-After} in seconds or as an
 * HTTP date, else GitHub's {@code x-ratelimit-reset} when {@code x-ratelimit-remaining} is 0); a
 * provider that asks for longer than {@code maxWait} is not waited for. Otherwise, and for server
 * errors and broken connections, waits double from one second, capped at {@code maxWait}.
 */
public record ReplayRetries(int maxAttempts, Duration maxWait, Sleeper sleeper, Clock clock) {
  /** One call and four retries. */
  public static final int DEFAULT_MAX_ATTEMPTS = 5;
  /** A replay is run by hand or by a scheduled job: a minute is as long as it should stall. */
  public static final Duration DEFAULT_MAX_WAIT = Duration.ofMinutes(1);

  /** Checks the values: at least one attempt, a positive wait. */
  public ReplayRetries {
    if (maxAttempts < 1) {
      throw new IllegalArgumentException("maxAttempts must be >= 1, but was " + maxAttempts);
    }
    requireNonNull(maxWait, "maxWait");
    if (maxWait.isNegative() || maxWait.isZero()) {
      throw new IllegalArgumentException("maxWait must be positive, but was " + maxWait);
    }
    requireNonNull(sleeper, "sleeper");
    requireNonNull(clock, "clock");
  }

  /** Five attempts, a minute at most per wait, real sleeping, the system clock. */
  public static ReplayRetries defaults() {
    return new ReplayRetries(DEFAULT_MAX_ATTEMPTS, DEFAULT_MAX_WAIT, Sleeper.SYSTEM, Clock.systemUTC());
  }

  /** These retries, but with at most {@code maxAttempts} calls. */
  public ReplayRetries withMaxAttempts(int maxAttempts) {
    return new ReplayRetries(maxAttempts, maxWait, sleeper, clock);
  }

  /** These retries, but with waits of at most {@code maxWait}. */
  public ReplayRetries withMaxWait(Duration maxWait) {
    return new ReplayRetries(maxAttempts, maxWait, sleeper, clock);
  }

  /** These retries, but with waits through {@code sleeper}. */
  public ReplayRetries withSleeper(Sleeper sleeper) {
    return new ReplayRetries(maxAttempts, maxWait, sleeper, clock);
  }

  /** These retries, but with reset times read against {@code clock}. */
  public ReplayRetries withClock(Clock clock) {
    return new ReplayRetries(maxAttempts, maxWait, sleeper, clock);
  }

  /** The wait after failed attempt {@code attempt} (1-based): 1 s, 2 s, 4 s, ... up to maxWait. */
  Duration backoff(int attempt) {
    Duration wait = Duration.ofSeconds(1L << Math.min(attempt - 1, 20));
    return wait.compareTo(maxWait) > 0 ? maxWait : wait;
  }

  /** What a rate-limited answer asks to wait, else the backoff; may exceed maxWait. */
  Duration rateLimitWait(ApiResponse response, int attempt) {
    Instant now = clock.instant();
    Optional<Duration> asked =
        response.header("Retry-After")
            .flatMap(value -> retryAfter(value, now))
            .or(() -> response.header("x-ratelimit-remaining")
                .filter("0"::equals)
                .flatMap(zero -> response.header("x-ratelimit-reset"))
                .flatMap(ReplayRetries::epochSeconds)
                .map(reset -> nonNegative(Duration.between(now, reset))));
    return asked.orElseGet(() -> backoff(attempt));
  }

  private static Optional<Duration> retryAfter(String value, Instant now) {
    if (value.chars().allMatch(Character::isDigit) && !value.isEmpty() && value.length() < 10) {
      return Optional.of(Duration.ofSeconds(Long.parseLong(value)));
    }
    try {
      Instant at = ZonedDateTime.parse(value, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant();
      return Optional.of(nonNegative(Duration.between(now, at)));
    } catch (DateTimeParseException e) {
      return Optional.empty();
    }
  }

  private static Optional<Instant> epochSeconds(String value) {
    try {
      return Optional.of(Instant.ofEpochSecond(Long.parseLong(value)));
    } catch (NumberFormatException e) {
      return Optional.empty();
    }
  }

  private static Duration nonNegative(Duration d) {
    return d.isNegative() ? Duration.ZERO : d;
  }
}
