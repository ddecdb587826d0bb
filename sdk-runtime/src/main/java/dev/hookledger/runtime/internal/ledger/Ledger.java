package dev.hookledger.runtime.internal.ledger;

import static dev.hookledger.runtime.internal.ledger.EventTable.*;
import static org.jooq.impl.DSL.exists;
import static org.jooq.impl.DSL.selectOne;

import dev.hookledger.WebhookEvent;
import dev.hookledger.runtime.EventSource;
import java.time.Clock;
import java.util.Optional;
import java.util.function.Function;
import org.jooq.DSLContext;
import org.jooq.exception.DataAccessException;

/**
 * The receive path's one writer: every delivery, shadowed delivery and replayed event reaches the
 * ledger through {@link #record} or {@link #recordThen}, so that batching the inserts of concurrent
 * deliveries into one commit can replace this class without touching the filter or the replay.
 *
 * <p>{@code INSERT ... ON CONFLICT (provider, scope, event_id) DO NOTHING RETURNING} is the one
 * place where a duplicate is decided. Thread-safe.
 */
public final class Ledger {
  /** Whether a recorded delivery was new to the ledger. */
  public enum Recorded { NEW, DUPLICATE }

  private final DSLContext dsl;
  private final EventTable events;
  private final Clock clock;

  public Ledger(DSLContext dsl, EventTable events, Clock clock) {
    this.dsl = dsl;
    this.events = events;
    this.clock = clock;
  }

  /**
   * Records the event in a transaction of its own, committed before this returns.
   *
   * @throws dev.hookledger.LedgerUnavailableException if the database cannot record it
   */
  public Recorded record(WebhookEvent event, EventSource source) {
    try {
      return dsl.transactionResult(cfg -> insert(cfg.dsl(), event, source));
    } catch (DataAccessException e) {
      throw LedgerErrors.unavailable("record", EventKey.of(event), e);
    }
  }

  /**
   * Records the event and, if it is new, runs {@code work} in the same transaction, so that the
   * row and what {@code work} writes commit or roll back together (the {@code INLINE} mode).
   *
   * @return the result of {@code work}, or empty for a duplicate (then {@code work} did not run)
   * @throws dev.hookledger.LedgerUnavailableException if the database cannot record or commit;
   *     whatever {@code work} throws otherwise propagates, after the rollback
   */
  public <T> Optional<T> recordThen(WebhookEvent event, Function<DSLContext, T> work) {
    try {
      return dsl.transactionResult(cfg -> {
        DSLContext tx = cfg.dsl();
        if (insert(tx, event, EventSource.DELIVERY) == Recorded.DUPLICATE) {
          return Optional.empty();
        }
        return Optional.of(work.apply(tx));
      });
    } catch (DataAccessException e) {
      throw LedgerErrors.unavailable("record", EventKey.of(event), e);
    }
  }

  /**
   * Whether the ledger has a row for {@code key}, however it got there.
   *
   * @throws dev.hookledger.LedgerUnavailableException if the database cannot be read
   */
  public boolean contains(EventKey key) {
    try {
      return dsl.fetchExists(dsl.selectOne().from(events.table()).where(EventTable.is(key)));
    } catch (DataAccessException e) {
      throw LedgerErrors.unavailable("look up", key, e);
    }
  }

  private Recorded insert(DSLContext tx, WebhookEvent event, EventSource source) {
    boolean inserted = tx.insertInto(events.table())
        .set(EventRows.newRow(event, source, clock.instant()))
        .onConflict(PROVIDER, SCOPE, EVENT_ID).doNothing()
        .returningResult(ATTEMPTS)
        .fetchOptional()
        .isPresent();
    if (inserted) {
      return Recorded.NEW;
    }
    if (source.isDelivery()) { // a replay finding what was received is not a redelivery
      countDuplicate(tx, EventKey.of(event));
    }
    return Recorded.DUPLICATE;
  }

  /**
   * Counts a duplicate, unless a claim or a processing transaction about to commit holds the row
   * right now: waiting for it would delay the answer, and the provider's retry of a late answer is
   * one more duplicate. The guard takes {@code FOR KEY SHARE SKIP LOCKED}, which only
   * {@code FOR UPDATE} (the lock of a claim, and the processor's before it settles, see
   * {@link ProcessingRows#holds}) makes it skip; concurrent duplicates wait for each other's short
   * update, so none of them is lost.
   */
  private void countDuplicate(DSLContext tx, EventKey key) {
    tx.update(events.table())
        .set(DUPLICATES, DUPLICATES.plus(1))
        .where(EventTable.is(key))
        .and(exists(selectOne().from(events.table()).where(EventTable.is(key)).forKeyShare().skipLocked()))
        .execute();
  }
}
