package dev.hookledger.runtime.internal.ledger;

import static dev.hookledger.runtime.internal.ledger.EventTable.*;

import dev.hookledger.runtime.EventSource;
import dev.hookledger.runtime.EventStatus;
import java.util.List;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Record;

/**
 * Takes back a shadow row whose delivery the application's existing endpoint failed. A shadow row
 * is recorded settled ({@code ignored}) before the endpoint runs, so that enforcing never runs
 * what the endpoint handled; when the endpoint did not handle it, the provider redelivers, and
 * that redelivery must find no row: in SHADOW mode the endpoint gets another chance, and after the
 * switch to enforcing it is recorded new and the handlers run once. Thread-safe.
 */
public final class ShadowRows {
  /** What the take-back judges: the row as the shadow pass recorded it, and no duplicate since. */
  private static final List<Field<?>> AS_SHADOWED = List.of(SOURCE, STATUS, ATTEMPTS, DUPLICATES);

  private final DSLContext dsl;
  private final EventTable events;

  public ShadowRows(DSLContext dsl, EventTable events) {
    this.dsl = dsl;
    this.events = events;
  }

  /**
   * Deletes the shadow row of {@code key}, fenced to the row as the shadow pass recorded it (source
   * {@code shadow}, still {@code ignored}, no attempt) and to no duplicate of it having arrived
   * meanwhile: a concurrent copy of the delivery went to the endpoint too, and may have succeeded.
   *
   * @return whether the row was deleted
   * @throws org.jooq.exception.DataAccessException if the database cannot delete it
   */
  public boolean forget(EventKey key) {
    // found by its key alone, locked, judged here, deleted by key (EventTable.lockByKey says why)
    return LedgerDsl.inOwnTransaction(dsl, tx -> {
      Record row = events.lockByKey(tx, key, AS_SHADOWED);
      boolean asShadowed = row != null
          && SourceColumn.sql(EventSource.SHADOW).equals(row.get(SOURCE))
          && StatusColumn.sql(EventStatus.IGNORED).equals(row.get(STATUS))
          && row.get(ATTEMPTS) == 0
          && row.get(DUPLICATES) == 0;
      return asShadowed && tx.deleteFrom(events.table()).where(EventTable.is(key)).execute() == 1;
    });
  }
}
