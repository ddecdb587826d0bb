package dev.hookledger.runtime;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.random.RandomGenerator;

/**
 * When a failed event is tried again, and when it is given up as {@code dead}: exponential backoff
 * with jitter, bounded by a cap and a number of attempts.
 *
 * <p>After failed attempt {@code n} (1 for the first), the event waits
 * {@code min(cap, firstDelay × factor^(n-1))}, spread uniformly by {@code ± jitter} of itself so that
 * events that failed together (a downstream outage) do not all come back at once. Attempt
 * {@code maxAttempts} is the last: if it fails, the event is {@code dead} and waits for an operator
 * ({@code hookledger retry}). Attempts count claims, so an event whose worker dies (its lease runs
 * out) uses an attempt too, and one that keeps killing its worker is set aside after
 * {@code maxAttempts} rather than looping forever.
 *
 * <p>The defaults suit webhooks, whose causes of failure (a dependency down, a deploy, a bug being
 * fixed) last minutes to hours: 10 s, ×2, capped at 1 h, 12 attempts, ±20 %. The eleven waits
 * (10 s, 20 s, 40 s, ..., 42 min 40 s, then 1 h twice) add up to about 3 h 25 min before the twelfth
 * and last attempt.
 *
 * <pre>{@code
 * RetryPolicy policy = RetryPolicy.builder()
 *     .firstDelay(Duration.ofSeconds(30))
 *     .maxAttempts(8)
 *     .build();
 * }</pre>
 *
 * <p>Immutable and thread-safe.
 */
public final class RetryPolicy {
  private static final RetryPolicy DEFAULTS = builder().build();

  private final Duration firstDelay;
  private final double factor;
  private final Duration maxDelay;
  private final int maxAttempts;
  private final double jitter;

  private RetryPolicy(Builder b) {
    this.firstDelay = b.firstDelay;
    this.factor = b.factor;
    this.maxDelay = b.maxDelay;
    this.maxAttempts = b.maxAttempts;
    this.jitter = b.jitter;
  }

  /** The default policy: 10 s, ×2, capped at 1 h, 12 attempts, ±20 % jitter. */
  public static RetryPolicy defaults() {
    return DEFAULTS;
  }

  /** A builder starting from the defaults. */
  public static Builder builder() {
    return new Builder();
  }

  /** The wait after the first failed attempt. */
  public Duration firstDelay() {
    return firstDelay;
  }

  /** What each further wait is multiplied by. */
  public double factor() {
    return factor;
  }

  /** The longest wait before jitter is applied. */
  public Duration maxDelay() {
    return maxDelay;
  }

  /** Attempts at most; the event is {@code dead} when the last one fails. */
  public int maxAttempts() {
    return maxAttempts;
  }

  /** The fraction of each wait by which it is spread at random, 0 to 1. */
  public double jitter() {
    return jitter;
  }

  /** Whether attempt {@code attempt} (1 for the first) is the last one allowed. */
  public boolean isLast(int attempt) {
    return attempt >= maxAttempts;
  }

  /**
   * The wait after failed attempt {@code attempt}: {@code min(maxDelay, firstDelay ×
   * factor^(attempt-1))}, then spread by {@code ± jitter} with {@code random}.
   *
   * @param attempt the attempt that failed, 1 for the first
   * @param random the source of the jitter; with {@code jitter} 0 it is not used
   * @throws IllegalArgumentException if {@code attempt} is below 1
   */
  public Duration delayAfter(int attempt, RandomGenerator random) {
    requireNonNull(random, "random");
    if (attempt < 1) {
      throw new IllegalArgumentException("attempt must be >= 1, but was " + attempt);
    }
    double millis = firstDelay.toMillis() * Math.pow(factor, attempt - 1);
    millis = Math.min(millis, maxDelay.toMillis());
    if (jitter > 0) {
      millis *= 1 + jitter * (2 * random.nextDouble() - 1);
    }
    return Duration.ofMillis(Math.round(millis));
  }

  @Override
  public String toString() {
    return "RetryPolicy[firstDelay=" + firstDelay + ", factor=" + factor + ", maxDelay=" + maxDelay
        + ", maxAttempts=" + maxAttempts + ", jitter=" + jitter + "]";
  }

  /** Builds a {@link RetryPolicy}; each setter names a bad value. Not thread-safe. */
  public static final class Builder {
    private Duration firstDelay = Duration.ofSeconds(10);
    private double factor = 2.0;
    private Duration maxDelay = Duration.ofHours(1);
    private int maxAttempts = 12;
    private double jitter = 0.2;

    private Builder() {}

    /** The wait after the first failed attempt, at least 1 ms; default 10 s. */
    public Builder firstDelay(Duration firstDelay) {
      requireNonNull(firstDelay, "firstDelay");
      if (firstDelay.toMillis() < 1) {
        throw new IllegalArgumentException("firstDelay must be >= 1 ms, but was " + firstDelay);
      }
      this.firstDelay = firstDelay;
      return this;
    }

    /** What each further wait is multiplied by, at least 1 (1 gives a fixed delay); default 2. */
    public Builder factor(double factor) {
      if (!(factor >= 1) || Double.isInfinite(factor)) {
        throw new IllegalArgumentException("factor must be >= 1 and finite, but was " + factor);
      }
      this.factor = factor;
      return this;
    }

    /** The longest wait (before jitter), at least 1 ms; default 1 h. */
    public Builder maxDelay(Duration maxDelay) {
      requireNonNull(maxDelay, "maxDelay");
      if (maxDelay.toMillis() < 1) {
        throw new IllegalArgumentException("maxDelay must be >= 1 ms, but was " + maxDelay);
      }
      this.maxDelay = maxDelay;
      return this;
    }

    /** Attempts at most, counting the first; default 12. */
    public Builder maxAttempts(int maxAttempts) {
      if (maxAttempts < 1) {
        throw new IllegalArgumentException("maxAttempts must be >= 1, but was " + maxAttempts);
      }
      this.maxAttempts = maxAttempts;
      return this;
    }

    /** The fraction by which each wait is spread at random, 0 (none) to 1; default 0.2 (±20 %). */
    public Builder jitter(double jitter) {
      if (!(jitter >= 0 && jitter <= 1)) {
        throw new IllegalArgumentException("jitter must be between 0 and 1, but was " + jitter);
      }
      this.jitter = jitter;
      return this;
    }

    /**
     * Builds the policy.
     *
     * @throws IllegalArgumentException if {@code maxDelay} is shorter than {@code firstDelay}
     */
    public RetryPolicy build() {
      if (maxDelay.compareTo(firstDelay) < 0) {
        throw new IllegalArgumentException("maxDelay (" + maxDelay + ") must not be shorter than firstDelay ("
            + firstDelay + ")");
      }
      return new RetryPolicy(this);
    }
  }
}
