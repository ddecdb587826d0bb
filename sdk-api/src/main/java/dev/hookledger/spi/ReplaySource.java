package dev.hookledger.spi;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Fetches events that a provider sent (or failed to send) while the receiver was down, from the
 * provider's own API, and feeds them to the ledger through a {@link ReplaySink}. Events already
 * received are skipped by the ledger, so a replay can be run as often as wanted.
 *
 * <p>Events fetched from an authenticated provider API are trusted without a webhook signature;
 * they carry no {@link dev.hookledger.WebhookEvent#secretId() secretId}. Providers that can only
 * redeliver (GitHub) ask the provider to send the delivery again, signed, to the endpoint.
 */
public interface ReplaySource {

  /** The provider id this source replays, matching its adapter's {@link ProviderAdapter#id()}. */
  String provider();

  /**
   * Replays what was missed since {@code since}.
   *
   * @param since the start of the window; events older than this are not fetched
   * @param typeFilter only events of this type or pattern, where the provider can filter
   * @param sink where fetched events go
   * @return what was found and done; never null
   * @throws dev.hookledger.WebhookException with the provider's error (status and message, never the credential)
   */
  ReplayReport replay(Instant since, Optional<String> typeFilter, ReplaySink sink);

  /**
   * Lists, without writing or redelivering anything, the events the provider sent (or tried to
   * send) in {@code [since, until)}, through the same paging as {@link #replay}: what
   * {@code hookledger reconcile} compares with the ledger, and {@code replay --dry-run} shows.
   *
   * @return one entry per event, in no particular order; never null
   * @throws UnsupportedOperationException if the provider's API cannot list its events, saying why
   * @throws dev.hookledger.WebhookException with the provider's error (status and message, never the credential)
   */
  default List<ListedEvent> list(Instant since, Instant until) {
    throw new UnsupportedOperationException("the " + provider() + " replay source cannot list the provider's events");
  }
}
