package dev.hookledger.runtime.internal.dispatch.stripejava;


/**
 * Recognises stripe-java's model types by name, so that nothing of stripe-java is loaded unless a
 * handler declares one of them (stripe-java is an optional dependency).
 */
final class StripeTypes {
  static final String STRIPE_OBJECT = "com.stripe.model.StripeObject";
  static final String EVENT = "com.stripe.model.Event";

  private StripeTypes() {}

  /** Whether {@code type} is {@code com.stripe.model.StripeObject} or a subclass. */
  static boolean isStripe(Class<?> type) {
    for (Class<?> c = type; c != null; c = c.getSuperclass()) {
      if (c.getName().equals(STRIPE_OBJECT)) {
        return true;
      }
    }
    return false;
  }
}
