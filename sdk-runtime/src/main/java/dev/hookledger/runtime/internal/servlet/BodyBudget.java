package dev.hookledger.runtime.internal.servlet;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The bytes of request bodies that may be held in memory at once, across every request of one
 * runtime. A body reserves its bytes as they arrive, never what its {@code Content-Length} declares:
 * a client that declares 25 MiB and sends a byte every few seconds holds those bytes, not the 25 MiB.
 * No one body may hold more than {@linkplain #perBody() half} of the budget, so that no single
 * unverified request can spend all of it. When the budget is spent the filter answers 503 with
 * {@code Retry-After}, the same answer as any other overload (it tells nobody how much is left), so
 * that a burst of large posts (signed or not) cannot exhaust the heap: the providers retry a 503
 * later. Thread-safe, lock-free.
 */
public final class BodyBudget {
  /** The share of the maximum heap the default budget takes: a quarter. */
  static final int HEAP_DIVISOR = 4;
  /** The share of the budget one body may hold: a half. */
  static final int PER_BODY_DIVISOR = 2;

  private final long capacity;
  private final AtomicLong reserved = new AtomicLong();

  private BodyBudget(long capacity) {
    this.capacity = capacity;
  }

  /**
   * A budget of {@code capacity} bytes.
   *
   * @throws IllegalArgumentException {@code maxInFlightBodyBytes must be >= 1, but was 0}
   */
  public static BodyBudget of(long capacity) {
    return new BodyBudget(requireCapacity(capacity));
  }

  /** Checks a configured budget, for the builder: returns it if it is at least 1. */
  public static long requireCapacity(long capacity) {
    if (capacity < 1) {
      throw new IllegalArgumentException("maxInFlightBodyBytes must be >= 1, but was " + capacity);
    }
    return capacity;
  }

  /** The default: a quarter of the JVM's maximum heap ({@code -Xmx}), e.g. 128 MiB of 512 MiB. */
  public static long defaultCapacity() {
    return Math.max(1, Runtime.getRuntime().maxMemory() / HEAP_DIVISOR);
  }

  /** Reserves {@code bytes} if that many are left, all or nothing; {@code true} if it did. */
  public boolean tryReserve(long bytes) {
    if (bytes < 0) {
      throw new IllegalArgumentException("bytes must be >= 0, but was " + bytes);
    }
    long now;
    do {
      now = reserved.get();
      if (bytes > capacity - now) {
        return false;
      }
    } while (!reserved.compareAndSet(now, now + bytes));
    return true;
  }

  /**
   * Reserves as many of {@code bytes} as are left, at most {@code bytes}; returns how many (0 when
   * the budget is spent). For a chunked body, which reads on in smaller pieces when little is left.
   */
  public long reserveUpTo(long bytes) {
    long now;
    long got;
    do {
      now = reserved.get();
      got = Math.min(bytes, capacity - now);
      if (got <= 0) {
        return 0;
      }
    } while (!reserved.compareAndSet(now, now + got));
    return got;
  }

  /** Gives back {@code bytes} reserved earlier. */
  public void release(long bytes) {
    long left = reserved.addAndGet(-bytes);
    if (left < 0) {
      throw new IllegalStateException("released " + bytes + " bytes more than were reserved (" + left + ")");
    }
  }

  /** The bytes reserved now. */
  public long reserved() {
    return reserved.get();
  }

  /**
   * The most bytes one body may hold: half the budget (at least 1). A body that needs more is
   * answered as an exhausted budget is.
   */
  public long perBody() {
    return Math.max(1, capacity / PER_BODY_DIVISOR);
  }

  /** The bytes that may be reserved at once. */
  public long capacity() {
    return capacity;
  }

  @Override
  public String toString() {
    return "BodyBudget[" + reserved.get() + " of " + capacity + " bytes reserved]";
  }
}
