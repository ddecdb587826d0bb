package dev.hookledger.runtime.admin;

/**
 * How many failing or dead events share one root cause, as an incident review groups them:
 * {@code 12 events: PSQLException: ERROR: relation "sample.balance" does not exist}.
 *
 * @param cause the root cause in one line (see {@link EventSummary#rootCause()})
 * @param failing events of it still waiting to be tried again
 * @param dead events of it with no attempt left
 */
public record CauseCount(String cause, long failing, long dead) {
  /** Failing and dead together. */
  public long events() {
    return failing + dead;
  }
}
