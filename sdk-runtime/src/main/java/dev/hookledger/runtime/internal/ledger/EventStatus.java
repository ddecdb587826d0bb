package dev.hookledger.runtime.internal.ledger;

import java.util.Locale;

/** The values of {@code event.status}, as the DDL's check constraint lists them. */
public enum EventStatus {
  PENDING, PROCESSING, DONE, IGNORED, STALE, DEAD;

  /** The column value: the lower-case name. */
  public String sql() {
    return name().toLowerCase(Locale.ROOT);
  }
}
