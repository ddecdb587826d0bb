package dev.hookledger.runtime.internal.ledger;

import dev.hookledger.runtime.EventSource;
import dev.hookledger.runtime.EventStatus;
import java.util.Locale;

/** The values of {@code event.source}, each {@link EventSource}'s lower-case name, and the status a new row of each starts in. */
public final class SourceColumn {
  private SourceColumn() {}

  /** The column value: the lower-case name. */
  public static String sql(EventSource source) {
    return source.name().toLowerCase(Locale.ROOT);
  }

  /** The source a column value names. */
  public static EventSource parse(String value) {
    return EventSource.valueOf(value.toUpperCase(Locale.ROOT));
  }

  /** The status a new row of this source is inserted with: settled for a shadowed delivery, else pending. */
  public static EventStatus initialStatus(EventSource source) {
    return source == EventSource.SHADOW ? EventStatus.IGNORED : EventStatus.PENDING;
  }
}
