package dev.hookledger.runtime;

import dev.hookledger.RejectionReason;
import dev.hookledger.WebhookEvent;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Calls several listeners in order. One that throws is logged and skipped, so that a broken
 * tracing listener cannot cost the metrics listener its events, and no listener can change an
 * outcome. The runtime always calls its listeners through one of these, even a single one.
 */
final class CompositeWebhookListener implements WebhookListener {
  private static final Logger log = LoggerFactory.getLogger(CompositeWebhookListener.class);

  private final List<WebhookListener> listeners;

  CompositeWebhookListener(List<WebhookListener> listeners) {
    this.listeners = List.copyOf(listeners);
  }

  @Override
  public void received(WebhookEvent event, Duration elapsed) {
    each(l -> l.received(event, elapsed), "received");
  }

  @Override
  public void duplicate(WebhookEvent event) {
    each(l -> l.duplicate(event), "duplicate");
  }

  @Override
  public void rejected(String provider, RejectionReason reason) {
    each(l -> l.rejected(provider, reason), "rejected");
  }

  @Override
  public void refused(RefusedDelivery refused) {
    each(l -> l.refused(refused), "refused");
  }

  @Override
  public void ledgerUnavailable(String provider, Throwable cause) {
    each(l -> l.ledgerUnavailable(provider, cause), "ledgerUnavailable");
  }

  @Override
  public void processed(WebhookEvent event, Settlement settlement, int attempt, Duration elapsed) {
    each(l -> l.processed(event, settlement, attempt, elapsed), "processed");
  }

  @Override
  public void retried(WebhookEvent event, int attempt, Throwable error, Instant nextAttemptAt) {
    each(l -> l.retried(event, attempt, error, nextAttemptAt), "retried");
  }

  @Override
  public void dead(WebhookEvent event, int attempt, Throwable error) {
    each(l -> l.dead(event, attempt, error), "dead");
  }

  @Override
  public void afterCommitFailed(WebhookEvent event, Throwable error) {
    each(l -> l.afterCommitFailed(event, error), "afterCommitFailed");
  }

  @Override
  public void effectAttempted(String destination, EffectStatus status, int attempt, Duration elapsed,
      Instant nextAttemptAt) {
    each(l -> l.effectAttempted(destination, status, attempt, elapsed, nextAttemptAt), "effectAttempted");
  }

  @Override
  public void breakerChanged(String destination, boolean open) {
    each(l -> l.breakerChanged(destination, open), "breakerChanged");
  }

  private void each(Consumer<WebhookListener> call, String method) {
    for (WebhookListener l : listeners) {
      try {
        call.accept(l);
      } catch (RuntimeException e) {
        log.warn("webhook listener {}.{} failed; ignored", l.getClass().getName(), method, e);
      }
    }
  }
}
