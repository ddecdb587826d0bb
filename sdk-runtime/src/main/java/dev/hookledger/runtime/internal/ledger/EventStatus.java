package dev.hookledger.runtime.internal.ledger;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/** The values of {@code event.status}, as the DDL's check constraint lists them, in processing order. */
public enum EventStatus {
  PENDING, PROCESSING, DONE, IGNORED, STALE, DEAD;

  /** Every status's column value, in processing order (the order a person reads them in). */
  public static final List<String> NAMES = Arrays.stream(values()).map(EventStatus::sql).toList();
  /** Rows still waiting for a worker. */
  public static final List<EventStatus> WAITING = List.of(PENDING, PROCESSING);
  /** Rows that are finished and may be pruned: never retried on their own. */
  public static final List<EventStatus> SETTLED = List.of(DONE, IGNORED, STALE);

  /** The column value: the lower-case name. */
  public String sql() {
    return name().toLowerCase(Locale.ROOT);
  }
}
