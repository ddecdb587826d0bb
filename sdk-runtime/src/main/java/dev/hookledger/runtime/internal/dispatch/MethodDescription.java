package dev.hookledger.runtime.internal.dispatch;

import java.lang.reflect.Method;
import java.util.StringJoiner;

/** How registration errors and logs name a handler method: {@code void com.acme.Billing.paid(Invoice, Foo)}. */
final class MethodDescription {
  private MethodDescription() {}

  static String of(Method m) {
    StringJoiner params = new StringJoiner(", ", "(", ")");
    for (Class<?> p : m.getParameterTypes()) {
      params.add(p.getSimpleName());
    }
    return m.getReturnType().getSimpleName() + " " + m.getDeclaringClass().getName() + "." + m.getName() + params;
  }
}
