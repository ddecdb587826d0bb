package dev.hookledger.runtime.internal.ledger;

import dev.hookledger.WebhookEvent;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import org.jooq.Field;
import org.jooq.Record;

/**
 * One column of the {@code event} row, as {@link EventTable#ROW} lists them: what the insert writes
 * into it and how, and what it gives back to a {@link WebhookEvent} read from the ledger. The insert,
 * its binds and the row readers all walk that one list, so a column is added in one place and no
 * bind is matched to its placeholder by hand.
 *
 * @param field the column
 * @param insertValue what the insert writes: a bind placeholder, or an expression of the database's
 *     time ({@link LedgerTime}) with at most one bind in it; null if the insert leaves the column to
 *     its default
 * @param binder binds a new row's value to the one placeholder of {@code insertValue}; null if it has none
 * @param reader sets what the column holds on the event being rebuilt; null if the column is not part
 *     of the event (its state in the ledger: status, attempts, lease, ...)
 * @param summary whether an event's summary (the admin's lists, {@code AdminJson.summary}) shows it
 */
record EventColumn(Field<?> field, Field<?> insertValue, Binder binder, Reader reader, boolean summary) {

  /** Binds one row's value of a column. */
  @FunctionalInterface
  interface Binder {
    void bind(PreparedStatement ps, int index, NewRow row) throws SQLException;
  }

  /** Reads one column of a row into the event being rebuilt. */
  @FunctionalInterface
  interface Reader {
    void read(Record r, WebhookEvent.Builder event);
  }

  /** A column of the event itself: bound as written, and read back into the event. */
  static <T> EventColumn event(Field<T> field, Binder binder, Reader reader) {
    return new EventColumn(field, org.jooq.impl.DSL.val(null, field), binder, reader, false);
  }

  /** A column of the row's state in the ledger, written by the insert as {@code insertValue} and not part of the event. */
  static EventColumn state(Field<?> field, Field<?> insertValue, Binder binder) {
    return new EventColumn(field, insertValue, binder, null, false);
  }

  /** A column the insert leaves to its default and no event is rebuilt from. */
  static EventColumn laterOnly(Field<?> field) {
    return new EventColumn(field, null, null, null, false);
  }

  /** The same column, shown in an event's summary too. */
  EventColumn inSummary() {
    return new EventColumn(field, insertValue, binder, reader, true);
  }

  boolean inserted() {
    return insertValue != null;
  }
}
