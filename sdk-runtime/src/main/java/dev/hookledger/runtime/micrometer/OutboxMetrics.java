package dev.hookledger.runtime.micrometer;

import static java.util.Objects.requireNonNull;

import dev.hookledger.runtime.BreakerState;
import dev.hookledger.runtime.admin.DestinationStatus;
import dev.hookledger.runtime.admin.OutboxAdmin;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.TimeGauge;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.ToDoubleFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Gauges of the outbox, read through {@link OutboxAdmin#destinations()} (the partial indexes on
 * waiting and dead effects and the few rows of destination state, so the cost follows the backlog,
 * not the effects sent): {@code hookledger.effects.waiting}, {@code hookledger.effects.dead},
 * {@code hookledger.effects.oldest.waiting} (a time gauge), {@code hookledger.effects.breakers.open}
 * (destinations whose breaker is open or probing) and {@code hookledger.effects.destinations.paused}.
 * One read serves every gauge for {@code maxAge} (default 10 s); while the database cannot be read,
 * the gauges report NaN (and a warning is logged), never a stale number.
 *
 * <p>The registry holds each gauge's state object strongly: a gauge that held it weakly would read
 * NaN for ever once the binder, which nothing else references after {@code bindTo}, is collected.
 *
 * <pre>{@code
 * new OutboxMetrics(runtime.admin().outbox()).bindTo(registry);
 * }</pre>
 */
public final class OutboxMetrics implements MeterBinder {
  private static final Logger log = LoggerFactory.getLogger(OutboxMetrics.class);

  private final CachedRead<List<DestinationStatus>> destinations;

  public OutboxMetrics(OutboxAdmin outbox) {
    this(outbox, Duration.ofSeconds(10), Clock.systemUTC());
  }

  /** @param maxAge how long one read of the destinations is reused */
  public OutboxMetrics(OutboxAdmin outbox, Duration maxAge, Clock clock) {
    requireNonNull(outbox, "outbox");
    this.destinations = new CachedRead<>(outbox::destinations, requireNonNull(maxAge, "maxAge"),
        requireNonNull(clock, "clock"), log, "the outbox's destinations");
  }

  @Override
  public void bindTo(MeterRegistry registry) {
    Gauge.builder("hookledger.effects.waiting", this, m -> m.sum(DestinationStatus::waiting)).strongReference(true)
        .description("effects pending or sending").register(registry);
    Gauge.builder("hookledger.effects.dead", this, m -> m.sum(DestinationStatus::dead)).strongReference(true)
        .description("effects refused for good or out of attempts, waiting for an operator").register(registry);
    TimeGauge.builder("hookledger.effects.oldest.waiting", this, TimeUnit.SECONDS,
            m -> m.read(all -> all.stream().mapToLong(d -> d.oldestWaitingAge().toMillis()).max().orElse(0) / 1000.0))
        .strongReference(true).description("age of the oldest waiting effect").register(registry);
    Gauge.builder("hookledger.effects.breakers.open", this,
            m -> m.read(all -> all.stream().filter(d -> d.breaker() != BreakerState.CLOSED).count()))
        .strongReference(true).description("destinations whose circuit breaker is open or probing").register(registry);
    Gauge.builder("hookledger.effects.destinations.paused", this,
            m -> m.read(all -> all.stream().filter(DestinationStatus::paused).count()))
        .strongReference(true).description("destinations paused by an operator").register(registry);
  }

  private double sum(java.util.function.ToLongFunction<DestinationStatus> value) {
    return read(all -> all.stream().mapToLong(value).sum());
  }

  private double read(ToDoubleFunction<List<DestinationStatus>> value) {
    return destinations.value(value);
  }
}
