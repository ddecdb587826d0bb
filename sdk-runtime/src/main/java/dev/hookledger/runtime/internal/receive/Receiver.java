package dev.hookledger.runtime.internal.receive;

import dev.hookledger.DeliveryRejectedException;
import dev.hookledger.InboundDelivery;
import dev.hookledger.LedgerUnavailableException;
import dev.hookledger.RejectionReason;
import dev.hookledger.Secrets;
import dev.hookledger.WebhookEvent;
import dev.hookledger.runtime.EventSource;
import dev.hookledger.runtime.HandlerFailedException;
import dev.hookledger.runtime.ProcessingMode;
import dev.hookledger.runtime.Receipt;
import dev.hookledger.runtime.Settlement;
import dev.hookledger.runtime.WebhookListener;
import dev.hookledger.runtime.internal.dispatch.Dispatcher;
import dev.hookledger.runtime.internal.ledger.EventKey;
import dev.hookledger.runtime.internal.ledger.GroupCommit;
import dev.hookledger.runtime.internal.ledger.Lease;
import dev.hookledger.runtime.internal.ledger.Ledger;
import dev.hookledger.runtime.internal.ledger.NewRow;
import dev.hookledger.runtime.internal.ledger.UnparsedEvents;
import dev.hookledger.runtime.internal.observe.EventMdc;
import dev.hookledger.runtime.internal.observe.EventTracing;
import dev.hookledger.runtime.internal.process.EventHandOff;
import dev.hookledger.runtime.internal.process.EventProcessor;
import dev.hookledger.runtime.internal.process.Settled;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.OptionalInt;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The path of one delivery after its bytes are read: find the provider, verify, record, then hand
 * off ({@code STORE_FIRST}), process in the same transaction ({@code INLINE}) or record it settled
 * and stop ({@code SHADOW}: the application's existing endpoint handles it).
 *
 * <p>In {@code STORE_FIRST} the row's first status is decided before the insert, so that the
 * insert does all the ledger work the acknowledgement needs: {@code ignored} (settled) when no
 * {@code @OnEvent} method matches (in a runtime that processes events; one that only receives
 * leaves that to the runtimes that do), leased to this runtime's workers when they have room (the insert
 * is the claim, and the event is handed over from memory after the commit), else {@code pending}
 * for any runtime's workers, woken after the commit without the answer waiting. Thread-safe.
 */
public final class Receiver {
  private static final Logger log = LoggerFactory.getLogger(Receiver.class);

  private final ProviderRegistry providers;
  private final Dispatcher dispatcher;
  private final Ledger ledger;
  private final EventProcessor processor;
  private final EventHandOff handOff;
  private final ModeSelector modes;
  private final Clock clock;
  private final WebhookListener listener;
  private final EventTracing tracing;

  public Receiver(ProviderRegistry providers, Dispatcher dispatcher, Ledger ledger, EventProcessor processor,
      EventHandOff handOff, ModeSelector modes, Clock clock, WebhookListener listener, EventTracing tracing) {
    this.providers = providers;
    this.dispatcher = dispatcher;
    this.ledger = ledger;
    this.processor = processor;
    this.handOff = handOff;
    this.modes = modes;
    this.clock = clock;
    this.listener = listener;
    this.tracing = tracing;
  }

  /** See {@code WebhookRuntime.receive}; {@code arrivedNanos} is when the request arrived, for the answer's bound. */
  public Receipt receive(String providerId, InboundDelivery delivery, long arrivedNanos) {
    return tracing.receive(providerId, () -> verifyAndRecord(providerId, delivery, arrivedNanos));
  }

  // the resource is a scope (a lease kept alive, a log context, a probe's connection): closing it is its use
  @SuppressWarnings("try")
  private Receipt verifyAndRecord(String providerId, InboundDelivery delivery, long arrivedNanos) {
    long start = System.nanoTime();
    ProviderRegistry.Registration provider = providers.get(providerId);
    WebhookEvent event = verify(providerId, provider, delivery);
    ProcessingMode mode = modes.modeFor(event.type());
    // from here on each line logged on this thread names the event (INLINE handlers' lines too)
    try (EventMdc mdc = EventMdc.of(event, mode == ProcessingMode.INLINE ? 1 : 0)) {
      return mode == ProcessingMode.INLINE ? inline(event, start) : store(event, mode, start, arrivedNanos);
    } catch (LedgerUnavailableException e) {
      listener.ledgerUnavailable(providerId, e);
      throw e;
    }
  }

  /**
   * A sink for replayed events through this receive path's ledger, handing new events off if
   * {@code dispatch} (else they stay {@code pending}).
   */
  public ReplayRecorder replayRecorder(boolean dispatch) {
    return new ReplayRecorder(ledger, dispatch ? handOff::pendingRecorded : ReplayRecorder.LEAVE_PENDING, null);
  }

  /** The body limit of {@code providerId}; empty if no such provider is registered. */
  public OptionalInt maxBodyBytes(String providerId) {
    return providers.find(providerId).map(r -> OptionalInt.of(r.maxBodyBytes())).orElse(OptionalInt.empty());
  }

  /** Tells the listener of a delivery refused before it reached {@link #receive} (a body over the limit). */
  public void rejected(String providerId, RejectionReason reason) {
    listener.rejected(providerId, reason);
  }

  private WebhookEvent verify(String providerId, ProviderRegistry.Registration provider, InboundDelivery delivery) {
    try {
      if (delivery.bodyLength() > provider.maxBodyBytes()) {
        throw tooLargeRejection(providerId, provider.maxBodyBytes());
      }
      Secrets secrets = provider.secretsFor(providerId, delivery);
      WebhookEvent event = provider.adapter().verify(delivery, secrets, clock);
      if (!event.provider().equals(providerId)) {
        throw new IllegalStateException(provider.adapter().getClass().getName() + " registered as '" + providerId
            + "' produced an event of provider '" + event.provider() + "'");
      }
      KeyLimits.check(event);
      return event;
    } catch (DeliveryRejectedException e) {
      log.debug("{} delivery rejected ({}): {}", providerId, e.reason(), e.getMessage());
      listener.rejected(providerId, e.reason());
      throw e;
    }
  }

  /**
   * The refusal of a body over its provider's limit: the one owner of the 413's text, the same
   * whether the door finds the body too large while reading it or {@link #receive} is given one.
   */
  public static DeliveryRejectedException tooLargeRejection(String providerId, int limit) {
    return new DeliveryRejectedException(RejectionReason.TOO_LARGE,
        "body larger than " + limit + " bytes, the limit for provider '" + providerId + "'");
  }

  private Receipt store(WebhookEvent event, ProcessingMode mode, long start, long arrived) {
    if (mode == ProcessingMode.SHADOW) {
      if (ledger.record(NewRow.waiting(event, EventSource.SHADOW), GroupCommit.AfterWrite.NOTHING, arrived)
          == Ledger.Recorded.DUPLICATE) {
        return duplicate(event);
      }
      log.debug("{} recorded (shadow)", event);
      listener.received(event, Duration.ofNanos(System.nanoTime() - start));
      return new Receipt(Receipt.Outcome.SHADOWED, event);
    }
    if (handOff.processes() && !dispatcher.handles(event)) {
      if (ledger.record(NewRow.ignored(event, EventSource.DELIVERY), GroupCommit.AfterWrite.NOTHING, arrived)
          == Ledger.Recorded.DUPLICATE) {
        return duplicate(event);
      }
      log.debug("{} recorded ignored: no @OnEvent method matches it", event);
      listener.received(event, Duration.ofNanos(System.nanoTime() - start));
      listener.processed(event, Settlement.IGNORED, 0, Duration.ZERO);
      return new Receipt(Receipt.Outcome.ACCEPTED, event);
    }
    Ledger.Recorded recorded = handOff.reserve() ? recordLeased(event, arrived) : recordPending(event, arrived);
    if (recorded == Ledger.Recorded.DUPLICATE) {
      return duplicate(event);
    }
    log.debug("{} recorded", event);
    listener.received(event, Duration.ofNanos(System.nanoTime() - start));
    return new Receipt(Receipt.Outcome.ACCEPTED, event);
  }

  /** Records the event leased to this runtime's workers, in the room reserved for it, and hands it over once committed. */
  private Ledger.Recorded recordLeased(WebhookEvent event, long arrived) {
    long claimed = System.nanoTime();
    Duration length = handOff.lease();
    String owner = handOff.owner();
    return ledger.record(NewRow.leased(event, EventSource.DELIVERY, owner, length), new GroupCommit.AfterWrite() {
      @Override
      public void committed(boolean isNew) {
        if (isNew) {
          // the row holds the exact until; this one is only for the logs: fencing uses owner and attempt
          // queued without the adapter's parsed tree: at most workers + batchSize events wait, but a tree
          // is several times its body, and bodies may be 25 MiB
          handOff.accept(new Lease(EventKey.of(event), owner, 1, clock.instant().plus(length),
              UnparsedEvents.of(event), claimed, length, false));
        } else {
          handOff.unreserve();
        }
      }

      @Override
      public void failed() {
        handOff.unreserve();
      }
    }, arrived);
  }

  private Ledger.Recorded recordPending(WebhookEvent event, long arrived) {
    return ledger.record(NewRow.waiting(event, EventSource.DELIVERY), new GroupCommit.AfterWrite() {
      @Override
      public void committed(boolean isNew) {
        if (isNew) {
          handOff.pendingRecorded();
        }
      }
    }, arrived);
  }

  private Receipt duplicate(WebhookEvent event) {
    log.debug("{} duplicate; acknowledged, nothing changed", event);
    listener.duplicate(event);
    return new Receipt(Receipt.Outcome.DUPLICATE, event);
  }

  private Receipt inline(WebhookEvent event, long start) {
    Optional<Settled> settled;
    try {
      settled = ledger.recordThen(processor.inlineRow(event), tx -> processor.runInTransaction(tx, event, 1));
    } catch (HandlerFailedException e) {
      log.warn("{} INLINE handler failed; nothing was recorded, so the provider must redeliver: {}",
          event, e.getMessage(), e.getCause());
      // the provider's redelivery is the retry, and its time is unknown: report now
      listener.retried(event, 1, e.getCause(), clock.instant());
      throw e;
    }
    if (settled.isEmpty()) {
      return duplicate(event);
    }
    listener.received(event, Duration.ofNanos(System.nanoTime() - start));
    processor.committed(settled.get(), start);
    return new Receipt(Receipt.Outcome.PROCESSED, event);
  }
}
