package dev.hookledger.runtime.internal;

import dev.hookledger.RejectionReason;
import dev.hookledger.WebhookEvent;
import dev.hookledger.runtime.WebhookListener;
import java.time.Duration;
import java.time.Instant;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Calls the application's listener, logging and ignoring what it throws: a listener cannot change an outcome. */
public final class SafeListener implements WebhookListener {
  private static final Logger log = LoggerFactory.getLogger(SafeListener.class);

  private final WebhookListener delegate;

  public SafeListener(WebhookListener delegate) {
    this.delegate = delegate;
  }

  @Override
  public void received(WebhookEvent event, Duration elapsed) {
    call("received", () -> delegate.received(event, elapsed));
  }

  @Override
  public void duplicate(WebhookEvent event) {
    call("duplicate", () -> delegate.duplicate(event));
  }

  @Override
  public void rejected(String provider, RejectionReason reason) {
    call("rejected", () -> delegate.rejected(provider, reason));
  }

  @Override
  public void ledgerUnavailable(String provider, Throwable cause) {
    call("ledgerUnavailable", () -> delegate.ledgerUnavailable(provider, cause));
  }

  @Override
  public void processed(WebhookEvent event, String status, int attempt, Duration elapsed) {
    call("processed", () -> delegate.processed(event, status, attempt, elapsed));
  }

  @Override
  public void retried(WebhookEvent event, int attempt, Throwable error, Instant nextAttemptAt) {
    call("retried", () -> delegate.retried(event, attempt, error, nextAttemptAt));
  }

  @Override
  public void dead(WebhookEvent event, int attempt, Throwable error) {
    call("dead", () -> delegate.dead(event, attempt, error));
  }

  private void call(String method, Runnable call) {
    try {
      call.run();
    } catch (RuntimeException e) {
      log.warn("WebhookListener.{} of {} threw; ignored", method, delegate.getClass().getName(), e);
    }
  }
}
