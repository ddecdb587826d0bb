package dev.hookledger.runtime.internal.outbox;

import dev.hookledger.runtime.internal.ledger.LedgerDsl;
import org.jooq.DSLContext;

/**
 * An operator's pause and resume of a destination, on every node at once: the
 * {@code destination_state} row's {@code paused}, which every claim of the destination reads under
 * the row's lock. A paused destination's effects wait and use no attempts; those in flight finish.
 */
public final class DestinationPauses {
  private final DSLContext dsl;
  private final String upsert;

  public DestinationPauses(DSLContext dsl, String schema) {
    this.dsl = dsl;
    EffectTable t = new EffectTable(schema);
    this.upsert = "insert into " + t.state + " as s (destination, paused, paused_at) values (?, ?, case when ? then now() end)"
        + " on conflict (destination) do update set paused = excluded.paused, paused_at = excluded.paused_at,"
        + " updated_at = now() where s.paused is distinct from excluded.paused";
  }

  /** @return whether it was running and is paused now */
  public boolean pause(String destination) {
    return set(destination, true);
  }

  /** @return whether it was paused and runs again now */
  public boolean resume(String destination) {
    return set(destination, false);
  }

  private boolean set(String destination, boolean paused) {
    // a destination never sent to has no row: pausing it makes one, resuming it changes nothing
    int changed = LedgerDsl.inOwnTransaction(dsl, tx -> EffectTable.update(tx, upsert, destination, paused, paused));
    return changed == 1;
  }
}
