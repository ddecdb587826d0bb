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
  private final String pause;
  private final String resume;

  public DestinationPauses(DSLContext dsl, String schema) {
    this.dsl = dsl;
    EffectTable t = new EffectTable(schema);
    // two statements rather than one with now() under a CASE, and the update's times taken from the
    // inserted row: Citus refuses a non-immutable function in a CASE or in ON CONFLICT's DO UPDATE on
    // its tables (destination_state is a reference table there)
    String upsert = "insert into " + t.state + " as s (destination, paused, paused_at, updated_at) values (?, %s, now())"
        + " on conflict (destination) do update set paused = excluded.paused, paused_at = excluded.paused_at,"
        + " updated_at = excluded.updated_at where s.paused is distinct from excluded.paused";
    this.pause = upsert.formatted("true, now()");
    this.resume = upsert.formatted("false, null");
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
    int changed = LedgerDsl.inOwnTransaction(dsl, tx -> EffectTable.update(tx, paused ? pause : resume, destination));
    return changed == 1;
  }
}
