package dev.hookledger.runtime.admin;

/**
 * How a backfill treats <em>legacy</em> events: events settled {@code done} before the ledger
 * recorded which handlers applied each event (schema version 8). Every handler registered then
 * applied them, and nobody can now say which those were.
 */
public enum LegacyEvents {
  /**
   * Count a legacy event as already applied by every handler the backfill names (the default): right
   * for a handler that was registered when those events were processed, and never doubles an effect.
   */
  SKIP,
  /**
   * Apply the named handlers to legacy events too: right for handlers added after those events were
   * processed (the usual reason to backfill). Every other handler still counts as having applied them.
   */
  APPLY
}
