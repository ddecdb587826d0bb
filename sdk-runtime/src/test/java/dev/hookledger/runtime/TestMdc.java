package dev.hookledger.runtime;

import java.lang.reflect.Method;
import org.slf4j.MDC;
import org.slf4j.helpers.BasicMDCAdapter;
import org.slf4j.spi.MDCAdapter;

/**
 * The tests' slf4j binding, slf4j-simple, keeps no MDC (its adapter is a no-op): tests of what the
 * runtime puts in the MDC install slf4j's plain thread-local adapter, as logback and log4j keep one,
 * through slf4j's package-private {@code MDC.setMDCAdapter} (the tests run on the class path; a class
 * of slf4j's package here would split that package from the org.slf4j module when the runtime's tests
 * compile against its module descriptor).
 */
final class TestMdc {
  private TestMdc() {}

  /** Makes {@link MDC} keep its values for the rest of this JVM. Idempotent. */
  static synchronized void keep() {
    if (!(MDC.getMDCAdapter() instanceof BasicMDCAdapter)) {
      try {
        Method set = MDC.class.getDeclaredMethod("setMDCAdapter", MDCAdapter.class);
        set.setAccessible(true);
        set.invoke(null, new BasicMDCAdapter());
      } catch (ReflectiveOperationException e) {
        throw new IllegalStateException("slf4j's MDC.setMDCAdapter is not what this slf4j version was", e);
      }
    }
  }
}
