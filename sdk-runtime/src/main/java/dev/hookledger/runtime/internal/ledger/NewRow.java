package dev.hookledger.runtime.internal.ledger;

import static java.util.Objects.requireNonNull;

import dev.hookledger.WebhookEvent;
import dev.hookledger.runtime.EventSource;
import dev.hookledger.runtime.EventStatus;
import java.time.Duration;

/**
 * One event to insert into the ledger, with the status its row starts in: {@code pending} for any
 * worker, already leased to a worker of this runtime (so that it needs no claim of its own), or
 * settled at once ({@code ignored}: no handler wants it, or a {@code SHADOW} delivery), or settled
 * {@code done} by its first attempt inside the inserting transaction ({@code INLINE}).
 *
 * @param leaseOwner the runtime the row is leased to; null unless {@code status} is {@code processing}
 * @param lease how long that lease holds from the insert; null unless leased
 * @param maxAttempts the retry policy's, recorded on a row its insert settles as its first attempt
 *     ({@link #doneInline}); null for every other row
 */
public record NewRow(WebhookEvent event, EventSource source, EventStatus status, String leaseOwner, Duration lease,
    Integer maxAttempts) {

  public NewRow {
    requireNonNull(event, "event");
    requireNonNull(source, "source");
    requireNonNull(status, "status");
    if ((status == EventStatus.PROCESSING) != (leaseOwner != null && lease != null)) {
      throw new IllegalArgumentException("a row starts processing exactly when it has a lease owner and length");
    }
    if (status == EventStatus.DEAD || (status == EventStatus.DONE) != (maxAttempts != null)) {
      throw new IllegalArgumentException("a new row cannot start " + StatusColumn.sql(status)
          + (status == EventStatus.DONE ? " but by its first attempt, inside the inserting transaction" : ""));
    }
  }

  /** A row any runtime's workers claim: its source's first status ({@code ignored} for a shadowed delivery). */
  public static NewRow waiting(WebhookEvent event, EventSource source) {
    return new NewRow(event, source, SourceColumn.initialStatus(source), null, null, null);
  }

  /** A row leased at once, attempt 1, to {@code owner}'s workers: the insert is the claim. */
  public static NewRow leased(WebhookEvent event, EventSource source, String owner, Duration lease) {
    return new NewRow(event, source, EventStatus.PROCESSING, requireNonNull(owner, "owner"),
        requireNonNull(lease, "lease"), null);
  }

  /** A row settled {@code ignored} by its insert: no {@code @OnEvent} method matches it. */
  public static NewRow ignored(WebhookEvent event, EventSource source) {
    return new NewRow(event, source, EventStatus.IGNORED, null, null, null);
  }

  /**
   * A row settled {@code done} by its insert, as its first attempt, inside the transaction in which
   * that attempt's handlers then run ({@code INLINE}): no other transaction sees the row before they
   * committed, and a handler's failure rolls the row back with them. The row is written as it will be
   * committed, so that the attempt needs no settling update: that update cannot be HOT (the status
   * is in the predicates of the event table's partial indexes), and cost a new entry in each of
   * them, as much time as the insert itself. An attempt that ends otherwise ({@code stale},
   * {@code ignored}) changes the status before the commit.
   */
  public static NewRow doneInline(WebhookEvent event, EventSource source, int maxAttempts) {
    return new NewRow(event, source, EventStatus.DONE, null, null, maxAttempts);
  }

  public EventKey key() {
    return EventKey.of(event);
  }

  /** The row's {@code attempts}: 1 if its insert is its first claim (leased) or its first attempt (settled). */
  int attempts() {
    return status == EventStatus.PROCESSING || maxAttempts != null ? 1 : 0;
  }

  boolean settled() {
    return status.isSettled();
  }
}
