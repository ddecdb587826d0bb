package dev.hookledger.runtime;

import java.util.Locale;

/**
 * Where an event stands in the ledger, in processing order: waiting for a worker
 * ({@link #PENDING}, {@link #PROCESSING}), settled ({@link #DONE}, {@link #IGNORED},
 * {@link #STALE}), or {@link #DEAD}, waiting for an operator.
 *
 * <p>The admin API ({@code InboxAdmin}), the CLI and the admin JSON show a status by its lower-case
 * name ({@code pending}, {@code dead}); the ledger's {@code status} column holds the same name.
 */
public enum EventStatus {
  /** Recorded and waiting for a worker, either for its first attempt or for its next after a failure. */
  PENDING,
  /** Claimed by a worker under a lease; an attempt is running, or its worker died and the lease will run out. */
  PROCESSING,
  /** Its handlers ran and committed in one transaction with this status. */
  DONE,
  /** No handler matched its type (or, in shadow mode, the application's existing endpoint handled it). */
  IGNORED,
  /** Older than the version of its entity already applied: its handlers were skipped. */
  STALE,
  /** Its last allowed attempt failed; kept, listed, and retried only by an operator. */
  DEAD;

  /**
   * The status as people and tools read it: its lower-case name ({@code pending}, {@code dead}), the
   * same on the admin page, in the CLI, in the admin JSON and in the ledger's {@code status} column.
   */
  public String displayText() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** Whether a worker will still take the event on its own: {@link #PENDING} or {@link #PROCESSING}. */
  public boolean isWaiting() {
    return this == PENDING || this == PROCESSING;
  }

  /**
   * Whether the event is finished and may be pruned: {@link #DONE}, {@link #IGNORED} or
   * {@link #STALE}. {@link #DEAD} is neither waiting nor settled: it waits for an operator.
   */
  public boolean isSettled() {
    return this == DONE || this == IGNORED || this == STALE;
  }
}
