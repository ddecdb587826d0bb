package dev.hookledger.runtime.internal.ledger;

import dev.hookledger.runtime.EventStatus;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * The values of {@code event.status}, as the DDL's check constraint lists them: each
 * {@link EventStatus}'s lower-case name. The one place a status becomes a string and back.
 */
public final class StatusColumn {
  /** Every status's column value, in processing order (the order a person reads them in). */
  public static final List<String> NAMES = Arrays.stream(EventStatus.values()).map(StatusColumn::sql).toList();
  /** Rows still waiting for a worker. */
  public static final List<EventStatus> WAITING =
      Arrays.stream(EventStatus.values()).filter(EventStatus::isWaiting).toList();
  /** Rows that are finished and may be pruned: never retried on their own. */
  public static final List<EventStatus> SETTLED =
      Arrays.stream(EventStatus.values()).filter(EventStatus::isSettled).toList();

  private StatusColumn() {}

  /** The column value: the lower-case name. */
  public static String sql(EventStatus status) {
    return status.name().toLowerCase(Locale.ROOT);
  }

  /**
   * The status a column value (or a user's {@code --status} argument) names.
   *
   * @throws IllegalArgumentException naming the value and the statuses there are
   */
  public static EventStatus parse(String value) {
    int i = NAMES.indexOf(value);
    if (i < 0) {
      throw new IllegalArgumentException("status must be one of " + String.join(", ", NAMES) + ", but was '" + value + "'");
    }
    return EventStatus.values()[i];
  }
}
