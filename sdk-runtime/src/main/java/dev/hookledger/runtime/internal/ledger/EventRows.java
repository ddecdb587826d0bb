package dev.hookledger.runtime.internal.ledger;

import dev.hookledger.WebhookEvent;
import java.util.List;
import org.jooq.Field;
import org.jooq.Record;

/** Converts between a {@link WebhookEvent} and its {@code event} row. */
public final class EventRows {
  /** The columns that rebuild a {@link WebhookEvent}. */
  public static final List<Field<?>> EVENT_COLUMNS = EventTable.ROW.stream()
      .filter(c -> c.reader() != null).<Field<?>>map(EventColumn::field).toList();
  private static final List<EventColumn.Reader> READERS = EventTable.ROW.stream()
      .map(EventColumn::reader).filter(java.util.Objects::nonNull).toList();

  private EventRows() {}

  /** Rebuilds the event from a row holding {@link #EVENT_COLUMNS}. */
  public static WebhookEvent toEvent(Record r) {
    WebhookEvent.Builder b = WebhookEvent.builder();
    READERS.forEach(reader -> reader.read(r, b));
    return b.build();
  }
}
