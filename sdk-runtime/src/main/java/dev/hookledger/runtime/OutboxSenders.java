package dev.hookledger.runtime;

import static java.util.Objects.requireNonNull;

import java.time.Duration;

/**
 * How a runtime sends the outbox's effects on this node: its sender threads, and how often they look
 * for due effects when nothing wakes them. Given to {@link WebhookRuntimeBuilder#outbox(OutboxSenders)};
 * where effects go is said apart, with {@link WebhookRuntimeBuilder#destination(Destination)} and
 * {@link WebhookRuntimeBuilder#effectHandler}.
 *
 * <p>The defaults: 4 senders, a 1 s poll. A commit on this node, or a notification from another,
 * wakes the senders at once; the poll is the fallback.
 *
 * <pre>{@code
 * WebhookRuntime.builder()
 *     .outbox(OutboxSenders.builder().workers(0).build())   // this node enqueues, the others send
 * }</pre>
 *
 * <p>Immutable and thread-safe.
 */
public final class OutboxSenders {
  private static final OutboxSenders DEFAULTS = builder().build();

  private final int workers;
  private final Duration pollInterval;

  private OutboxSenders(Builder b) {
    this.workers = b.workers;
    this.pollInterval = b.pollInterval;
  }

  /** The defaults: 4 sender threads, a 1 s poll. */
  public static OutboxSenders defaults() {
    return DEFAULTS;
  }

  /** A builder starting from the defaults. */
  public static Builder builder() {
    return new Builder();
  }

  /** A builder starting from this value's settings, to change some of them. */
  public Builder toBuilder() {
    return new Builder().workers(workers).pollInterval(pollInterval);
  }

  /** Threads sending effects on this node; 0 for a node that only enqueues them. */
  public int workers() {
    return workers;
  }

  /** The mean wait between polls when nothing wakes the senders. */
  public Duration pollInterval() {
    return pollInterval;
  }

  @Override
  public String toString() {
    return "OutboxSenders[workers=" + workers + ", pollInterval=" + pollInterval + "]";
  }

  /** Builds an {@link OutboxSenders}; each setter names a bad value. Not thread-safe. */
  public static final class Builder {
    private int workers = 4;
    private Duration pollInterval = Duration.ofSeconds(1);

    private Builder() {}

    /**
     * Threads sending the outbox's effects on this node, 0 to 256; default 4. With 0 the node
     * enqueues effects (in its handlers' transactions) and leaves their sending to the other nodes.
     */
    public Builder workers(int n) {
      if (n < 0 || n > 256) {
        throw new IllegalArgumentException("outbox workers must be between 0 and 256, but was " + n);
      }
      this.workers = n;
      return this;
    }

    /**
     * How often, on average, the senders look for due effects when nothing wakes them (a commit on
     * this node or a notification from another wakes them at once), at least 10 ms; default 1 s.
     */
    public Builder pollInterval(Duration interval) {
      requireNonNull(interval, "pollInterval");
      if (interval.toMillis() < 10) {
        throw new IllegalArgumentException("outbox pollInterval must be >= 10 ms, but was " + interval);
      }
      this.pollInterval = interval;
      return this;
    }

    /** Builds the value (its settings have no rule between them). */
    public OutboxSenders build() {
      return new OutboxSenders(this);
    }
  }
}
