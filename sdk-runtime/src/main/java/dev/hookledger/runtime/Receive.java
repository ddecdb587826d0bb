package dev.hookledger.runtime;

import dev.hookledger.runtime.internal.servlet.BodyBudget;
import dev.hookledger.runtime.internal.servlet.ReadDeadline;
import java.time.Duration;

/**
 * How a runtime takes deliveries in: the threads writing them to the ledger, the deliveries that may
 * wait for those threads, the request-body bytes held in memory at once, and the time one body may
 * take to arrive. Given to {@link WebhookRuntimeBuilder#receive(Receive)}; each provider's body limit
 * is set apart, with {@link WebhookRuntimeBuilder#maxBodyBytes(String, int)}.
 *
 * <p>The defaults: 2 ledger writers, 1024 deliveries waiting, a quarter of the maximum heap for
 * bodies in flight, 5 s to read a body. Whatever does not fit is answered 503 with
 * {@code Retry-After} (a slow body 408), the answer providers retry.
 *
 * <pre>{@code
 * WebhookRuntime.builder()
 *     .receive(Receive.builder().ledgerWriters(4).queueCapacity(4096).build())
 * }</pre>
 *
 * <p>Immutable and thread-safe.
 */
public final class Receive {
  private final int ledgerWriters;
  private final int queueCapacity;
  private final long maxInFlightBodyBytes;
  private final Duration bodyReadTimeout;

  private Receive(Builder b) {
    this.ledgerWriters = b.ledgerWriters;
    this.queueCapacity = b.queueCapacity;
    this.maxInFlightBodyBytes = b.maxInFlightBodyBytes;
    this.bodyReadTimeout = b.bodyReadTimeout;
  }

  /**
   * The defaults: 2 writers, 1024 waiting, a quarter of the maximum heap for bodies in flight (as
   * this JVM's heap is now), 5 s per body.
   */
  public static Receive defaults() {
    return builder().build();
  }

  /** A builder starting from the defaults. */
  public static Builder builder() {
    return new Builder();
  }

  /** A builder starting from this value's settings, to change some of them. */
  public Builder toBuilder() {
    return new Builder().ledgerWriters(ledgerWriters).queueCapacity(queueCapacity)
        .maxInFlightBodyBytes(maxInFlightBodyBytes).bodyReadTimeout(bodyReadTimeout);
  }

  /** Threads writing received deliveries to the ledger. */
  public int ledgerWriters() {
    return ledgerWriters;
  }

  /** Deliveries that may wait for a ledger writer at once. */
  public int queueCapacity() {
    return queueCapacity;
  }

  /** The most request-body bytes held in memory at once, across every delivery being received. */
  public long maxInFlightBodyBytes() {
    return maxInFlightBodyBytes;
  }

  /** The total time one request body may take to arrive. */
  public Duration bodyReadTimeout() {
    return bodyReadTimeout;
  }

  @Override
  public String toString() {
    return "Receive[ledgerWriters=" + ledgerWriters + ", queueCapacity=" + queueCapacity + ", maxInFlightBodyBytes="
        + maxInFlightBodyBytes + ", bodyReadTimeout=" + bodyReadTimeout + "]";
  }

  /** Builds a {@link Receive}; each setter names a bad value. Not thread-safe. */
  public static final class Builder {
    private int ledgerWriters = 2;
    private int queueCapacity = 1024;
    private long maxInFlightBodyBytes = BodyBudget.defaultCapacity();
    private Duration bodyReadTimeout = ReadDeadline.DEFAULT;

    private Builder() {}

    /**
     * Threads writing received deliveries to the ledger, 1 to 16; default 2. Each writes every
     * delivery waiting when its previous commit returns as one multi-row insert and one commit
     * (group commit: no timer, so a lone delivery pays one commit and nothing more). Two let one
     * batch fill while the other commits; more help only when commits are slow (a remote database).
     */
    public Builder ledgerWriters(int n) {
      if (n < 1 || n > 16) {
        throw new IllegalArgumentException("ledgerWriters must be between 1 and 16, but was " + n);
      }
      this.ledgerWriters = n;
      return this;
    }

    /**
     * Deliveries that may wait for a ledger writer at once, 1 to 100000; default 1024. When that
     * many wait, a new delivery is answered 503 with {@code Retry-After} at once instead of holding
     * a request thread: the database is not keeping up, and the provider retries later.
     */
    public Builder queueCapacity(int n) {
      if (n < 1 || n > 100_000) {
        throw new IllegalArgumentException("queueCapacity must be between 1 and 100000, but was " + n);
      }
      this.queueCapacity = n;
      return this;
    }

    /**
     * The most request-body bytes held in memory at once, across every delivery being received. A
     * body reserves its bytes as they arrive (never what its {@code Content-Length} declares), and
     * one body may hold at most half of the budget; a delivery that does not fit is answered 503
     * with {@code Retry-After}, the same answer as any other overload, so that no burst of large or
     * slow posts can exhaust the heap or learn how much is left. At least 1; default a quarter of
     * the maximum heap ({@code -Xmx}), e.g. 128 MiB of 512 MiB. Keep it at least twice the largest
     * provider body limit, or such bodies are always answered 503.
     */
    public Builder maxInFlightBodyBytes(long bytes) {
      this.maxInFlightBodyBytes = BodyBudget.requireCapacity(bytes);
      return this;
    }

    /**
     * The total time one request body may take to arrive, from the first read to the last byte,
     * however slowly it trickles (a container's idle timeout never fires on a client that sends a
     * byte every few seconds). A body not read by then is answered 408 and its connection closed;
     * in SHADOW mode the request is passed on unrecorded. Positive; default 5 s, under the
     * providers' own timeouts (Shopify: 5 s for the whole request; GitHub: 10 s).
     */
    public Builder bodyReadTimeout(Duration timeout) {
      this.bodyReadTimeout = ReadDeadline.require(timeout);
      return this;
    }

    /** Builds the value (its settings have no rule between them). */
    public Receive build() {
      return new Receive(this);
    }
  }
}
