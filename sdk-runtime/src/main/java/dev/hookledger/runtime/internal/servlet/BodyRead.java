package dev.hookledger.runtime.internal.servlet;

/**
 * What {@link BodyReader} read of one body, holding the body's bytes reserved in the
 * {@link BodyBudget} until {@linkplain #close() closed} (when the request is answered). Not
 * thread-safe: one request's.
 */
public final class BodyRead implements AutoCloseable {
  /** How reading ended. */
  public enum Status {
    /** The whole body was read: {@link #bytes()} is all of it. */
    READ,
    /** The body is over the provider's limit: {@link #bytes()} is what was read before stopping. */
    TOO_LARGE,
    /** The budget, or the body's share of it, could not hold the body: {@link #bytes()} is what was read before stopping. */
    OVER_BUDGET,
    /** The body did not arrive within its {@link ReadDeadline}: {@link #bytes()} is what was read before stopping. */
    TIMED_OUT
  }

  private static final byte[] NOTHING = new byte[0];

  private final Status status;
  private final byte[] bytes;
  private final BodyBudget budget;
  private long reserved;

  BodyRead(Status status, byte[] bytes, BodyBudget budget, long reserved) {
    this.status = status;
    this.bytes = bytes;
    this.budget = budget;
    this.reserved = reserved;
  }

  static BodyRead unread(Status status) {
    return new BodyRead(status, NOTHING, null, 0);
  }

  public Status status() {
    return status;
  }

  /** The body, or the part read before reading stopped; never null. */
  public byte[] bytes() {
    return bytes;
  }

  /** The bytes this read holds reserved in the budget now. */
  public long reserved() {
    return reserved;
  }

  /** Gives the body's bytes back to the budget; idempotent. */
  @Override
  public void close() {
    if (reserved > 0) {
      budget.release(reserved);
      reserved = 0;
    }
  }
}
