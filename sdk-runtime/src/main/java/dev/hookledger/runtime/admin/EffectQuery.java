package dev.hookledger.runtime.admin;

import dev.hookledger.runtime.EffectStatus;
import java.util.Optional;

/**
 * Which effects {@link OutboxAdmin#list(EffectQuery)} lists, newest enqueued first: narrowed by
 * destination, status and root cause. Immutable; each narrowing returns a new query.
 *
 * <pre>{@code
 * admin.outbox().list(EffectQuery.all().destination("receipts").status(EffectStatus.DEAD));
 * }</pre>
 */
public final class EffectQuery {
  /** The most effects one query lists. */
  public static final int MAX_LIMIT = 500;

  private final String destination;
  private final EffectStatus status;
  private final String cause;
  private final int limit;

  private EffectQuery(String destination, EffectStatus status, String cause, int limit) {
    this.destination = destination;
    this.status = status;
    this.cause = cause;
    this.limit = limit;
  }

  /** Every effect, the 50 newest. */
  public static EffectQuery all() {
    return new EffectQuery(null, null, null, 50);
  }

  /** Only effects to this destination; null for any. */
  public EffectQuery destination(String destination) {
    return new EffectQuery(EventQuery.Builder.blankToNull(destination, "destination"), status, cause, limit);
  }

  /**
   * Only effects of this status; null for any. {@code pending} and {@code sending} are read through
   * the index of waiting effects, {@code dead} through that of dead ones; {@code done} (or no status)
   * reads the effects newest first and stops at the limit.
   */
  public EffectQuery status(EffectStatus status) {
    return new EffectQuery(destination, status, cause, limit);
  }

  /**
   * Only effects whose root cause is exactly this line, as {@link EffectSummary#cause()} shows it;
   * null for any.
   */
  public EffectQuery cause(String cause) {
    return new EffectQuery(destination, status, EventQuery.Builder.blankToNull(cause, "cause"), limit);
  }

  /** At most this many, 1 to {@link #MAX_LIMIT}; default 50. */
  public EffectQuery limit(int limit) {
    if (limit < 1 || limit > MAX_LIMIT) {
      throw new IllegalArgumentException("limit must be between 1 and " + MAX_LIMIT + ", but was " + limit);
    }
    return new EffectQuery(destination, status, cause, limit);
  }

  /**
   * The status a person wrote, in any case ({@code dead}, {@code DEAD}).
   *
   * @throws IllegalArgumentException naming the value and the statuses there are
   */
  public static EffectStatus parseStatus(String text) {
    for (EffectStatus s : EffectStatus.values()) {
      if (s.displayText().equalsIgnoreCase(text.trim())) {
        return s;
      }
    }
    throw new IllegalArgumentException("an effect's status is pending, sending, done or dead, but was '" + text + "'");
  }

  public Optional<String> destination() {
    return Optional.ofNullable(destination);
  }

  public Optional<EffectStatus> status() {
    return Optional.ofNullable(status);
  }

  public Optional<String> cause() {
    return Optional.ofNullable(cause);
  }

  public int limit() {
    return limit;
  }
}
