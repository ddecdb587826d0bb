package org.slf4j;

import org.slf4j.helpers.BasicMDCAdapter;

/**
 * The tests' slf4j binding, slf4j-simple, keeps no MDC (its adapter is a no-op): tests of what the
 * runtime puts in the MDC install slf4j's plain thread-local adapter, as logback and log4j keep one. In
 * slf4j's package for its package-private {@code MDC.setMDCAdapter}.
 */
public final class TestMdc {
  private TestMdc() {}

  /** Makes {@link MDC} keep its values for the rest of this JVM. Idempotent. */
  public static synchronized void keep() {
    if (!(MDC.getMDCAdapter() instanceof BasicMDCAdapter)) {
      MDC.setMDCAdapter(new BasicMDCAdapter());
    }
  }
}
