package dev.hookledger.runtime.internal.servlet;

import dev.hookledger.HttpHeaders;
import dev.hookledger.InboundDelivery;
import jakarta.servlet.http.HttpServletRequest;
import java.util.Enumeration;

/** Builds an {@link InboundDelivery} from a servlet request and the body read from it. */
public final class Deliveries {
  private Deliveries() {}

  /** The path within the application: the request URI without the context path, still encoded. */
  public static String pathOf(HttpServletRequest request) {
    String uri = request.getRequestURI();
    String context = request.getContextPath();
    return context != null && !context.isEmpty() && uri.startsWith(context) ? uri.substring(context.length()) : uri;
  }

  /** The request before its body is read: method, path and headers, with an empty body. */
  public static InboundDelivery headersOf(HttpServletRequest request, String path) {
    return of(request, path, new byte[0]);
  }

  /** {@code headersOnly} (from {@link #headersOf}) with the body read since. */
  public static InboundDelivery withBody(InboundDelivery headersOnly, byte[] body) {
    return InboundDelivery.of(headersOnly.method(), headersOnly.path(), headersOnly.headers(), body)
        .withProviderPath(headersOnly.providerPath());
  }

  public static InboundDelivery of(HttpServletRequest request, String path, byte[] body) {
    HttpHeaders.Builder headers = HttpHeaders.builder();
    Enumeration<String> names = request.getHeaderNames();
    while (names.hasMoreElements()) {
      String name = names.nextElement();
      Enumeration<String> values = request.getHeaders(name);
      while (values.hasMoreElements()) {
        headers.add(name, values.nextElement());
      }
    }
    return InboundDelivery.of(request.getMethod(), path, headers.build(), body);
  }
}
