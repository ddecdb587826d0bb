package dev.hookledger.runtime.internal.admin;

import static dev.hookledger.runtime.internal.admin.LedgerTables.DONE;
import static dev.hookledger.runtime.internal.admin.LedgerTables.EVENT_ID;
import static dev.hookledger.runtime.internal.admin.LedgerTables.IGNORED;
import static dev.hookledger.runtime.internal.admin.LedgerTables.PROVIDER;
import static dev.hookledger.runtime.internal.admin.LedgerTables.SCOPE;
import static dev.hookledger.runtime.internal.admin.LedgerTables.SETTLED_AT;
import static dev.hookledger.runtime.internal.admin.LedgerTables.STALE;
import static dev.hookledger.runtime.internal.admin.LedgerTables.STATUS;
import static org.jooq.impl.DSL.inline;
import static org.jooq.impl.DSL.row;
import static org.jooq.impl.DSL.select;

import dev.hookledger.runtime.admin.PruneReport;
import java.time.Instant;
import org.jooq.Condition;
import org.jooq.DSLContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Deletes settled rows ({@code done}, {@code ignored}, {@code stale}) settled before a cutoff, in
 * batches of a bounded size, each its own short transaction, so that pruning a large history
 * never holds many row locks or one long transaction. Rows another transaction holds locked are
 * skipped (left for the next prune) rather than waited for. Never touches {@code pending},
 * {@code processing} or {@code dead}: the statement cannot select them.
 */
public final class SettledPruner {
  private static final Logger log = LoggerFactory.getLogger(SettledPruner.class);

  private final DSLContext db;
  private final LedgerTables tables;
  private final int batchSize;

  public SettledPruner(DSLContext db, LedgerTables tables, int batchSize) {
    this.db = db;
    this.tables = tables;
    this.batchSize = batchSize;
  }

  public PruneReport pruneSettledBefore(Instant cutoff) {
    // inlined statuses: the partial index on settled rows (settled_at) then serves the batch select
    Condition eligible = STATUS.in(inline(DONE), inline(IGNORED), inline(STALE)).and(SETTLED_AT.lt(cutoff));
    long deleted = 0;
    int batches = 0;
    int n;
    do {
      n = db.deleteFrom(tables.event())
          .where(row(PROVIDER, SCOPE, EVENT_ID).in(
              select(PROVIDER, SCOPE, EVENT_ID).from(tables.event()).where(eligible)
                  .limit(batchSize).forUpdate().skipLocked()))
          .execute();
      deleted += n;
      batches++;
    } while (n == batchSize);
    log.info("pruned {} settled events (settled before {}) in {} batches", deleted, cutoff, batches);
    return new PruneReport(deleted, batches, cutoff);
  }
}
