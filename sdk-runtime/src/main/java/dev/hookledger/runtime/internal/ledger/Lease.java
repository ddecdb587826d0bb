package dev.hookledger.runtime.internal.ledger;

import dev.hookledger.WebhookEvent;
import java.time.Duration;
import java.time.Instant;

/**
 * One committed claim on one event: the runtime that holds it, the attempt it is (which fences it:
 * a takeover makes a new attempt), until when it holds, and the event itself.
 *
 * @param owner the claiming runtime's token
 * @param attempt the row's {@code attempts} after this claim; with {@code owner}, what the
 *     processing transaction checks before it commits
 * @param until when the lease runs out and another worker may take the event over, by the
 *     database's clock as the claim wrote it (informational: renewals move it in the ledger only)
 * @param claimedNanos {@link System#nanoTime()} before the claim was written: the lease runs out
 *     no sooner than {@code length} after it, whatever the clocks say
 * @param length how long the lease was granted for
 * @param afterFailure whether the row held an error when it was claimed: an attempt failed before
 *     this one, or an operator retried the event after one did (the retry counts attempts from 1
 *     again), so that this attempt's success belongs in the event's history too
 */
public record Lease(EventKey key, String owner, int attempt, Instant until, WebhookEvent event, long claimedNanos,
    Duration length, boolean afterFailure) {

  /**
   * Whether less than half of the lease has passed, by this JVM's monotonic clock. Another runtime
   * takes an event over only once the lease's end has passed by the database's clock, which set it,
   * so a fresh lease cannot have been taken over unless that clock jumps half a lease ahead: the
   * processor then skips the check before the handlers, and relies on the fenced settle alone.
   */
  public boolean fresh() {
    return System.nanoTime() - claimedNanos < length.toNanos() / 2;
  }
}
