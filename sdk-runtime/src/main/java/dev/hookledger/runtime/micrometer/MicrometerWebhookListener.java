package dev.hookledger.runtime.micrometer;

import static java.util.Objects.requireNonNull;

import dev.hookledger.RejectionReason;
import dev.hookledger.WebhookEvent;
import dev.hookledger.runtime.RefusedDelivery;
import dev.hookledger.runtime.Settlement;
import dev.hookledger.runtime.WebhookListener;
import dev.hookledger.runtime.internal.VisibleText;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * Records what the runtime does with deliveries as Micrometer meters. Register it with the
 * runtime's builder, {@code listener(metrics)}; call {@code listener(...)} again for each further
 * listener (or combine them with {@link WebhookListener#composite}). Micrometer is an
 * optional dependency of sdk-runtime: add {@code io.micrometer:micrometer-core} to use this.
 *
 * <table>
 * <caption>Meters</caption>
 * <tr><th>name</th><th>kind</th><th>tags</th></tr>
 * <tr><td>{@code hookledger.events.received}</td><td>counter</td><td>provider [, type]</td></tr>
 * <tr><td>{@code hookledger.events.duplicate}</td><td>counter</td><td>provider [, type]</td></tr>
 * <tr><td>{@code hookledger.deliveries.rejected}</td><td>counter</td><td>provider, reason ({@code signature_mismatch}, ...)</td></tr>
 * <tr><td>{@code hookledger.deliveries.refused}</td><td>counter</td><td>provider ({@code (unknown)} for
 *     a path naming none), reason ({@code signature_mismatch}, {@code unknown_provider}, {@code over_budget},
 *     {@code read_timeout}, ...): every refusal at the webhook door</td></tr>
 * <tr><td>{@code hookledger.ledger.unavailable}</td><td>counter</td><td>provider</td></tr>
 * <tr><td>{@code hookledger.events.processed}</td><td>counter</td><td>provider, status ({@code done}, {@code ignored}, {@code stale}) [, type]</td></tr>
 * <tr><td>{@code hookledger.events.retried}</td><td>counter</td><td>provider [, type]</td></tr>
 * <tr><td>{@code hookledger.events.dead}</td><td>counter</td><td>provider [, type]</td></tr>
 * <tr><td>{@code hookledger.aftercommit.failed}</td><td>counter</td><td>provider: {@code afterCommit} actions
 *     that threw (never run again)</td></tr>
 * <tr><td>{@code hookledger.receive}</td><td>timer</td><td>provider: verify and record, to the commit</td></tr>
 * <tr><td>{@code hookledger.processing}</td><td>timer</td><td>provider, status [, type]: the processing transaction</td></tr>
 * </table>
 *
 * <p><b>Cardinality.</b> Provider, status and reason are small fixed sets. Event types are bounded
 * per provider but not small (Stripe has some 250), and a custom adapter could produce any string,
 * so the {@code type} tag is off by default; {@link Builder#tagEventTypes(int)} turns it on with a
 * cap on distinct types, past which further types are tagged {@code other}. Error messages and
 * event ids are never tags.
 *
 * <p>Each meter is registered once, on its first use, and kept: an event costs a map lookup per
 * meter, not a registration (whose id is built and its tags sorted on every call). A meter removed
 * from the registry by the application is therefore not registered again. Thread-safe.
 */
public final class MicrometerWebhookListener implements WebhookListener {
  /** The {@code type} tag's value for types beyond the cap. */
  public static final String OTHER_TYPE = "other";

  private final MeterRegistry registry;
  private final int maxEventTypes;
  private final Set<String> types = ConcurrentHashMap.newKeySet();
  private final Map<List<String>, Meter> meters = new ConcurrentHashMap<>();

  private MicrometerWebhookListener(Builder b) {
    this.registry = b.registry;
    this.maxEventTypes = b.maxEventTypes;
  }

  /** A listener recording into {@code registry}, tagged by provider (no type tag). */
  public static MicrometerWebhookListener of(MeterRegistry registry) {
    return builder(registry).build();
  }

  public static Builder builder(MeterRegistry registry) {
    return new Builder(registry);
  }

  @Override
  public void received(WebhookEvent event, Duration elapsed) {
    counter("hookledger.events.received", eventTags(event));
    timer("hookledger.receive", "verify and record a delivery, to the commit", Tags.of("provider", event.provider()))
        .record(elapsed);
  }

  @Override
  public void duplicate(WebhookEvent event) {
    counter("hookledger.events.duplicate", eventTags(event));
  }

  @Override
  public void rejected(String provider, RejectionReason reason) {
    counter("hookledger.deliveries.rejected",
        Tags.of("provider", provider, "reason", reason.name().toLowerCase(Locale.ROOT)));
  }

  @Override
  public void refused(RefusedDelivery refused) {
    counter("hookledger.deliveries.refused",
        Tags.of("provider", refused.provider(), "reason", refused.reason().name().toLowerCase(Locale.ROOT)));
  }

  @Override
  public void ledgerUnavailable(String provider, Throwable cause) {
    counter("hookledger.ledger.unavailable", Tags.of("provider", provider));
  }

  @Override
  public void processed(WebhookEvent event, Settlement settlement, int attempt, Duration elapsed) {
    Tags tags = eventTags(event).and("status", settlement.name().toLowerCase(Locale.ROOT));
    counter("hookledger.events.processed", tags);
    timer("hookledger.processing", "the processing transaction of one event", tags).record(elapsed);
  }

  @Override
  public void retried(WebhookEvent event, int attempt, Throwable error, Instant nextAttemptAt) {
    counter("hookledger.events.retried", eventTags(event));
  }

  @Override
  public void dead(WebhookEvent event, int attempt, Throwable error) {
    counter("hookledger.events.dead", eventTags(event));
  }

  @Override
  public void afterCommitFailed(WebhookEvent event, Throwable error) {
    counter("hookledger.aftercommit.failed", Tags.of("provider", event.provider()));
  }

  private void counter(String name, Tags tags) {
    ((Counter) meter(name, tags, t -> Counter.builder(name).tags(t).register(registry))).increment();
  }

  private Timer timer(String name, String description, Tags tags) {
    return (Timer) meter(name, tags, t -> Timer.builder(name).description(description).tags(t).register(registry));
  }

  /** The meter {@code name} with {@code tags}, registered on its first use. */
  private Meter meter(String name, Tags tags, Function<Tags, Meter> register) {
    List<String> key = new ArrayList<>();
    key.add(name);
    tags.forEach(t -> {
      key.add(t.getKey());
      key.add(t.getValue());
    });
    return meters.computeIfAbsent(key, k -> register.apply(tags));
  }

  private Tags eventTags(WebhookEvent event) {
    Tags tags = Tags.of("provider", event.provider());
    return maxEventTypes == 0 ? tags : tags.and("type", boundedType(event.type()));
  }

  private String boundedType(String received) {
    String type = VisibleText.line(received); // the sender's text: a tag shows controls, never carries them
    if (types.contains(type)) {
      return type;
    }
    // not atomic with the add: under a race the cap may be passed by a few types, never unboundedly
    if (types.size() >= maxEventTypes) {
      return OTHER_TYPE;
    }
    types.add(type);
    return type;
  }

  /** Builds a {@link MicrometerWebhookListener}. */
  public static final class Builder {
    private final MeterRegistry registry;
    private int maxEventTypes;

    private Builder(MeterRegistry registry) {
      this.registry = requireNonNull(registry, "registry");
    }

    /**
     * Tags event meters with the event type, for at most {@code maxDistinctTypes} types (then
     * {@value #OTHER_TYPE}); 0, the default, leaves the type tag off.
     */
    public Builder tagEventTypes(int maxDistinctTypes) {
      if (maxDistinctTypes < 0 || maxDistinctTypes > 10_000) {
        throw new IllegalArgumentException("maxDistinctTypes must be between 0 and 10000, but was " + maxDistinctTypes);
      }
      this.maxEventTypes = maxDistinctTypes;
      return this;
    }

    public MicrometerWebhookListener build() {
      return new MicrometerWebhookListener(this);
    }
  }
}
