package dev.hookledger.runtime.internal.observe;

import dev.hookledger.WebhookEvent;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import java.util.function.Supplier;

/**
 * {@link EventTracing} as Micrometer Observations, in the application's {@link ObservationRegistry}:
 * {@value #RECEIVE}, {@value #PROCESS} and {@value #HANDLER}, each with the low-cardinality keys
 * {@code hookledger.provider} (and {@code hookledger.type}, {@code hookledger.handler} where known)
 * and the high-cardinality {@code hookledger.event.id} and {@code hookledger.attempt}. A failure is the
 * observation's error. Loaded only when the builder was given a registry. The names are not those of
 * {@code MicrometerWebhookListener}'s timers ({@code hookledger.receive}, {@code hookledger.processing}):
 * Boot's default meter handler makes a timer of every observation, with other tags, and a registry refuses
 * two meters of one name with different tags.
 */
public final class MicrometerTracing implements EventTracing {
  public static final String RECEIVE = "hookledger.delivery.receive";
  public static final String PROCESS = "hookledger.event.process";
  public static final String HANDLER = "hookledger.handler.run";

  private final ObservationRegistry registry;

  private MicrometerTracing(ObservationRegistry registry) {
    this.registry = registry;
  }

  public static EventTracing of(ObservationRegistry registry) {
    return new MicrometerTracing(registry);
  }

  @Override
  public <T> T receive(String provider, Supplier<T> work) {
    return Observation.createNotStarted(RECEIVE, registry).contextualName("hookledger receive " + provider)
        .lowCardinalityKeyValue("hookledger.provider", provider).observe(work);
  }

  @Override
  public <T> T process(WebhookEvent event, int attempt, Supplier<T> work) {
    return event(Observation.createNotStarted(PROCESS, registry), event)
        .contextualName("hookledger process " + event.type())
        .highCardinalityKeyValue("hookledger.attempt", Integer.toString(attempt)).observe(work);
  }

  @Override
  public void handler(WebhookEvent event, String handler, Runnable work) {
    event(Observation.createNotStarted(HANDLER, registry), event).contextualName("hookledger handler " + handler)
        .lowCardinalityKeyValue("hookledger.handler", handler).observe(work);
  }

  private static Observation event(Observation o, WebhookEvent event) {
    return o.lowCardinalityKeyValue("hookledger.provider", event.provider())
        .lowCardinalityKeyValue("hookledger.type", event.type())
        .highCardinalityKeyValue("hookledger.event.id", event.eventId());
  }
}
