package dev.hookledger.runtime;

import dev.hookledger.RejectionReason;
import dev.hookledger.WebhookEvent;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * Observes what the runtime does with each delivery, for metrics and tracing. Every method has a
 * no-op default, so an implementation overrides only what it needs; {@link #NONE} does nothing.
 *
 * <p>Methods are called on the request or worker thread, after the fact (a listener cannot change
 * an outcome), and must be fast and thread-safe. An exception a listener throws is logged and
 * ignored. Arguments never carry a secret; events carry their body, which a listener must not log.
 */
public interface WebhookListener {

  /** A listener that does nothing. */
  WebhookListener NONE = new WebhookListener() {};

  /**
   * A listener that calls each of {@code listeners} in order (metrics and tracing, say). A
   * listener that throws is logged and skipped; the others are still called.
   */
  static WebhookListener composite(WebhookListener... listeners) {
    List<WebhookListener> list = List.of(listeners);
    return list.size() == 1 ? list.get(0) : new CompositeWebhookListener(list);
  }

  /** A new event was verified and its ledger row committed. */
  default void received(WebhookEvent event, Duration elapsed) {}

  /** A verified delivery of an event the ledger already had; nothing was changed. */
  default void duplicate(WebhookEvent event) {}

  /** A delivery was refused at the door; nothing was stored. */
  default void rejected(String provider, RejectionReason reason) {}

  /**
   * The webhook door refused a delivery, for any {@link RefusalReason}: an adapter's rejection (also
   * told to {@link #rejected}), an unknown provider, a spent body budget or a body read timeout.
   * Nothing was stored. Called for deliveries through {@link WebhookFilter} (and shadow mode's pass),
   * which know the request's address; {@link WebhookRuntime#receive} called directly reports
   * {@link #rejected} only.
   *
   * @param refused what was refused, with no body and no secret header's value; never null
   */
  default void refused(RefusedDelivery refused) {}

  /** The ledger could not be reached; the delivery was answered 503. */
  default void ledgerUnavailable(String provider, Throwable cause) {}

  /**
   * An event settled: its handlers committed ({@link Settlement#DONE}), none matched
   * ({@link Settlement#IGNORED}), or it was older than the entity's applied version
   * ({@link Settlement#STALE}).
   *
   * @param settlement how it settled, never null
   * @param elapsed time spent in the processing transaction
   */
  default void processed(WebhookEvent event, Settlement settlement, int attempt, Duration elapsed) {}

  /** A handler failed; the transaction rolled back and the event will be tried again at {@code nextAttemptAt}. */
  default void retried(WebhookEvent event, int attempt, Throwable error, Instant nextAttemptAt) {}

  /**
   * The last allowed attempt failed: a handler threw, or (with {@code error} an
   * {@link IllegalStateException} saying so) the worker holding the attempt never finished within
   * its lease. The event is {@code dead} and waits for an operator.
   */
  default void dead(WebhookEvent event, int attempt, Throwable error) {}

  /**
   * An {@code afterCommit} action threw. The event stays settled; the action is not run again
   * ({@code afterCommit} is at most once: effects that must happen go through the outbox).
   */
  default void afterCommitFailed(WebhookEvent event, Throwable error) {}

  /**
   * An effect's attempt ended: it is {@link EffectStatus#DONE}, {@link EffectStatus#DEAD}, or
   * {@link EffectStatus#PENDING} again, to be retried at {@code nextAttemptAt}.
   *
   * @param destination the destination's name, never null
   * @param status how the attempt left the effect, never null
   * @param attempt the attempt, 1 for the first
   * @param elapsed the time the attempt took
   * @param nextAttemptAt when a {@code PENDING} effect is tried again; null otherwise
   */
  default void effectAttempted(String destination, EffectStatus status, int attempt, Duration elapsed,
      Instant nextAttemptAt) {}

  /**
   * A destination's circuit breaker opened (its effects wait) or closed again.
   *
   * @param destination the destination's name, never null
   * @param open true when it opened, false when it closed
   */
  default void breakerChanged(String destination, boolean open) {}
}
