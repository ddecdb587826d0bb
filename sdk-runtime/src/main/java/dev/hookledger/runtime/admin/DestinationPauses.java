package dev.hookledger.runtime.admin;

import static dev.hookledger.runtime.internal.outbox.OutboxColumns.DESTINATION;
import static dev.hookledger.runtime.internal.outbox.OutboxColumns.PAUSED;
import static dev.hookledger.runtime.internal.outbox.OutboxColumns.PAUSED_AT;
import static dev.hookledger.runtime.internal.outbox.OutboxColumns.UPDATED_AT;

import dev.hookledger.runtime.internal.ledger.LedgerDsl;
import dev.hookledger.runtime.internal.ledger.LedgerTime;
import dev.hookledger.runtime.internal.outbox.OutboxColumns;
import org.jooq.DSLContext;
import org.jooq.impl.DSL;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An operator's pause of a destination, in its {@code destination_state} row that every node reads
 * when it claims: while paused, the destination's effects wait (they neither die nor use attempts).
 * A destination that never sent has no row yet: a pause makes it.
 */
final class DestinationPauses {
  private static final Logger log = LoggerFactory.getLogger(DestinationPauses.class);

  private final DSLContext db;
  private final OutboxColumns tables;

  DestinationPauses(DSLContext db, OutboxColumns tables) {
    this.db = db;
    this.tables = tables;
  }

  /** @return false if it was paused already */
  boolean pause(String destination) {
    int changed = LedgerDsl.inOwnTransaction(db, tx -> tx.insertInto(tables.state())
        .columns(DESTINATION, PAUSED, PAUSED_AT).values(DSL.val(destination), DSL.inline(true), LedgerTime.NOW)
        .onConflict(DESTINATION).doUpdate()
        .set(PAUSED, true).set(PAUSED_AT, LedgerTime.NOW).set(UPDATED_AT, LedgerTime.NOW)
        .where(OutboxColumns.of(tables.state(), PAUSED).isFalse())
        .execute());
    if (changed > 0) {
      log.info("destination {} paused by an operator", destination);
    }
    return changed > 0;
  }

  /** @return false if it was not paused */
  boolean resume(String destination) {
    int changed = LedgerDsl.inOwnTransaction(db, tx -> tx.update(tables.state())
        .set(PAUSED, false).setNull(PAUSED_AT).set(UPDATED_AT, LedgerTime.NOW)
        .where(DESTINATION.eq(destination), PAUSED.isTrue())
        .execute());
    if (changed > 0) {
      log.info("destination {} resumed by an operator", destination);
    }
    return changed > 0;
  }
}
