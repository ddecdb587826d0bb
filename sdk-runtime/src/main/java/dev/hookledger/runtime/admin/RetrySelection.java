package dev.hookledger.runtime.admin;

import static java.util.Objects.requireNonNull;

import dev.hookledger.runtime.internal.dispatch.TypePattern;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Which events a bulk retry takes ({@link InboxAdmin#retry(RetrySelection, long)}): the failing
 * ones backing off (pending after a failed attempt, not due yet), made due now; or the dead ones,
 * set back to pending with a full budget; narrowed by provider, type (or pattern) and root cause.
 * Immutable; each narrowing returns a new selection.
 *
 * <pre>{@code
 * RetrySelection s = RetrySelection.failing().provider("stripe").cause("PSQLException: relation sample.balance does not exist");
 * long n = admin.retryCount(s);   // shown to the operator, who confirms it
 * admin.retry(s, n);              // refused, changing nothing, if the set is no longer n events
 * }</pre>
 */
public final class RetrySelection {
  /** Which events a selection starts from. */
  public enum Group {
    /** Pending after a failed attempt and not due yet: waiting out a backoff. Made due now, attempts kept. */
    FAILING,
    /** Out of attempts. Set back to pending, due now, with attempts reset to 0. */
    DEAD;

    /** The lower-case name, as the command line and the admin page write it. */
    public String text() {
      return name().toLowerCase(Locale.ROOT);
    }

    /**
     * The group a person wrote, in any case.
     *
     * @throws IllegalArgumentException naming the value and the groups there are
     */
    public static Group parse(String text) {
      requireNonNull(text, "group");
      for (Group g : values()) {
        if (g.name().equalsIgnoreCase(text.trim())) {
          return g;
        }
      }
      throw new IllegalArgumentException("a bulk retry takes failing or dead events, but was '" + text + "'");
    }
  }

  private final Group group;
  private final String provider;
  private final TypePattern type;
  private final String cause;

  private RetrySelection(Group group, String provider, TypePattern type, String cause) {
    this.group = group;
    this.provider = provider;
    this.type = type;
    this.cause = cause;
  }

  /** Every failing event backing off. */
  public static RetrySelection failing() {
    return of(Group.FAILING);
  }

  /** Every dead event. */
  public static RetrySelection dead() {
    return of(Group.DEAD);
  }

  /** Every event of {@code group}. */
  public static RetrySelection of(Group group) {
    return new RetrySelection(requireNonNull(group, "group"), null, null, null);
  }

  /** Only events of this provider id; null for any. */
  public RetrySelection provider(String provider) {
    return new RetrySelection(group, EventQuery.Builder.blankToNull(provider, "provider"), type, cause);
  }

  /**
   * Only events of this type, or matching this pattern as {@code @OnEvent} reads it ({@code invoice.*});
   * null for any.
   *
   * @throws IllegalArgumentException naming the pattern and the rule it breaks
   */
  public RetrySelection type(String type) {
    String t = EventQuery.Builder.blankToNull(type, "type");
    return new RetrySelection(group, provider, t == null ? null : TypePattern.parse(t), cause);
  }

  /**
   * Only events whose root cause is exactly this line, as {@link CauseCount#cause()} and
   * {@link EventSummary#rootCause()} show it; null for any.
   */
  public RetrySelection cause(String cause) {
    return new RetrySelection(group, provider, type, EventQuery.Builder.blankToNull(cause, "cause"));
  }

  public Group group() {
    return group;
  }

  public Optional<String> provider() {
    return Optional.ofNullable(provider);
  }

  /** The type or pattern, as given. */
  public Optional<String> type() {
    return Optional.ofNullable(type).map(TypePattern::toString);
  }

  public Optional<String> cause() {
    return Optional.ofNullable(cause);
  }

  TypePattern typePattern() {
    return type;
  }

  /** {@code failing events of provider stripe, type invoice.*, cause 'X: y'}: for messages. */
  @Override
  public String toString() {
    List<String> narrowed = new ArrayList<>();
    provider().ifPresent(p -> narrowed.add("provider " + p));
    type().ifPresent(t -> narrowed.add("type " + t));
    cause().ifPresent(c -> narrowed.add("cause '" + c + "'"));
    return group.text() + " events" + (narrowed.isEmpty() ? "" : " of " + String.join(", ", narrowed));
  }
}
