package dev.hookledger.runtime.internal.observe;

import dev.hookledger.WebhookEvent;
import java.util.function.Supplier;

/**
 * Spans around the three stages of an event: receiving a delivery, processing one attempt, and each
 * handler in it. {@link #NONE} runs the work and nothing else; {@link MicrometerTracing} makes them
 * Micrometer Observations (and so OpenTelemetry or Brave spans, through the application's tracing
 * bridge). Kept free of Micrometer's types so that the runtime loads without it.
 */
public interface EventTracing {
  EventTracing NONE = new EventTracing() {};

  /** Receiving one delivery of {@code provider}: verification and the ledger's commit. */
  default <T> T receive(String provider, Supplier<T> work) {
    return work.get();
  }

  /** One attempt at {@code event}: its transaction, its handlers and its settle. */
  default <T> T process(WebhookEvent event, int attempt, Supplier<T> work) {
    return work.get();
  }

  /** One {@code @OnEvent} method, named {@code handler}, on {@code event}. */
  default void handler(WebhookEvent event, String handler, Runnable work) {
    work.run();
  }
}
