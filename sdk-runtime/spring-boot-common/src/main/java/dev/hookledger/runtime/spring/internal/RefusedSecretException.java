package dev.hookledger.runtime.spring.internal;

/**
 * A {@code hookledger.providers.<id>.secret} that is unset, blank, an unresolved placeholder, a
 * published example or too short: the start fails, and {@link HookledgerFailureAnalyzer} says which
 * property to set. Never holds the value.
 */
public final class RefusedSecretException extends IllegalStateException {
  private static final long serialVersionUID = 1L;
  private final String property;

  RefusedSecretException(String property, String message) {
    super(message);
    this.property = property;
  }

  /** The property at fault, e.g. {@code hookledger.providers.stripe.secret}. */
  public String property() {
    return property;
  }
}
