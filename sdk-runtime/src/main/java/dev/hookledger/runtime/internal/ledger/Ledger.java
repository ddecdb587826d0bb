package dev.hookledger.runtime.internal.ledger;

import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import org.jooq.DSLContext;
import org.jooq.exception.DataAccessException;

/**
 * The receive path's one writer: every delivery, shadowed delivery and replayed event reaches the
 * ledger through {@link #record} or {@link #recordThen}. {@link #record} goes through a
 * {@link GroupCommit}, which writes the rows of concurrent deliveries in one sorted multi-row
 * insert and one commit.
 *
 * <p>{@code INSERT ... ON CONFLICT (provider, scope, event_id) DO NOTHING RETURNING} is the one
 * place where a duplicate is decided ({@link BatchInsert}). Thread-safe.
 */
public final class Ledger {
  /** Whether a recorded delivery was new to the ledger. */
  public enum Recorded { NEW, DUPLICATE }

  private final DSLContext dsl;
  private final EventTable events;
  private final GroupCommit writer;
  private final BatchInsert inlineInsert;

  public Ledger(DSLContext dsl, EventTable events, GroupCommit writer) {
    this.dsl = dsl;
    this.events = events;
    this.writer = writer;
    this.inlineInsert = new BatchInsert(events, 1);
  }

  /**
   * Records a row; returns once the transaction that holds it has committed.
   *
   * @param after what the writer does once the row's batch committed or failed (a hand-off)
   * @throws dev.hookledger.LedgerUnavailableException if the database cannot record it, or the
   *     writers are saturated; nothing was written
   */
  public Recorded record(NewRow row, GroupCommit.AfterWrite after) {
    return record(row, after, System.nanoTime());
  }

  /**
   * As {@link #record(NewRow, GroupCommit.AfterWrite)}, for a delivery that arrived at {@code arrivedNanos}
   * ({@link System#nanoTime()}): the writer's bound on the answer runs from then.
   */
  public Recorded record(NewRow row, GroupCommit.AfterWrite after, long arrivedNanos) {
    return writer.write(row, after, arrivedNanos) ? Recorded.NEW : Recorded.DUPLICATE;
  }

  /** As {@link #record(NewRow, GroupCommit.AfterWrite)}, with nothing to do after the commit. */
  public Recorded record(NewRow row) {
    return record(row, GroupCommit.AfterWrite.NOTHING);
  }

  /**
   * Records the row and, if it is new, runs {@code work} in the same transaction, so that the
   * row and what {@code work} writes commit or roll back together (the {@code INLINE} mode). Not
   * batched: the transaction lasts as long as the handlers.
   *
   * @param row the row as {@code work} will leave it (settled by its insert, {@link NewRow#doneInline})
   * @return the result of {@code work}, or empty for a duplicate (then {@code work} did not run)
   * @throws dev.hookledger.LedgerUnavailableException if the database cannot record or commit;
   *     whatever {@code work} throws otherwise propagates, after the rollback
   */
  public <T> Optional<T> recordThen(NewRow row, Function<DSLContext, T> work) {
    try {
      return dsl.transactionResult(cfg -> {
        DSLContext tx = cfg.dsl();
        boolean isNew = tx.connectionResult(c -> inlineInsert.write(c, List.of(row)))[0];
        return isNew ? Optional.of(work.apply(tx)) : Optional.<T>empty();
      });
    } catch (DataAccessException e) {
      throw LedgerErrors.unavailable("record", row.key(), e);
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
}
