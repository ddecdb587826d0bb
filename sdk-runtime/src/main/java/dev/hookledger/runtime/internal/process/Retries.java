package dev.hookledger.runtime.internal.process;

import dev.hookledger.runtime.RetryPolicy;
import dev.hookledger.runtime.WebhookListener;
import dev.hookledger.runtime.internal.ledger.Lease;
import dev.hookledger.runtime.internal.ledger.LedgerErrors;
import dev.hookledger.runtime.internal.ledger.ProcessingRows;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import org.jooq.exception.DataAccessException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Records a failed attempt by the {@link RetryPolicy}: {@code pending} again after the backoff, or
 * {@code dead} after the last attempt, keeping the error either way. Thread-safe.
 */
public final class Retries {
  private static final Logger log = LoggerFactory.getLogger(Retries.class);

  private final ProcessingRows rows;
  private final RetryPolicy policy;
  private final WebhookListener listener;

  public Retries(ProcessingRows rows, RetryPolicy policy, WebhookListener listener) {
    this.rows = rows;
    this.policy = policy;
    this.listener = listener;
  }

  public RetryPolicy policy() {
    return policy;
  }

  /**
   * Records the failure of {@code lease}'s attempt, whose transaction has rolled back, with the
   * attempt's own row ({@code took} long) in the same transaction. Never throws:
   * if the ledger cannot record it, the lease runs out and the event is tried again then.
   */
  void failed(Lease lease, RuntimeException failure, Throwable cause, Duration took) {
    String text = FailureText.of(failure);
    ProcessingRows.Failure error = new ProcessingRows.Failure(text, RootCause.of(text), took);
    int attempt = lease.attempt();
    try {
      if (policy.isLast(attempt)) {
        if (rows.bury(lease, error)) {
          log.warn("{} attempt {} of {} failed; the event is dead and waits for an operator: {}", lease.key(), attempt,
              policy.maxAttempts(), failure.getMessage(), cause);
          listener.dead(lease.event(), attempt, cause);
          return;
        }
      } else {
        Duration delay = policy.delayAfter(attempt, ThreadLocalRandom.current());
        Optional<Instant> due = rows.reschedule(lease, delay, error);
        if (due.isPresent()) {
          Instant next = due.get(); // the database's clock, as the claims that read it
          log.warn("{} attempt {} of {} failed; next attempt at {}: {}", lease.key(), attempt, policy.maxAttempts(),
              next, failure.getMessage(), cause);
          listener.retried(lease.event(), attempt, cause, next);
          return;
        }
      }
      log.warn("{} attempt {} failed, and its lease was taken over meanwhile: the failure is not recorded: {}",
          lease.key(), attempt, failure.getMessage());
    } catch (DataAccessException e) {
      log.warn("{}: the failure of attempt {} could not be recorded (ledger unavailable: {}); it is tried again"
          + " when its lease runs out at {}", lease.key(), attempt, LedgerErrors.describe(e), lease.until());
    }
  }
}
