package dev.hookledger.runtime.admin;

import static dev.hookledger.runtime.internal.ledger.EventTable.EVENT_ID;
import static dev.hookledger.runtime.internal.ledger.EventTable.PROVIDER;
import static dev.hookledger.runtime.internal.ledger.EventTable.SCOPE;
import static dev.hookledger.runtime.internal.ledger.EventTable.SETTLED_AT;
import static org.jooq.impl.DSL.row;
import static org.jooq.impl.DSL.select;

import dev.hookledger.runtime.internal.ledger.AppliedRows;
import dev.hookledger.runtime.internal.ledger.AttemptRows;
import dev.hookledger.runtime.internal.ledger.CitusLedger;
import dev.hookledger.runtime.internal.ledger.EventKey;
import dev.hookledger.runtime.internal.ledger.EventTable;
import dev.hookledger.runtime.internal.ledger.LedgerDsl;
import dev.hookledger.runtime.internal.ledger.StatusColumn;
import dev.hookledger.runtime.internal.outbox.EventEffects;
import java.time.Instant;
import java.util.List;
import java.util.function.Consumer;
import org.jooq.Condition;
import org.jooq.DSLContext;
import org.jooq.impl.DSL;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Deletes settled rows ({@code done}, {@code ignored}, {@code stale}) settled before a cutoff, in
 * batches of a bounded size, each its own short transaction, so that pruning a large history
 * never holds many row locks or one long transaction. Rows another transaction holds locked are
 * skipped (left for the next prune) rather than waited for, except on a ledger distributed by Citus,
 * which locks rows only on one shard at a time. Never touches {@code pending},
 * {@code processing} or {@code dead}: the statement cannot select them. An event's effects and their
 * attempts go with it; an event with an effect still waiting or dead is kept until that is settled.
 */
final class SettledPruner {
  private static final Logger log = LoggerFactory.getLogger(SettledPruner.class);

  private final DSLContext db;
  private final EventTable events;
  private final int batchSize;
  private final AttemptRows attempts;
  private final CitusLedger citus;
  private final AppliedRows applied;
  private final EventEffects effects;

  SettledPruner(DSLContext db, EventTable events, int batchSize) {
    this.attempts = new AttemptRows(events.schema());
    this.citus = new CitusLedger(db, events);
    this.applied = new AppliedRows(events.schema());
    this.effects = new EventEffects(events.schema());
    this.db = db;
    this.events = events;
    this.batchSize = batchSize;
  }

  /** How many settled rows a prune with this cutoff would delete now; deletes nothing (a dry run). */
  PruneReport countSettledBefore(Instant cutoff) {
    return new PruneReport(db.fetchCount(events.table(), eligible(cutoff)), 0, cutoff);
  }

  private Condition eligible(Instant cutoff) {
    // inlined statuses: the partial index on settled rows (settled_at) then serves the batch select;
    // an event whose effects still wait to be sent, or died, stays until they are settled
    return EventTable.statusIn(StatusColumn.SETTLED).and(SETTLED_AT.lt(cutoff)).and(effects.noneOpen(events.table()));
  }

  /**
   * Deletes in batches, oldest settled first, calling {@code progress} after each with the totals so
   * far. Each batch starts where the last one ended ({@code settled_at >= } the newest it deleted):
   * the index entries of rows already deleted stay until vacuum, and a batch that began at the
   * oldest again would step over all of them, making the whole prune quadratic in what it removes.
   */
  PruneReport pruneSettledBefore(Instant cutoff, Consumer<PruneReport> progress) {
    Condition eligible = eligible(cutoff);
    // Citus refuses FOR UPDATE across shards: there a batch waits for a row another transaction holds
    // (a duplicate's count, a settle) instead of skipping it
    boolean skipLocked = !citus.distributed();
    long deleted = 0;
    int batches = 0;
    Instant floor = null;
    int n;
    do {
      Condition batch = floor == null ? eligible : eligible.and(SETTLED_AT.ge(floor));
      // each batch committed on its own: bare on an autoCommit=false pool, every batch was rolled back
      // and the loop deleted the same rows for ever
      List<Instant> settled = LedgerDsl.inOwnTransaction(db, tx -> {
        var oldest = select(PROVIDER, SCOPE, EVENT_ID).from(events.table()).where(batch)
            .orderBy(SETTLED_AT).limit(batchSize);
        // unlocked (Citus), the batch's condition again on each row deleted: one retried (--force)
        // between the select and the delete is no longer settled, and is kept
        var gone = tx.deleteFrom(events.table())
            .where(skipLocked ? DSL.noCondition() : batch)
            .and(row(PROVIDER, SCOPE, EVENT_ID).in(skipLocked ? oldest.forUpdate().skipLocked() : oldest))
            .returning(PROVIDER, SCOPE, EVENT_ID, SETTLED_AT)
            .fetch();
        // their attempts go with them, in the same transaction: no attempt outlives its event
        List<EventKey> keys = gone.map(r -> new EventKey(r.get(PROVIDER), r.get(SCOPE), r.get(EVENT_ID)));
        attempts.deleteOf(tx, keys);
        applied.deleteOf(tx, keys);
        effects.deleteOf(tx, keys);
        return gone.map(r -> r.get(SETTLED_AT));
      });
      n = settled.size();
      deleted += n;
      batches++;
      floor = settled.stream().max(Instant::compareTo).orElse(floor);
      progress.accept(new PruneReport(deleted, batches, cutoff));
    } while (n == batchSize);
    log.info("pruned {} settled events (settled before {}) in {} batches", deleted, cutoff, batches);
    return new PruneReport(deleted, batches, cutoff);
  }
}
