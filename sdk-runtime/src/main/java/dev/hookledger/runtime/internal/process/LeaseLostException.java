package dev.hookledger.runtime.internal.process;

import dev.hookledger.runtime.internal.ledger.Lease;

/**
 * Thrown inside a processing transaction whose lease no longer holds (another worker took the
 * event over after it ran out), so that the transaction rolls back and commits nothing.
 */
final class LeaseLostException extends RuntimeException {
  LeaseLostException(Lease lease, String when) {
    super("the lease of attempt " + lease.attempt() + " was taken over " + when + "; nothing is committed", null,
        false, false);
  }
}
