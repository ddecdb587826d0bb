package dev.hookledger.runtime.internal.process;

import dev.hookledger.WebhookEvent;
import dev.hookledger.runtime.HandlerFailedException;
import dev.hookledger.runtime.WebhookListener;
import dev.hookledger.runtime.internal.dispatch.Dispatcher;
import dev.hookledger.runtime.internal.dispatch.Invocation;
import dev.hookledger.runtime.internal.dispatch.TransactionEventContext;
import dev.hookledger.runtime.internal.ledger.EventKey;
import dev.hookledger.runtime.internal.ledger.EventStatus;
import dev.hookledger.runtime.internal.ledger.LedgerErrors;
import dev.hookledger.runtime.internal.ledger.ProcessingRows;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.jooq.DSLContext;
import org.jooq.exception.DataAccessException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One attempt at one event, in one transaction: lock the row, ask the ordering guard, run the
 * matching {@code @OnEvent} methods with that transaction, settle the row; after the commit, run the
 * {@code afterCommit} actions. A handler failure rolls all of it back and is then recorded on the
 * row, which stays {@code pending}. Thread-safe; any number of threads may process at once.
 */
public final class EventProcessor {
  private static final Logger log = LoggerFactory.getLogger(EventProcessor.class);

  private final DSLContext dsl;
  private final ProcessingRows rows;
  private final Dispatcher dispatcher;
  private final OrderingGuard guard;
  private final Clock clock;
  private final WebhookListener listener;

  public EventProcessor(DSLContext dsl, ProcessingRows rows, Dispatcher dispatcher, OrderingGuard guard,
      Clock clock, WebhookListener listener) {
    this.dsl = dsl;
    this.rows = rows;
    this.dispatcher = dispatcher;
    this.guard = guard;
    this.clock = clock;
    this.listener = listener;
  }

  /**
   * Makes one attempt at a waiting event. Never throws for a handler or database failure: the first
   * is recorded on the row, the second leaves the row as it was; both are logged.
   *
   * @param known the event if the caller holds it (saves reading the body back); else null
   * @return the status the row was settled with; empty if it was not waiting or the attempt failed
   */
  public Optional<EventStatus> process(EventKey key, WebhookEvent known) {
    long start = System.nanoTime();
    AtomicReference<Attempt> attempt = new AtomicReference<>();
    try {
      Optional<Settled> settled = dsl.transactionResult(cfg -> {
        DSLContext tx = cfg.dsl();
        Optional<ProcessingRows.Locked> locked = rows.lockWaiting(tx, key, known == null);
        if (locked.isEmpty()) {
          return Optional.empty();
        }
        WebhookEvent event = known != null ? known : locked.get().event();
        int number = locked.get().attempts() + 1;
        attempt.set(new Attempt(event, number));
        return Optional.of(runInTransaction(tx, event, number));
      });
      if (settled.isEmpty()) {
        log.debug("{} is no longer waiting; nothing to do", key);
        return Optional.empty();
      }
      return Optional.of(committed(settled.get(), start));
    } catch (HandlerFailedException e) {
      log.warn("{} attempt {} failed; the event stays pending: {}", key, attempt.get().number(), e.getMessage(),
          e.getCause());
      failed(key, attempt.get(), e, e.getCause());
    } catch (DataAccessException e) {
      if (attempt.get() == null) {
        log.warn("{} could not be processed, it stays as it was: ledger unavailable: {}", key, LedgerErrors.describe(e));
      } else {
        // after the lock: a handler that swallowed a SQL error, a deferred constraint failing at commit, or an outage
        log.warn("{} attempt {} failed in its transaction; the event stays pending: {}", key, attempt.get().number(),
            LedgerErrors.describe(e));
        failed(key, attempt.get(), e, e);
      }
    }
    return Optional.empty();
  }

  /**
   * Runs the handlers and settles the row inside the caller's transaction, on a row the caller has
   * locked or just inserted (the {@code INLINE} mode). The caller commits, then calls
   * {@link #committed}.
   *
   * @throws HandlerFailedException if a handler failed; the caller must roll back
   */
  public Settled runInTransaction(DSLContext tx, WebhookEvent event, int attempt) {
    TransactionEventContext context = new TransactionEventContext(event, attempt);
    boolean stale = guard.isStale(tx, event);
    Dispatcher.Dispatched d = dispatcher.dispatch(new Invocation(event, tx, context), stale);
    EventStatus status = d.invoked() > 0 ? EventStatus.DONE : d.skippedStale() > 0 ? EventStatus.STALE : EventStatus.IGNORED;
    rows.settle(tx, EventKey.of(event), status, attempt, clock.instant());
    return new Settled(event, status, attempt, context);
  }

  /** After the commit: runs the {@code afterCommit} actions and tells the listener. */
  public EventStatus committed(Settled settled, long startNanos) {
    settled.context().committed();
    Duration elapsed = Duration.ofNanos(System.nanoTime() - startNanos);
    log.debug("{} settled {} on attempt {} in {} ms", settled.event(), settled.status().sql(), settled.attempt(),
        elapsed.toMillis());
    listener.processed(settled.event(), settled.status().sql(), settled.attempt(), elapsed);
    return settled.status();
  }

  /** Records a failed attempt on its row, in a transaction of its own (the attempt's rolled back). */
  private void failed(EventKey key, Attempt attempt, RuntimeException failure, Throwable cause) {
    try {
      Instant next = rows.recordFailure(key, attempt.number(), FailureText.of(failure)).orElse(clock.instant());
      listener.retried(attempt.event(), attempt.number(), cause, next);
    } catch (DataAccessException recording) {
      log.warn("{}: the failure of attempt {} could not be recorded: ledger unavailable: {}", key, attempt.number(),
          LedgerErrors.describe(recording));
    }
  }

  /** The event and attempt number in flight, known once the row is locked. */
  private record Attempt(WebhookEvent event, int number) {}
}
