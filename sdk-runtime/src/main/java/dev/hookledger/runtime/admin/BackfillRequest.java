package dev.hookledger.runtime.admin;

import static java.util.Objects.requireNonNull;

import dev.hookledger.runtime.internal.dispatch.TypePattern;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * What a backfill runs: named {@code @OnEvent} handlers over the stored events of a provider, a type
 * pattern and a window of receipt, oldest first. Immutable; built by {@link #builder(String...)},
 * every setter naming the bad value.
 *
 * <pre>{@code
 * admin.startBackfill(BackfillRequest.builder("com.acme.Ledger#paid")
 *     .provider("stripe").type("invoice.*").since(Instant.parse("2026-11-01T00:00:00Z"))
 *     .legacy(LegacyEvents.APPLY).build());
 * }</pre>
 */
public final class BackfillRequest {
  /** The default pace: events per second a backfill applies at most. */
  public static final int DEFAULT_MAX_PER_SECOND = 200;
  /** The default backlog above which a backfill pauses: live deliveries keep priority. */
  public static final int DEFAULT_MAX_BACKLOG = 20;

  private final List<String> handlers;
  private final String provider;
  private final String type;
  private final Instant since;
  private final Instant until;
  private final LegacyEvents legacy;
  private final int maxPerSecond;
  private final int maxBacklog;

  private BackfillRequest(Builder b) {
    this.handlers = b.handlers;
    this.provider = b.provider;
    this.type = b.type;
    this.since = b.since;
    this.until = b.until;
    this.legacy = b.legacy;
    this.maxPerSecond = b.maxPerSecond;
    this.maxBacklog = b.maxBacklog;
  }

  /**
   * Starts a request for the handlers of these names ({@code @OnEvent(name)}, else
   * {@code fully.qualified.Class#method}).
   *
   * @throws IllegalArgumentException if none is given, or one is blank
   */
  public static Builder builder(String... handlers) {
    return new Builder(handlers);
  }

  /** The handlers' names, in the order given; never empty. */
  public List<String> handlers() {
    return handlers;
  }

  /** The provider the events come from; empty for every provider. */
  public Optional<String> provider() {
    return Optional.ofNullable(provider);
  }

  /** The type or pattern ({@code invoice.*}, {@code *}) of the events; {@code *} by default. */
  public String type() {
    return type;
  }

  /** Events received at or after this; empty for the oldest kept. */
  public Optional<Instant> since() {
    return Optional.ofNullable(since);
  }

  /** Events received before this; empty for "when the backfill starts" (live events are live processing's). */
  public Optional<Instant> until() {
    return Optional.ofNullable(until);
  }

  /** How events settled before handler bookkeeping are treated. */
  public LegacyEvents legacy() {
    return legacy;
  }

  /** The most events applied per second. */
  public int maxPerSecond() {
    return maxPerSecond;
  }

  /** The backfill pauses while more events than this wait for live processing. */
  public int maxBacklog() {
    return maxBacklog;
  }

  /** Builds a {@link BackfillRequest}. */
  public static final class Builder {
    private final List<String> handlers;
    private String provider;
    private String type = "*";
    private Instant since;
    private Instant until;
    private LegacyEvents legacy = LegacyEvents.SKIP;
    private int maxPerSecond = DEFAULT_MAX_PER_SECOND;
    private int maxBacklog = DEFAULT_MAX_BACKLOG;

    private Builder(String... handlers) {
      requireNonNull(handlers, "handlers");
      if (handlers.length == 0) {
        throw new IllegalArgumentException("a backfill names at least one handler");
      }
      for (String h : handlers) {
        if (h == null || h.isBlank()) {
          throw new IllegalArgumentException("handler name must not be blank, but was '" + h + "'");
        }
      }
      this.handlers = List.of(handlers).stream().distinct().toList();
    }

    /** Only events of this provider id ({@code stripe}); default every provider. */
    public Builder provider(String provider) {
      requireNonNull(provider, "provider");
      if (provider.isBlank()) {
        throw new IllegalArgumentException("provider must not be blank");
      }
      this.provider = provider;
      return this;
    }

    /**
     * Only events of this type or pattern, as {@code @OnEvent} writes them; default {@code *}.
     *
     * @throws IllegalArgumentException naming the pattern and the rule it breaks
     */
    public Builder type(String pattern) {
      this.type = TypePattern.parse(pattern).toString();
      return this;
    }

    /** Only events received at or after {@code since}. */
    public Builder since(Instant since) {
      this.since = requireNonNull(since, "since");
      return this;
    }

    /** Only events received before {@code until}; default the moment the backfill is started. */
    public Builder until(Instant until) {
      this.until = requireNonNull(until, "until");
      return this;
    }

    /** How events settled before handler bookkeeping are treated; default {@link LegacyEvents#SKIP}. */
    public Builder legacy(LegacyEvents legacy) {
      this.legacy = requireNonNull(legacy, "legacy");
      return this;
    }

    /**
     * The most events applied per second, 1 to 10000; default {@value #DEFAULT_MAX_PER_SECOND}. While the
     * node running the backfill receives live deliveries, it applies a tenth of that: live deliveries keep priority.
     */
    public Builder maxPerSecond(int n) {
      if (n < 1 || n > 10_000) {
        throw new IllegalArgumentException("maxPerSecond must be between 1 and 10000, but was " + n);
      }
      this.maxPerSecond = n;
      return this;
    }

    /**
     * Pause while more than this many events wait for live processing, 0 or more; default
     * {@value #DEFAULT_MAX_BACKLOG}.
     */
    public Builder maxBacklog(int n) {
      if (n < 0) {
        throw new IllegalArgumentException("maxBacklog must be >= 0, but was " + n);
      }
      this.maxBacklog = n;
      return this;
    }

    /** @throws IllegalArgumentException if {@code until} is not after {@code since} */
    public BackfillRequest build() {
      if (since != null && until != null && !until.isAfter(since)) {
        throw new IllegalArgumentException("until (" + until + ") must be after since (" + since + ")");
      }
      return new BackfillRequest(this);
    }
  }
}
