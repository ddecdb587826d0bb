package dev.hookledger.runtime.micrometer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.hookledger.RejectionReason;
import dev.hookledger.WebhookEvent;
import dev.hookledger.runtime.Settlement;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class MicrometerWebhookListenerTest {
  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

  @Test
  void countersAndTimersMoveAsTheRuntimeReports() {
    MicrometerWebhookListener listener = MicrometerWebhookListener.of(registry);
    WebhookEvent paid = event("stripe", "evt_1", "invoice.paid");

    listener.received(paid, Duration.ofMillis(12));
    listener.received(event("stripe", "evt_2", "charge.failed"), Duration.ofMillis(8));
    listener.duplicate(paid);
    listener.rejected("stripe", RejectionReason.SIGNATURE_MISMATCH);
    listener.rejected("stripe", RejectionReason.SIGNATURE_MISMATCH);
    listener.rejected("github", RejectionReason.TOO_LARGE);
    listener.ledgerUnavailable("stripe", new IllegalStateException("down"));
    listener.processed(paid, Settlement.DONE, 1, Duration.ofMillis(30));
    listener.processed(event("github", "g", "push"), Settlement.IGNORED, 1, Duration.ofMillis(2));
    listener.retried(paid, 1, new IllegalStateException("boom"), Instant.EPOCH);
    listener.dead(paid, 8, new IllegalStateException("boom"));

    assertEquals(2, count("hookledger.events.received", "provider", "stripe"));
    assertEquals(1, count("hookledger.events.duplicate", "provider", "stripe"));
    assertEquals(2, count("hookledger.deliveries.rejected", "provider", "stripe", "reason", "signature_mismatch"));
    assertEquals(1, count("hookledger.deliveries.rejected", "provider", "github", "reason", "too_large"));
    assertEquals(1, count("hookledger.ledger.unavailable", "provider", "stripe"));
    assertEquals(1, count("hookledger.events.processed", "provider", "stripe", "status", "done"));
    assertEquals(1, count("hookledger.events.processed", "provider", "github", "status", "ignored"));
    assertEquals(1, count("hookledger.events.retried", "provider", "stripe"));
    assertEquals(1, count("hookledger.events.dead", "provider", "stripe"));
    assertEquals(2, registry.get("hookledger.receive").tag("provider", "stripe").timer().count());
    assertEquals(20.0, registry.get("hookledger.receive").timer().totalTime(TimeUnit.MILLISECONDS));
    assertEquals(30.0, registry.get("hookledger.processing").tags("provider", "stripe", "status", "done")
        .timer().totalTime(TimeUnit.MILLISECONDS));
    assertNull(registry.find("hookledger.events.received").tagKeys("type").counter(), "no type tag by default");
  }

  @Test
  void typeTagsAreCappedAtTheConfiguredNumberOfDistinctTypes() {
    MicrometerWebhookListener listener = MicrometerWebhookListener.builder(registry).tagEventTypes(2).build();

    listener.received(event("stripe", "e1", "invoice.paid"), Duration.ZERO);
    listener.received(event("stripe", "e2", "charge.failed"), Duration.ZERO);
    listener.received(event("stripe", "e3", "customer.created"), Duration.ZERO);
    listener.received(event("stripe", "e4", "customer.deleted"), Duration.ZERO);
    listener.received(event("stripe", "e5", "invoice.paid"), Duration.ZERO);

    assertEquals(2, count("hookledger.events.received", "type", "invoice.paid"));
    assertEquals(1, count("hookledger.events.received", "type", "charge.failed"));
    assertEquals(2, count("hookledger.events.received", "type", MicrometerWebhookListener.OTHER_TYPE));
    assertEquals(3, registry.find("hookledger.events.received").counters().size());
  }

  @Test
  void aFailedAfterCommitActionIsCountedByProvider() {
    MicrometerWebhookListener listener = MicrometerWebhookListener.of(registry);
    listener.afterCommitFailed(event("stripe", "evt_1", "invoice.paid"), new IllegalStateException("cache gone"));
    listener.afterCommitFailed(event("stripe", "evt_2", "invoice.paid"), new IllegalStateException("cache gone"));
    assertEquals(2.0, registry.get("hookledger.aftercommit.failed").tags("provider", "stripe").counter().count());
  }

  @Test
  void rejectsANegativeTypeCap() {
    IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
        () -> MicrometerWebhookListener.builder(registry).tagEventTypes(-1));
    assertEquals("maxDistinctTypes must be between 0 and 10000, but was -1", e.getMessage());
  }

  private double count(String name, String... tags) {
    return registry.get(name).tags(tags).counter().count();
  }

  static WebhookEvent event(String provider, String id, String type) {
    return WebhookEvent.builder().provider(provider).eventId(id).type(type).body(new byte[] {'{', '}'}).build();
  }
}
