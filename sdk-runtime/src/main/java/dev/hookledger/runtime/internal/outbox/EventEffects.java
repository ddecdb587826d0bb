package dev.hookledger.runtime.internal.outbox;

import static dev.hookledger.runtime.internal.outbox.EffectTable.EVENT_ID;
import static dev.hookledger.runtime.internal.outbox.EffectTable.KEY;
import static dev.hookledger.runtime.internal.outbox.EffectTable.PROVIDER;
import static dev.hookledger.runtime.internal.outbox.EffectTable.SCOPE;
import static dev.hookledger.runtime.internal.outbox.EffectTable.of;
import static org.jooq.impl.DSL.notExists;
import static org.jooq.impl.DSL.row;
import static org.jooq.impl.DSL.selectOne;

import dev.hookledger.runtime.EffectStatus;
import dev.hookledger.runtime.internal.ledger.EventKey;
import java.util.List;
import java.util.UUID;
import org.jooq.Condition;
import org.jooq.DSLContext;
import org.jooq.Record;
import org.jooq.Record2;
import org.jooq.Table;

/**
 * An event's effects as its prune sees them: an event goes with its effects and their attempts, in
 * the prune's own transaction, and only once none of them is waiting or dead, so that a prune never
 * loses an effect a sender or an operator still has to deal with.
 */
public final class EventEffects {
  private final EffectTable tables;

  public EventEffects(String schema) {
    this.tables = new EffectTable(schema);
  }

  /**
   * True for a row of {@code events} none of whose effects is pending, sending or dead: one probe
   * of the effect table's index on the event key per row.
   */
  public Condition noneOpen(Table<?> events) {
    Table<Record> effect = tables.effect();
    return notExists(selectOne().from(effect).where(
        of(effect, PROVIDER).eq(of(events, PROVIDER)),
        of(effect, SCOPE).eq(of(events, SCOPE)),
        of(effect, EVENT_ID).eq(of(events, EVENT_ID)),
        of(effect, EffectTable.STATUS).in(List.of(EffectStatus.PENDING.displayText(),
            EffectStatus.SENDING.displayText(), EffectStatus.DEAD.displayText()))));
  }

  /** Deletes the effects of these events and the effects' attempts, in {@code tx}. */
  public void deleteOf(DSLContext tx, List<EventKey> keys) {
    if (keys.isEmpty()) {
      return;
    }
    List<Record2<String, UUID>> gone = tx.deleteFrom(tables.effect())
        .where(row(PROVIDER, SCOPE, EVENT_ID).in(keys.stream()
            .map(k -> row(k.provider(), k.scope(), k.eventId())).toList()))
        .returningResult(SCOPE, KEY)
        .fetch();
    if (!gone.isEmpty()) {
      tx.deleteFrom(tables.attempt())
          .where(row(SCOPE, KEY).in(gone.stream().map(r -> row(r.value1(), r.value2())).toList()))
          .execute();
    }
  }
}
