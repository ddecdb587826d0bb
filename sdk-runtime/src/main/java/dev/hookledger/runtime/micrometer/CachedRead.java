package dev.hookledger.runtime.micrometer;

import dev.hookledger.WebhookException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.function.Supplier;
import java.util.function.ToDoubleFunction;
import org.slf4j.Logger;

/**
 * One read of the ledger shared by a binder's gauges for {@code maxAge}, however often they are
 * scraped; NaN (with a warning) while the ledger cannot be read, never a stale number. Thread-safe.
 */
final class CachedRead<T> {
  private final Supplier<T> read;
  private final Duration maxAge;
  private final Clock clock;
  private final Logger log;
  private final String what;
  private Instant readAt;
  private T last;

  CachedRead(Supplier<T> read, Duration maxAge, Clock clock, Logger log, String what) {
    if (maxAge.isNegative()) {
      throw new IllegalArgumentException("maxAge must not be negative, but was " + maxAge);
    }
    this.read = read;
    this.maxAge = maxAge;
    this.clock = clock;
    this.log = log;
    this.what = what;
  }

  synchronized double value(ToDoubleFunction<T> value) {
    Instant now = clock.instant();
    if (readAt == null || !now.isBefore(readAt.plus(maxAge))) {
      readAt = now;
      try {
        last = read.get();
      } catch (WebhookException e) {
        last = null;
        log.warn("cannot read {} for metrics: {}", what, e.getMessage());
      }
    }
    return last == null ? Double.NaN : value.applyAsDouble(last);
  }
}
