package dev.hookledger.runtime.internal.dispatch;

import java.util.Optional;

/**
 * What a payload parameter receives when its pointer finds nothing (or JSON {@code null}): an
 * {@code Optional} parameter {@link Optional#empty()}, a {@code @Nullable} (or leniently mapped) one
 * {@code null}, any other a {@link BindingFailure} naming the pointer. Immutable.
 */
public final class PayloadAbsence {
  private final boolean optional;
  private final boolean nullable;
  private final String pointer;
  private final String hint;

  PayloadAbsence(boolean optional, boolean nullable, String pointer, String hint) {
    this.optional = optional;
    this.nullable = nullable;
    this.pointer = pointer;
    this.hint = hint;
  }

  /** The value for an absent payload part, or the failure. */
  public Object absent() {
    if (optional) {
      return Optional.empty();
    }
    if (nullable) {
      return null;
    }
    throw new BindingFailure("nothing is at " + (pointer.isEmpty() ? "the root" : pointer) + " in the payload" + hint);
  }

  /** The value as the parameter takes it: wrapped in an {@code Optional} when it is one. */
  public Object wrap(Object value) {
    return optional ? Optional.ofNullable(value) : value;
  }
}
