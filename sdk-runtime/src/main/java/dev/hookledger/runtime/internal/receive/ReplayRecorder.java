package dev.hookledger.runtime.internal.receive;

import static java.util.Objects.requireNonNull;

import dev.hookledger.WebhookEvent;
import dev.hookledger.runtime.EventSource;
import dev.hookledger.runtime.internal.ledger.EventKey;
import dev.hookledger.runtime.internal.ledger.GroupCommit;
import dev.hookledger.runtime.internal.ledger.Ledger;
import dev.hookledger.runtime.internal.ledger.NewRow;
import dev.hookledger.spi.ReplaySink;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Where a replay source puts what it fetched: each event goes through the receive path's
 * {@link Ledger} with source {@code replay} (so no secret id), {@code pending} for any worker; an
 * event the ledger already has is skipped. {@link #alreadyReceived} is answered from the ledger.
 * Counts what it recorded and skipped; thread-safe.
 */
public final class ReplayRecorder implements ReplaySink {
  /** Nothing to wake: the events wait {@code pending} for whichever workers poll the ledger. */
  public static final Runnable LEAVE_PENDING = () -> {};

  private final Ledger ledger;
  private final GroupCommit.AfterWrite wake;
  private final String provider;
  private final AtomicInteger recorded = new AtomicInteger();
  private final AtomicInteger alreadyReceived = new AtomicInteger();

  /**
   * @param wake run, without blocking, after each new event is committed: wakes the workers
   * @param provider the only provider whose events are accepted (the source's), or null for any
   */
  public ReplayRecorder(Ledger ledger, Runnable wake, String provider) {
    this.ledger = requireNonNull(ledger, "ledger");
    requireNonNull(wake, "wake");
    this.wake = new GroupCommit.AfterWrite() {
      @Override
      public void committed(boolean isNew) {
        if (isNew) {
          wake.run();
        }
      }
    };
    this.provider = provider;
  }

  /**
   * @throws IllegalArgumentException if the event is of another provider than the source's
   * @throws dev.hookledger.LedgerUnavailableException if the ledger cannot record it
   */
  @Override
  public boolean offer(WebhookEvent event) {
    requireNonNull(event, "event");
    if (provider != null && !event.provider().equals(provider)) {
      throw new IllegalArgumentException("a replay source for " + provider + " offered an event of provider "
          + event.provider() + ": " + event);
    }
    if (ledger.record(NewRow.waiting(event, EventSource.REPLAY), wake) == Ledger.Recorded.DUPLICATE) {
      alreadyReceived.incrementAndGet();
      return false;
    }
    recorded.incrementAndGet();
    return true;
  }

  @Override
  public boolean alreadyReceived(String provider, String scope, String eventId) {
    boolean known = ledger.contains(new EventKey(provider, scope, eventId));
    if (known) {
      alreadyReceived.incrementAndGet();
    }
    return known;
  }

  /** Events that were new to the ledger. */
  public int recorded() {
    return recorded.get();
  }

  /** Events (or deliveries asked about) the ledger already had. */
  public int alreadyReceived() {
    return alreadyReceived.get();
  }
}
