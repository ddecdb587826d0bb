package dev.hookledger.runtime.internal.settings;

import dev.hookledger.runtime.Deadlines;
import dev.hookledger.runtime.Inbox;
import dev.hookledger.runtime.OutboxSenders;
import dev.hookledger.runtime.Receive;
import dev.hookledger.runtime.RetryPolicy;
import dev.hookledger.runtime.WebhookRuntime;
import dev.hookledger.runtime.WebhookRuntimeBuilder;
import dev.hookledger.runtime.internal.dispatch.TypePattern;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * Every option of a runtime that a front door can set from configuration: the one list that the
 * builder's doors read (web.xml init-params, environment variables, Spring properties, the command
 * line), so that an option added here is reachable from each of them, with one grammar per type
 * ({@link SettingText}) and the builder's defaults. What is not a plain value (the database,
 * providers and their secrets, handlers, listeners) each door takes in its own way.
 */
public final class SettingsCatalogue {
  /** The retry policy as a group: the name a door's message gives when its values do not fit together. */
  public static final String RETRY = "retry";

  private static final List<Setting<?>> ALL = List.of(
      Setting.of("schema", Kind.TEXT, WebhookRuntimeBuilder::schema, RuntimeSettings::schema, "billing_ledger"),
      Setting.of("mode", Kind.MODE, WebhookRuntimeBuilder::mode, RuntimeSettings::mode, "SHADOW"),
      Setting.of("inline", Kind.LIST, (b, l) -> b.inline(l.toArray(String[]::new)),
          s -> s.inline().stream().map(TypePattern::toString).toList(), "invoice.*,customer.created"),
      Setting.inbox("workers", Kind.WHOLE, Inbox.Builder::workers, s -> s.inbox().workers(), "7"),
      Setting.inbox("batch-size", Kind.WHOLE, Inbox.Builder::batchSize, s -> s.inbox().batchSize(), "64"),
      Setting.inbox("lease", Kind.DURATION, Inbox.Builder::lease, s -> s.inbox().lease(), "2m"),
      Setting.inbox("poll-interval", Kind.DURATION, Inbox.Builder::pollInterval, s -> s.inbox().pollInterval(),
          "250ms"),
      Setting.inbox("shutdown-timeout", Kind.DURATION, Inbox.Builder::shutdownTimeout,
          s -> s.inbox().shutdownTimeout(), "45s"),
      Setting.retry("retry.max-attempts", Kind.WHOLE, RetryPolicy.Builder::maxAttempts, RetryPolicy::maxAttempts, "5"),
      Setting.retry("retry.first-delay", Kind.DURATION, RetryPolicy.Builder::firstDelay, RetryPolicy::firstDelay,
          "2s"),
      Setting.retry("retry.max-delay", Kind.DURATION, RetryPolicy.Builder::maxDelay, RetryPolicy::maxDelay, "10m"),
      Setting.retry("retry.factor", Kind.DECIMAL, RetryPolicy.Builder::factor, RetryPolicy::factor, "3.0"),
      Setting.retry("retry.jitter", Kind.DECIMAL, RetryPolicy.Builder::jitter, RetryPolicy::jitter, "0.1"),
      Setting.deadline("handler-timeout", Kind.DURATION, Deadlines.Builder::handlerTimeout,
          s -> s.deadlines().handler(), "20s"),
      Setting.deadline("statement-timeout", Kind.DURATION, Deadlines.Builder::statementTimeout,
          s -> s.deadlines().statement(), "4s"),
      Setting.deadline("lock-timeout", Kind.DURATION, Deadlines.Builder::lockTimeout, s -> s.deadlines().lock(), "2s"),
      Setting.deadline("idle-in-transaction-timeout", Kind.DURATION,
          Deadlines.Builder::idleInTransactionTimeout,
          s -> s.deadlines().idleInTransaction(), "90s"),
      Setting.deadline("session-timeouts-from-pool", Kind.YES_NO, Deadlines.Builder::sessionTimeoutsFromPool,
          s -> s.deadlines().fromPool(), "true"),
      Setting.deadline("connect-timeout", Kind.DURATION, Deadlines.Builder::connectTimeout,
          s -> s.deadlines().connect(), "5s").ownPoolOnly(),
      Setting.deadline("socket-timeout", Kind.DURATION, Deadlines.Builder::socketTimeout,
          s -> s.deadlines().socket(), "8s").ownPoolOnly(),
      Setting.receive("ledger-writers", Kind.WHOLE, Receive.Builder::ledgerWriters,
          s -> s.receive().ledgerWriters(), "3"),
      Setting.receive("receive-queue-capacity", Kind.WHOLE, Receive.Builder::queueCapacity,
          s -> s.receive().queueCapacity(), "512"),
      Setting.receive("max-in-flight-body-bytes", Kind.BYTES, Receive.Builder::maxInFlightBodyBytes,
          s -> s.receive().maxInFlightBodyBytes(), "64MB").property("hookledger.max-in-flight-body-size"),
      Setting.receive("body-read-timeout", Kind.DURATION, Receive.Builder::bodyReadTimeout,
          s -> s.receive().bodyReadTimeout(), "3s"),
      Setting.outbox("outbox-workers", Kind.WHOLE, OutboxSenders.Builder::workers, s -> s.outbox().workers(), "8"),
      Setting.outbox("outbox-poll-interval", Kind.DURATION, OutboxSenders.Builder::pollInterval,
          s -> s.outbox().pollInterval(), "500ms"));

  private SettingsCatalogue() {}

  /** Every option, in the order the documentation lists them. */
  public static List<Setting<?>> all() {
    return ALL;
  }

  /** The option of this init-param key, e.g. {@code retry.max-attempts}. */
  public static Optional<Setting<?>> byKey(String key) {
    return ALL.stream().filter(s -> s.key().equals(key)).findFirst();
  }

  /** The builder's defaults, as a fresh builder holds them. */
  public static RuntimeSettings defaults() {
    return RuntimeInternals.settings(WebhookRuntime.builder());
  }

  /**
   * Applies what a text door holds: each option whose text {@code textOf} gives (null when unset) is
   * parsed by {@link SettingText} and set on {@code builder}.
   *
   * @param nameOf how the door names an option (or {@link #RETRY}, the retry options together) in a message
   * @throws IllegalArgumentException naming the option, in the door's terms, and the bad value
   */
  public static void applyText(WebhookRuntimeBuilder builder, Function<Setting<?>, String> textOf,
      Function<String, String> nameOf) {
    apply(builder, textOf, (key, e) -> new IllegalArgumentException(nameOf.apply(key) + ": " + e.getMessage(), e));
  }

  /**
   * Applies a door's values, typed or text: each option whose value {@code valueOf} gives (null when
   * unset) is set on {@code builder}, an option of a group in the group the builder holds (so that
   * the options a door does not give keep their values), the retry options together as one
   * {@link RetryPolicy} over the builder's current one.
   *
   * @param refused turns a complaint about an option (by key, or {@link #RETRY}) into the door's own
   */
  public static void apply(WebhookRuntimeBuilder builder, Function<Setting<?>, ?> valueOf,
      BiFunction<String, IllegalArgumentException, ? extends RuntimeException> refused) {
    RetryPolicy.Builder retry = null;
    for (Setting<?> s : ALL) {
      Object value = valueOf.apply(s);
      if (value == null) {
        continue;
      }
      if (s.isRetry() && retry == null) {
        retry = over(RuntimeInternals.settings(builder).retryPolicy());
      }
      try {
        s.apply(builder, retry, value);
      } catch (IllegalArgumentException e) {
        throw refused.apply(s.key(), e);
      }
    }
    if (retry != null) {
      RetryPolicy policy;
      try {
        policy = retry.build();
      } catch (IllegalArgumentException e) {
        throw refused.apply(RETRY, e);
      }
      builder.inbox(inbox -> inbox.retryPolicy(policy));
    }
  }

  /** The option values of {@code byKey} (a door's map of keys to text), each by its key. */
  public static Function<Setting<?>, String> textsOf(Map<String, String> byKey) {
    return s -> byKey.get(s.key());
  }

  private static RetryPolicy.Builder over(RetryPolicy p) {
    return RetryPolicy.builder().firstDelay(p.firstDelay()).factor(p.factor()).maxDelay(p.maxDelay())
        .maxAttempts(p.maxAttempts()).jitter(p.jitter());
  }
}
