package dev.hookledger.runtime.internal.ledger;

import static java.util.Objects.requireNonNull;

import dev.hookledger.WebhookEvent;
import dev.hookledger.runtime.EventSource;
import dev.hookledger.runtime.EventStatus;
import java.time.Duration;

/**
 * One event to insert into the ledger, with the status its row starts in: {@code pending} for any
 * worker, already leased to a worker of this runtime (so that it needs no claim of its own), or
 * settled at once ({@code ignored}: no handler wants it, or a {@code SHADOW} delivery).
 *
 * @param leaseOwner the runtime the row is leased to; null unless {@code status} is {@code processing}
 * @param lease how long that lease holds from the insert; null unless leased
 */
public record NewRow(WebhookEvent event, EventSource source, EventStatus status, String leaseOwner, Duration lease) {

  public NewRow {
    requireNonNull(event, "event");
    requireNonNull(source, "source");
    requireNonNull(status, "status");
    if ((status == EventStatus.PROCESSING) != (leaseOwner != null && lease != null)) {
      throw new IllegalArgumentException("a row starts processing exactly when it has a lease owner and length");
    }
    if (status == EventStatus.DEAD || status == EventStatus.DONE) {
      throw new IllegalArgumentException("a new row cannot start " + StatusColumn.sql(status));
    }
  }

  /** A row any runtime's workers claim: its source's first status ({@code ignored} for a shadowed delivery). */
  public static NewRow waiting(WebhookEvent event, EventSource source) {
    return new NewRow(event, source, SourceColumn.initialStatus(source), null, null);
  }

  /** A row leased at once, attempt 1, to {@code owner}'s workers: the insert is the claim. */
  public static NewRow leased(WebhookEvent event, EventSource source, String owner, Duration lease) {
    return new NewRow(event, source, EventStatus.PROCESSING, requireNonNull(owner, "owner"), requireNonNull(lease, "lease"));
  }

  /** A row settled {@code ignored} by its insert: no {@code @OnEvent} method matches it. */
  public static NewRow ignored(WebhookEvent event, EventSource source) {
    return new NewRow(event, source, EventStatus.IGNORED, null, null);
  }

  public EventKey key() {
    return EventKey.of(event);
  }

  /** The row's {@code attempts}: a leased row's insert is its first claim. */
  int attempts() {
    return status == EventStatus.PROCESSING ? 1 : 0;
  }

  boolean settled() {
    return status.isSettled();
  }
}
