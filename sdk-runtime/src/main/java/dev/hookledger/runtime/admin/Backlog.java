package dev.hookledger.runtime.admin;

import java.time.Duration;

/**
 * The cheap part of {@link InboxStatus}: what still needs work. Read through the partial index on
 * waiting rows and, for the dead ones, from the counts the ledger keeps, so its cost follows the
 * backlog up to a bound, not the ledger's history (nor how many dead rows it keeps); fit for a metrics gauge
 * polled every few seconds. The waiting ones are counted as {@link InboxStatus} counts them: up to
 * {@value InboxStatus#COUNTED} and one more, so that a figure above {@value InboxStatus#COUNTED}
 * means "more than that" (then the oldest age is that of the rows due first).
 *
 * @param waiting events {@code pending} or {@code processing}
 * @param dead events waiting for an operator
 * @param oldestWaitingAge age of the oldest waiting event; {@link Duration#ZERO} when none waits
 * @param stuck waiting events due for longer than the admin's {@code stuckAfter} and taken by no
 *     worker: an expired lease nobody took over, or a pending event nobody claims
 */
public record Backlog(long waiting, long dead, Duration oldestWaitingAge, long stuck) {

  /** A backlog with nothing stuck. */
  public Backlog(long waiting, long dead, Duration oldestWaitingAge) {
    this(waiting, dead, oldestWaitingAge, 0);
  }
}
