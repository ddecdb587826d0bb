package dev.hookledger.runtime.internal.servlet;

import jakarta.servlet.ServletContext;

/**
 * The container's bounds on a form body, which a replayed request keeps when it parses a form
 * itself: the most bytes and the most keys. Read as Jetty names them, from the context's
 * init-parameter or attribute, then the system property
 * ({@code org.eclipse.jetty.server.Request.maxFormContentSize} and {@code ...maxFormKeys}), else
 * Jetty's defaults: 200,000 bytes and 1,000 keys. Immutable.
 *
 * @param maxContentSize the most bytes of a form body
 * @param maxKeys the most distinct keys in a form
 */
record FormLimits(int maxContentSize, int maxKeys) {
  static final String MAX_CONTENT_SIZE = "org.eclipse.jetty.server.Request.maxFormContentSize";
  static final String MAX_KEYS = "org.eclipse.jetty.server.Request.maxFormKeys";
  static final int DEFAULT_MAX_CONTENT_SIZE = 200_000;
  static final int DEFAULT_MAX_KEYS = 1_000;

  static FormLimits of(ServletContext context) {
    return new FormLimits(setting(context, MAX_CONTENT_SIZE, DEFAULT_MAX_CONTENT_SIZE),
        setting(context, MAX_KEYS, DEFAULT_MAX_KEYS));
  }

  IllegalStateException tooLarge() {
    return new IllegalStateException("Form is larger than max length " + maxContentSize);
  }

  IllegalStateException tooManyKeys() {
    return new IllegalStateException("Too many form keys > " + maxKeys);
  }

  private static int setting(ServletContext context, String name, int fallback) {
    Object value = context == null ? null : context.getAttribute(name);
    if (value == null && context != null) {
      value = context.getInitParameter(name);
    }
    if (value == null) {
      value = System.getProperty(name);
    }
    if (value == null) {
      return fallback;
    }
    try {
      int n = Integer.parseInt(value.toString().trim());
      // Jetty reads a negative limit as none; a replay still keeps a bound, the largest array
      return n < 0 ? Integer.MAX_VALUE - 8 : n;
    } catch (NumberFormatException e) {
      return fallback;
    }
  }
}
