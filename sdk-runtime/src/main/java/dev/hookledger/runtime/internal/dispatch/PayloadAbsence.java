package dev.hookledger.runtime.internal.dispatch;

import java.util.Optional;

/**
 * What a payload parameter receives when its pointer finds nothing: an {@code Optional} parameter
 * {@link Optional#empty()}, a {@code @Nullable} (or leniently mapped) one {@code null}, any other a
 * {@link BindingFailure} naming the pointer; and when it finds JSON {@code null}, {@code null} unless
 * the parameter is a primitive. Immutable.
 */
public final class PayloadAbsence {
  private final boolean optional;
  private final boolean nullable;
  private final String pointer;
  private final String hint;
  private final String primitive;

  /** @param primitive the parameter's primitive type name, or {@code null} for a reference type */
  PayloadAbsence(boolean optional, boolean nullable, String pointer, String hint, String primitive) {
    this.optional = optional;
    this.nullable = nullable;
    this.pointer = pointer;
    this.hint = hint;
    this.primitive = primitive;
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

  /**
   * The value for a payload part present as JSON {@code null}: {@code null} (or an empty
   * {@code Optional}) for a reference type, as Jackson maps it; a failure for a primitive, which
   * cannot be null ({@code FAIL_ON_NULL_FOR_PRIMITIVES}).
   */
  public Object presentNull() {
    if (primitive != null) {
      throw new BindingFailure("the payload has null at " + (pointer.isEmpty() ? "the root" : pointer) + ", but a "
          + primitive + " cannot be null (make it " + ParameterSpec.boxed(primitive) + " if the payload may say null)");
    }
    return wrap(null);
  }

  /** The value as the parameter takes it: wrapped in an {@code Optional} when it is one. */
  public Object wrap(Object value) {
    return optional ? Optional.ofNullable(value) : value;
  }
}
