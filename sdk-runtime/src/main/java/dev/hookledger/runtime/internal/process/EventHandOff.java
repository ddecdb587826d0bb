package dev.hookledger.runtime.internal.process;

import dev.hookledger.runtime.internal.ledger.Lease;
import java.time.Duration;

/**
 * Where the receive path hands events for processing. An event this runtime's workers have room
 * for is recorded already leased to them (its insert is its claim) and handed over from memory
 * once committed; any other is recorded {@code pending}, and the workers of every runtime on the
 * ledger are woken. No method blocks on the database.
 */
public interface EventHandOff {
  /**
   * Whether this runtime processes events itself. Only then are its handlers the ones that decide
   * that no method matches an event (recorded {@code ignored} at once): a runtime that only
   * receives records every event {@code pending} for the runtimes that process, whose handlers
   * may differ.
   */
  boolean processes();

  /** Reserves room in this runtime's workers for one event; false if they have none (or there are none). */
  boolean reserve();

  /** Takes the lease of a committed event, into room {@link #reserve} gave. */
  void accept(Lease lease);

  /** Gives back room {@link #reserve} gave: the row was a duplicate, or was not written. */
  void unreserve();

  /** Events were committed {@code pending}: wakes whoever may claim them, without waiting. */
  void pendingRecorded();

  /** The lease owner of this runtime's workers. */
  String owner();

  /** How long a lease lasts. */
  Duration lease();
}
