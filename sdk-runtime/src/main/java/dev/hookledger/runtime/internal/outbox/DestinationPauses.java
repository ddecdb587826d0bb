package dev.hookledger.runtime.internal.outbox;

import static dev.hookledger.runtime.internal.outbox.EffectTable.DESTINATION;
import static dev.hookledger.runtime.internal.outbox.EffectTable.PAUSED;
import static dev.hookledger.runtime.internal.outbox.EffectTable.PAUSED_AT;
import static dev.hookledger.runtime.internal.outbox.EffectTable.UPDATED_AT;

import dev.hookledger.runtime.internal.ledger.LedgerDsl;
import dev.hookledger.runtime.internal.ledger.LedgerTime;
import dev.hookledger.runtime.internal.ledger.RenderedSql;
import org.jooq.DSLContext;
import org.jooq.impl.DSL;

/**
 * An operator's pause and resume of a destination, on every node at once: the
 * {@code destination_state} row's {@code paused}, which every claim of the destination reads under
 * the row's lock. A paused destination's effects wait and use no attempts; those in flight finish.
 * Which names may be paused is the caller's to judge (the admin refuses a destination it does not
 * know): this class writes whatever name it is given.
 */
public final class DestinationPauses {
  private final DSLContext dsl;
  private final String pause;
  private final String resume;

  public DestinationPauses(DSLContext dsl, String schema) {
    this.dsl = dsl;
    EffectTable t = new EffectTable(schema);
    DSLContext sql = RenderedSql.renderer();
    // a destination that has not sent yet has no row: pausing it makes one. The update's times are
    // the inserted row's: Citus refuses now() in ON CONFLICT's DO UPDATE (destination_state is a
    // reference table there)
    this.pause = RenderedSql.render(sql.insertInto(t.state()).columns(DESTINATION, PAUSED, PAUSED_AT, UPDATED_AT)
        .values(DSL.val(""), DSL.inline(true), LedgerTime.NOW, LedgerTime.NOW)
        .onConflict(DESTINATION).doUpdate()
        .set(PAUSED, DSL.inline(true)).set(PAUSED_AT, DSL.excluded(PAUSED_AT))
        .set(UPDATED_AT, DSL.excluded(UPDATED_AT))
        .where(EffectTable.of(t.state(), PAUSED).isFalse()), 1);
    // and resuming it changes nothing: without a row it was not paused
    this.resume = RenderedSql.render(sql.update(t.state())
        .set(PAUSED, DSL.inline(false)).set(PAUSED_AT, DSL.inline(null, PAUSED_AT)).set(UPDATED_AT, LedgerTime.NOW)
        .where(DESTINATION.eq(DSL.val("")), PAUSED.isTrue()), 1);
  }

  /** @return whether it was running and is paused now */
  public boolean pause(String destination) {
    return LedgerDsl.inOwnTransaction(dsl, tx -> EffectTable.update(tx, pause, destination)) == 1;
  }

  /** @return whether it was paused and runs again now */
  public boolean resume(String destination) {
    return LedgerDsl.inOwnTransaction(dsl, tx -> EffectTable.update(tx, resume, destination)) == 1;
  }
}
