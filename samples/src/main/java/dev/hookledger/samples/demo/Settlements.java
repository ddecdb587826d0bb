package dev.hookledger.samples.demo;

import dev.hookledger.WebhookEvent;
import dev.hookledger.runtime.EventStatus;
import dev.hookledger.runtime.Settlement;
import dev.hookledger.runtime.WebhookListener;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A listener that lets the demo wait until an event has settled ({@code done}, {@code ignored},
 * {@code stale} or {@code dead}) instead of polling the ledger or sleeping.
 */
final class Settlements implements WebhookListener {
  private final Map<String, CompletableFuture<Settled>> byEvent = new ConcurrentHashMap<>();

  /** How an event settled, as the worker reported it. */
  record Settled(WebhookEvent event, EventStatus status, int attempt) {}

  @Override
  public void processed(WebhookEvent event, Settlement settlement, int attempt, Duration elapsed) {
    future(event.provider(), event.eventId()).complete(new Settled(event, settlement.status(), attempt));
  }

  @Override
  public void dead(WebhookEvent event, int attempt, Throwable error) {
    future(event.provider(), event.eventId()).complete(new Settled(event, EventStatus.DEAD, attempt));
  }

  /**
   * Waits until {@code provider}'s event {@code eventId} settles.
   *
   * @throws IllegalStateException if it has not settled within {@code timeout}
   */
  Settled await(String provider, String eventId, Duration timeout) {
    try {
      return future(provider, eventId).get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      throw new IllegalStateException(
          provider + " event " + eventId + " did not settle within " + timeout.toSeconds() + " s", e);
    } catch (ExecutionException e) {
      throw new IllegalStateException(e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting for " + eventId, e);
    }
  }

  private CompletableFuture<Settled> future(String provider, String eventId) {
    return byEvent.computeIfAbsent(provider + " " + eventId, k -> new CompletableFuture<>());
  }
}
