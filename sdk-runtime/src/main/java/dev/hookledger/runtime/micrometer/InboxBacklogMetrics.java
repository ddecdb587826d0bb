package dev.hookledger.runtime.micrometer;

import static java.util.Objects.requireNonNull;

import dev.hookledger.WebhookException;
import dev.hookledger.runtime.admin.Backlog;
import dev.hookledger.runtime.admin.InboxAdmin;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.TimeGauge;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import java.util.function.ToDoubleFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Gauges of the ledger's backlog, read through {@link InboxAdmin#backlog()} (the partial indexes
 * on waiting and dead rows, so the cost follows the backlog, not the history):
 * {@code hookledger.inbox.waiting}, {@code hookledger.inbox.dead} and
 * {@code hookledger.inbox.oldest.waiting} (a time gauge). One read serves all three gauges for
 * {@code maxAge} (default 10 s), however often they are scraped. While the database cannot be
 * read, the gauges report NaN (and a warning is logged), rather than a stale number. The registry
 * holds the gauges' binder strongly, so they keep reading the ledger for as long as they are
 * registered, whether or not the application keeps a reference to this object.
 *
 * <pre>{@code
 * new InboxBacklogMetrics(admin).bindTo(registry);
 * }</pre>
 */
public final class InboxBacklogMetrics implements MeterBinder {
  private static final Logger log = LoggerFactory.getLogger(InboxBacklogMetrics.class);

  private final InboxAdmin admin;
  private final Duration maxAge;
  private final Clock clock;
  private Instant readAt;
  private Backlog last;

  public InboxBacklogMetrics(InboxAdmin admin) {
    this(admin, Duration.ofSeconds(10), Clock.systemUTC());
  }

  /** @param maxAge how long one read of the backlog is reused */
  public InboxBacklogMetrics(InboxAdmin admin, Duration maxAge, Clock clock) {
    this.admin = requireNonNull(admin, "admin");
    this.maxAge = requireNonNull(maxAge, "maxAge");
    this.clock = requireNonNull(clock, "clock");
    if (maxAge.isNegative()) {
      throw new IllegalArgumentException("maxAge must not be negative, but was " + maxAge);
    }
  }

  /**
   * Registers the three gauges. The registry holds this binder strongly: Micrometer's gauges hold
   * their object weakly by default and read NaN once it is collected, and the usual way to bind
   * ({@code new InboxBacklogMetrics(admin).bindTo(registry)}, as the starters do) keeps no other
   * reference, so an alert on {@code hookledger.inbox.dead > 0} would never fire after the first
   * garbage collection.
   */
  @Override
  public void bindTo(MeterRegistry registry) {
    Gauge.builder("hookledger.inbox.waiting", this, m -> m.read(b -> b.waiting()))
        .strongReference(true)
        .description("events pending or processing").register(registry);
    Gauge.builder("hookledger.inbox.dead", this, m -> m.read(b -> b.dead()))
        .strongReference(true)
        .description("events that failed their last attempt and wait for an operator").register(registry);
    TimeGauge.builder("hookledger.inbox.oldest.waiting", this, TimeUnit.SECONDS,
            m -> m.read(b -> b.oldestWaitingAge().toMillis() / 1000.0))
        .strongReference(true)
        .description("age of the oldest waiting event").register(registry);
  }

  private synchronized double read(ToDoubleFunction<Backlog> value) {
    Instant now = clock.instant();
    if (readAt == null || !now.isBefore(readAt.plus(maxAge))) {
      readAt = now;
      try {
        last = admin.backlog();
      } catch (WebhookException e) {
        last = null;
        log.warn("cannot read the ledger backlog for metrics: {}", e.getMessage());
      }
    }
    return last == null ? Double.NaN : value.applyAsDouble(last);
  }
}
