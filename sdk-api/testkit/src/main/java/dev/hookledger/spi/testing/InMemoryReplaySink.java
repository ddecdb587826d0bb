package dev.hookledger.spi.testing;

import dev.hookledger.WebhookEvent;
import dev.hookledger.spi.ReplaySink;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * A {@link ReplaySink} for replay source tests: remembers the identities it was told it already
 * has and every event offered, and answers {@link #alreadyReceived} from them. It stands in for
 * the ledger only in provider tests, which check what a source fetches and offers; the runtime's
 * ledger sink is tested against PostgreSQL.
 */
public final class InMemoryReplaySink implements ReplaySink {
  private final Set<List<String>> known = new HashSet<>();
  private final List<WebhookEvent> offered = new ArrayList<>();
  private final List<List<String>> asked = new ArrayList<>();

  /** An empty sink: nothing received, nothing offered. */
  public InMemoryReplaySink() {}

  /** Marks an identity as received before the replay. */
  public synchronized InMemoryReplaySink alreadyHas(String provider, String scope, String eventId) {
    known.add(List.of(provider, scope, eventId));
    return this;
  }

  @Override
  public synchronized boolean offer(WebhookEvent event) {
    offered.add(event);
    return known.add(List.of(event.provider(), event.scope(), event.eventId()));
  }

  @Override
  public synchronized boolean alreadyReceived(String provider, String scope, String eventId) {
    List<String> identity = List.of(provider, scope, eventId);
    asked.add(identity);
    return known.contains(identity);
  }

  /** Every event offered, in order, new or not. */
  public synchronized List<WebhookEvent> offered() {
    return List.copyOf(offered);
  }

  /** The event ids offered, in order. */
  public synchronized List<String> offeredIds() {
    return offered.stream().map(WebhookEvent::eventId).toList();
  }

  /** Each {@code [provider, scope, eventId]} that {@link #alreadyReceived} was asked about, in order. */
  public synchronized List<List<String>> asked() {
    return List.copyOf(asked);
  }
}
