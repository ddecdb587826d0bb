package dev.hookledger.runtime.admin;

import dev.hookledger.runtime.BreakerState;
import java.time.Duration;
import java.time.Instant;

/**
 * One destination of the outbox as the operator watches it: its backlog (counted through the
 * partial indexes on waiting and dead effects, so the cost follows the backlog, never the effects
 * sent), its breaker and pause as all nodes share them, and the rate it is limited to. Effects sent
 * ({@code done}) are history and not counted. Immutable.
 *
 * @param destination its name, or an absolute URL's origin
 * @param pending effects waiting for their first or next attempt
 * @param sending effects leased by a node now
 * @param dead effects refused for good or out of attempts, waiting for an operator
 * @param oldestWaitingAge age of the oldest waiting effect; {@link Duration#ZERO} if none waits
 * @param breaker the breaker's state; {@link BreakerState#CLOSED} for a destination that never failed
 * @param consecutiveFailures failed attempts since its last success
 * @param openedAt when the breaker opened; null unless open or probing
 * @param paused whether an operator paused it ({@link OutboxAdmin#pause})
 * @param ratePerSecond the rate it is limited to, as the runtime of this admin configures it; 0 for
 *     no limit, or where this admin does not know the runtime's destinations (the command line)
 */
public record DestinationStatus(String destination, long pending, long sending, long dead, Duration oldestWaitingAge,
    BreakerState breaker, int consecutiveFailures, Instant openedAt, boolean paused, double ratePerSecond) {

  /** Effects pending or sending. */
  public long waiting() {
    return pending + sending;
  }
}
