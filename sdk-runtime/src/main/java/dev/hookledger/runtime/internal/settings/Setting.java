package dev.hookledger.runtime.internal.settings;

import dev.hookledger.runtime.Deadlines;
import dev.hookledger.runtime.Inbox;
import dev.hookledger.runtime.OutboxSenders;
import dev.hookledger.runtime.Receive;
import dev.hookledger.runtime.RetryPolicy;
import dev.hookledger.runtime.WebhookRuntimeBuilder;
import dev.hookledger.runtime.internal.CamelCase;
import java.util.Locale;
import java.util.function.BiConsumer;
import java.util.function.Function;

/**
 * One option of a runtime, as every front door names it: its key ({@code workers},
 * {@code retry.max-attempts}) is the web.xml init-param; {@code hookledger.} and the key (or the
 * property named apart) is the Spring property; the property upper-cased with {@code _} for every
 * other character is the environment variable (what Spring's relaxed binding reads too); {@code --}
 * and the key with {@code -} for {@code .} is the command line option. Its default is what the
 * builder holds, read back through {@link #read}: never a second copy. It belongs to one
 * {@link Group}, the builder call that sets it: the builder itself or one of its groups, where a
 * door changes that one option of the group the builder holds.
 *
 * @param <T> the value's type, as the builder takes it
 */
public final class Setting<T> {
  private final String key;
  private final String property;
  private final String builderCall;
  private final Kind<T> kind;
  private final Group group;
  private final BiConsumer<WebhookRuntimeBuilder, T> onBuilder;
  private final BiConsumer<RetryPolicy.Builder, T> onRetry;
  private final Function<RuntimeSettings, T> read;
  private final boolean ownPoolOnly;
  private final String example;

  private Setting(String key, String property, String builderCall, Kind<T> kind, Group group,
      BiConsumer<WebhookRuntimeBuilder, T> onBuilder, BiConsumer<RetryPolicy.Builder, T> onRetry,
      Function<RuntimeSettings, T> read, boolean ownPoolOnly, String example) {
    this.key = key;
    this.property = property;
    this.builderCall = builderCall;
    this.kind = kind;
    this.group = group;
    this.onBuilder = onBuilder;
    this.onRetry = onRetry;
    this.read = read;
    this.ownPoolOnly = ownPoolOnly;
    this.example = example;
  }

  /** The builder call an option belongs to: the builder's own, or one of its groups'. */
  enum Group {
    BUILDER("", "", ""),
    INBOX("inbox(i -> i.", "", ")"),
    RETRY("inbox(i -> i.retryPolicy(RetryPolicy.builder().", "retry.", "))"),
    DEADLINES("deadlines(d -> d.", "", ")"),
    RECEIVE("receive(r -> r.", "receive-", ")"),
    OUTBOX("outbox(o -> o.", "outbox-", ")");

    private final String call;
    private final String keyPrefix;
    private final String closing;

    Group(String call, String keyPrefix, String closing) {
      this.call = call;
      this.keyPrefix = keyPrefix;
      this.closing = closing;
    }

    /** The call of its option with this key, e.g. {@code receive(r -> r.queueCapacity(int))}. */
    String call(String key, Kind<?> kind) {
      String member = key.startsWith(keyPrefix) ? key.substring(keyPrefix.length()) : key;
      return call + camel(member) + "(" + kind.javaName() + ")" + closing;
    }
  }

  /** An option set by one builder method. */
  static <T> Setting<T> of(String key, Kind<T> kind, BiConsumer<WebhookRuntimeBuilder, T> onBuilder,
      Function<RuntimeSettings, T> read, String example) {
    return of(key, kind, Group.BUILDER, onBuilder, null, read, example);
  }

  /** An option of the {@link Inbox} group, changed in the group the builder holds. */
  static <T> Setting<T> inbox(String key, Kind<T> kind, BiConsumer<Inbox.Builder, T> onGroup,
      Function<RuntimeSettings, T> read, String example) {
    return of(key, kind, Group.INBOX, (b, v) -> b.inbox(g -> onGroup.accept(g, v)), null, read, example);
  }

  /**
   * An option of the {@link RetryPolicy}, in the inbox group: the door's retry options are built into
   * one policy, over the builder's, so that their rule ({@code maxDelay >= firstDelay}) holds.
   */
  static <T> Setting<T> retry(String key, Kind<T> kind, BiConsumer<RetryPolicy.Builder, T> onRetry,
      Function<RetryPolicy, T> read, String example) {
    return of(key, kind, Group.RETRY, null, onRetry, s -> read.apply(s.retryPolicy()), example);
  }

  /** An option of the {@link Deadlines} group, changed in the group the builder holds. */
  static <T> Setting<T> deadline(String key, Kind<T> kind, BiConsumer<Deadlines.Builder, T> onGroup,
      Function<RuntimeSettings, T> read, String example) {
    return of(key, kind, Group.DEADLINES, (b, v) -> b.deadlines(g -> onGroup.accept(g, v)), null, read, example);
  }

  /** An option of the {@link Receive} group, changed in the group the builder holds. */
  static <T> Setting<T> receive(String key, Kind<T> kind, BiConsumer<Receive.Builder, T> onGroup,
      Function<RuntimeSettings, T> read, String example) {
    return of(key, kind, Group.RECEIVE, (b, v) -> b.receive(g -> onGroup.accept(g, v)), null, read, example);
  }

  /** An option of the {@link OutboxSenders} group, changed in the group the builder holds. */
  static <T> Setting<T> outbox(String key, Kind<T> kind, BiConsumer<OutboxSenders.Builder, T> onGroup,
      Function<RuntimeSettings, T> read, String example) {
    return of(key, kind, Group.OUTBOX, (b, v) -> b.outbox(g -> onGroup.accept(g, v)), null, read, example);
  }

  private static <T> Setting<T> of(String key, Kind<T> kind, Group group,
      BiConsumer<WebhookRuntimeBuilder, T> onBuilder, BiConsumer<RetryPolicy.Builder, T> onRetry,
      Function<RuntimeSettings, T> read, String example) {
    return new Setting<>(key, "hookledger." + key, group.call(key, kind), kind, group, onBuilder, onRetry, read, false,
        example);
  }

  /** The same option under another Spring property name (one that says its unit the Spring way). */
  Setting<T> property(String name) {
    return new Setting<>(key, name, builderCall, kind, group, onBuilder, onRetry, read, ownPoolOnly, example);
  }

  /** An option of the pool the runtime builds from a JDBC URL: a door that gives its own pool has no use for it. */
  Setting<T> ownPoolOnly() {
    return new Setting<>(key, property, builderCall, kind, group, onBuilder, onRetry, read, true, example);
  }

  /** The web.xml init-param, e.g. {@code retry.max-attempts}. */
  public String key() {
    return key;
  }

  /** The Spring property, e.g. {@code hookledger.retry.max-attempts}. */
  public String property() {
    return property;
  }

  /** The environment variable, e.g. {@code HOOKLEDGER_RETRY_MAX_ATTEMPTS}. */
  public String environmentVariable() {
    return property.toUpperCase(Locale.ROOT).replaceAll("[^A-Z0-9]", "_");
  }

  /** The command line option, e.g. {@code --retry-max-attempts}. */
  public String option() {
    return "--" + key.replace('.', '-');
  }

  /** The builder call it stands for, e.g. {@code workers(int)}. */
  public String builderCall() {
    return builderCall;
  }

  /** What values it takes. */
  public Kind<T> kind() {
    return kind;
  }

  /** Whether it applies only to the pool the runtime builds from a JDBC URL. */
  public boolean isOwnPoolOnly() {
    return ownPoolOnly;
  }

  /** Whether it is an option of the retry policy. */
  public boolean isRetry() {
    return group == Group.RETRY;
  }

  /** A valid value other than the default, as text (tests and the documentation use it). */
  public String example() {
    return example;
  }

  /** Its value in {@code settings}. */
  public T read(RuntimeSettings settings) {
    return read.apply(settings);
  }

  /** Its value as text in the one grammar. */
  public String format(RuntimeSettings settings) {
    return kind.format(read(settings));
  }

  /** The value of {@code text}, by {@link SettingText}. */
  public T parse(String text) {
    return kind.parse(text);
  }

  /** Applies a value of this option's type (a door's typed value, or what {@link #parse} made of text). */
  void apply(WebhookRuntimeBuilder builder, RetryPolicy.Builder retry, Object value) {
    T v = kind.cast(value);
    if (onRetry != null) {
      onRetry.accept(retry, v);
    } else {
      onBuilder.accept(builder, v);
    }
  }

  @Override
  public String toString() {
    return key;
  }

  private static String camel(String kebab) {
    return CamelCase.of(kebab, "-.");
  }

}
