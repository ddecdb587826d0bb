package dev.hookledger.spi;

import dev.hookledger.WebhookEvent;

/**
 * Where a {@link ReplaySource} puts the events it fetched: the runtime's ledger.
 *
 * <p>Implementations are called from the thread that runs the replay, one event at a time.
 */
@FunctionalInterface
public interface ReplaySink {

  /**
   * Records one fetched event, exactly as a received one would be.
   *
   * @return true if it was new, false if the ledger already had it
   */
  boolean offer(WebhookEvent event);

  /**
   * Whether the ledger already holds the event with this identity, however it got there (received
   * signed, replayed before). Sources that do not fetch the event itself but ask the provider to
   * send it again (GitHub's redelivery) call this first, so that what was received is not sent
   * twice; sources that {@link #offer} the fetched event need not, as {@code offer} answers the
   * same question.
   *
   * <p>The default knows nothing and answers false: every missed delivery is then redelivered and
   * the duplicate is dropped at the door. The runtime's sink answers from the ledger.
   *
   * @param provider the provider id, as {@link WebhookEvent#provider()}
   * @param scope the scope, as {@link WebhookEvent#scope()} (empty, never null, where there is none)
   * @param eventId the event id, as {@link WebhookEvent#eventId()}
   * @return true if the ledger has a row for {@code (provider, scope, eventId)}
   */
  default boolean alreadyReceived(String provider, String scope, String eventId) {
    return false;
  }
}
