package dev.hookledger.runtime;

import static java.util.Objects.requireNonNull;

import java.time.Duration;

/**
 * How a runtime's inbox workers process the events it has recorded: how many threads, how many
 * events one claim takes, how long a claim holds, how often idle workers look for work, how long
 * {@link WebhookRuntime#close()} waits, and the {@link RetryPolicy} of failed events. Given to
 * {@link WebhookRuntimeBuilder#inbox(Inbox)}.
 *
 * <p>The defaults: 2 workers, claims of up to 16 events, a 30 s lease, a 1 s poll, 30 s to drain at
 * close, {@link RetryPolicy#defaults()}. A node holds at most {@code workers + batchSize} events at
 * once (running or queued).
 *
 * <pre>{@code
 * WebhookRuntime.builder()
 *     .inbox(Inbox.builder().workers(8).lease(Duration.ofMinutes(2)).build())
 * }</pre>
 *
 * <p>Immutable and thread-safe.
 */
public final class Inbox {
  private static final Inbox DEFAULTS = builder().build();

  private final int workers;
  private final int batchSize;
  private final Duration lease;
  private final Duration pollInterval;
  private final Duration shutdownTimeout;
  private final RetryPolicy retryPolicy;

  private Inbox(Builder b) {
    this.workers = b.workers;
    this.batchSize = b.batchSize;
    this.lease = b.lease;
    this.pollInterval = b.pollInterval;
    this.shutdownTimeout = b.shutdownTimeout;
    this.retryPolicy = b.retryPolicy;
  }

  /** The defaults: 2 workers, claims of 16, a 30 s lease, a 1 s poll, 30 s at close, the default retries. */
  public static Inbox defaults() {
    return DEFAULTS;
  }

  /** A builder starting from the defaults. */
  public static Builder builder() {
    return new Builder();
  }

  /** A builder starting from this value's settings, to change some of them. */
  public Builder toBuilder() {
    return new Builder().workers(workers).batchSize(batchSize).lease(lease).pollInterval(pollInterval)
        .shutdownTimeout(shutdownTimeout).retryPolicy(retryPolicy);
  }

  /** Threads processing events; 0 for a runtime that only receives. */
  public int workers() {
    return workers;
  }

  /** Events claimed at most by one claim. */
  public int batchSize() {
    return batchSize;
  }

  /** How long a worker's claim on an event holds unless renewed. */
  public Duration lease() {
    return lease;
  }

  /** The mean time between polls when no notification wakes the workers. */
  public Duration pollInterval() {
    return pollInterval;
  }

  /** How long {@link WebhookRuntime#close()} waits for events in flight. */
  public Duration shutdownTimeout() {
    return shutdownTimeout;
  }

  /** When failed events are tried again and when they are set {@code dead}. */
  public RetryPolicy retryPolicy() {
    return retryPolicy;
  }

  @Override
  public String toString() {
    return "Inbox[workers=" + workers + ", batchSize=" + batchSize + ", lease=" + lease + ", pollInterval="
        + pollInterval + ", shutdownTimeout=" + shutdownTimeout + ", retryPolicy=" + retryPolicy + "]";
  }

  /** Builds an {@link Inbox}; each setter names a bad value. Not thread-safe. */
  public static final class Builder {
    private int workers = 2;
    private int batchSize = 16;
    private Duration lease = Duration.ofSeconds(30);
    private Duration pollInterval = Duration.ofSeconds(1);
    private Duration shutdownTimeout = Duration.ofSeconds(30);
    private RetryPolicy retryPolicy = RetryPolicy.defaults();

    private Builder() {}

    /**
     * Threads processing events, 0 to 256; default 2. With 0 the runtime only receives: it records
     * and acknowledges deliveries and notifies the workers of the other runtimes on the ledger.
     */
    public Builder workers(int n) {
      if (n < 0 || n > 256) {
        throw new IllegalArgumentException("workers must be between 0 and 256, but was " + n);
      }
      this.workers = n;
      return this;
    }

    /** Events claimed at most by one claim, 1 to 1000; default 16. */
    public Builder batchSize(int n) {
      if (n < 1 || n > 1000) {
        throw new IllegalArgumentException("batchSize must be between 1 and 1000, but was " + n);
      }
      this.batchSize = n;
      return this;
    }

    /**
     * How long a worker's claim on an event holds unless renewed, at least 1 s; default 30 s. A node
     * renews the leases of its running attempts every third of it (until their handler deadline), so
     * a lease runs out only under a worker that died, froze or lost the database: that long after,
     * the event is taken over by another, and the first worker's commit is refused. It need not
     * exceed the handlers' time.
     */
    public Builder lease(Duration lease) {
      requireNonNull(lease, "lease");
      if (lease.compareTo(Duration.ofSeconds(1)) < 0) {
        throw new IllegalArgumentException("lease must be >= 1 s, but was " + lease);
      }
      this.lease = lease;
      return this;
    }

    /**
     * How often, on average, the workers look for waiting events when no notification wakes them,
     * at least 10 ms; default 1 s (each wait is drawn within ±20 % of it).
     */
    public Builder pollInterval(Duration interval) {
      requireNonNull(interval, "pollInterval");
      if (interval.toMillis() < 10) {
        throw new IllegalArgumentException("pollInterval must be >= 10 ms, but was " + interval);
      }
      this.pollInterval = interval;
      return this;
    }

    /** How long {@link WebhookRuntime#close()} waits for events in flight, not negative; default 30 s. */
    public Builder shutdownTimeout(Duration timeout) {
      requireNonNull(timeout, "shutdownTimeout");
      if (timeout.isNegative()) {
        throw new IllegalArgumentException("shutdownTimeout must not be negative, but was " + timeout);
      }
      this.shutdownTimeout = timeout;
      return this;
    }

    /**
     * When failed events are tried again and when they are set {@code dead}; default
     * {@link RetryPolicy#defaults()}.
     */
    public Builder retryPolicy(RetryPolicy policy) {
      this.retryPolicy = requireNonNull(policy, "retryPolicy");
      return this;
    }

    /** Builds the value (its settings have no rule between them). */
    public Inbox build() {
      return new Inbox(this);
    }
  }
}
