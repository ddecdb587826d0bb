package dev.hookledger.runtime.admin;

import static java.util.Objects.requireNonNull;

import dev.hookledger.runtime.admin.RetrySelection.Group;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Which effects a bulk retry takes ({@link OutboxAdmin#retry(EffectSelection, long)}), as
 * {@link RetrySelection} says for events: the {@link Group#FAILING failing} ones (pending after a
 * failed attempt, not due yet), made due now; or the {@link Group#DEAD dead} ones, set back to
 * pending with a full budget; narrowed by destination and root cause. Immutable.
 *
 * <pre>{@code
 * EffectSelection s = EffectSelection.dead().destination("receipts");
 * long n = admin.outbox().retryCount(s);   // shown to the operator, who confirms it
 * admin.outbox().retry(s, n);              // refused, changing nothing, if the set is no longer n effects
 * }</pre>
 */
public final class EffectSelection {
  private final Group group;
  private final String destination;
  private final String cause;

  private EffectSelection(Group group, String destination, String cause) {
    this.group = group;
    this.destination = destination;
    this.cause = cause;
  }

  /** Every failing effect backing off. */
  public static EffectSelection failing() {
    return of(Group.FAILING);
  }

  /** Every dead effect. */
  public static EffectSelection dead() {
    return of(Group.DEAD);
  }

  /** Every effect of {@code group}. */
  public static EffectSelection of(Group group) {
    return new EffectSelection(requireNonNull(group, "group"), null, null);
  }

  /** Only effects to this destination; null for any. */
  public EffectSelection destination(String destination) {
    return new EffectSelection(group, EventQuery.Builder.blankToNull(destination, "destination"), cause);
  }

  /** Only effects whose root cause is exactly this line, as {@link EffectSummary#cause()} shows it; null for any. */
  public EffectSelection cause(String cause) {
    return new EffectSelection(group, destination, EventQuery.Builder.blankToNull(cause, "cause"));
  }

  public Group group() {
    return group;
  }

  public Optional<String> destination() {
    return Optional.ofNullable(destination);
  }

  public Optional<String> cause() {
    return Optional.ofNullable(cause);
  }

  /** {@code dead effects of destination receipts, cause 'X: y'}: for messages. */
  @Override
  public String toString() {
    List<String> narrowed = new ArrayList<>();
    destination().ifPresent(d -> narrowed.add("destination " + d));
    cause().ifPresent(c -> narrowed.add("cause '" + c + "'"));
    return group.text() + " effects" + (narrowed.isEmpty() ? "" : " of " + String.join(", ", narrowed));
  }
}
