package dev.hookledger.runtime.admin;

import jakarta.servlet.http.HttpServletRequest;
import java.util.List;

/**
 * Decides whether a request may use the {@link dev.hookledger.runtime.admin.web.AdminServlet}.
 * The servlet refuses every request until one is configured, so that the admin surface (which
 * shows last errors, which can quote customer data, and can retry every dead event) is never open
 * by accident.
 *
 * <pre>{@code
 * new AdminServlet(runtime, AdminAuthorizer.bearerToken(System.getenv("HOOKLEDGER_ADMIN_TOKEN")));
 * new AdminServlet(runtime, AdminAuthorizer.trustContainerSecurity());   // the path is protected already
 * new AdminServlet(runtime, request -> request.isUserInRole("ops"));      // your own rule
 * }</pre>
 *
 * <p>Implementations must be thread-safe; they are called on every request, before anything is read.
 */
@FunctionalInterface
public interface AdminAuthorizer {
  /** Whether {@code request} may see the admin pages and retry events. */
  boolean permits(HttpServletRequest request);

  /**
   * The {@code WWW-Authenticate} challenges a refused request is answered with (401); none by
   * default.
   */
  default List<String> challenges() {
    return List.of();
  }

  /**
   * Permits a request that carries {@code token} as {@code Authorization: Bearer <token>}, or as the
   * password of HTTP Basic authentication (any user name), so that a browser can open the page: it
   * asks for the password once and sends it with the page's own requests. Compared in constant time.
   *
   * @throws IllegalArgumentException if the token is shorter than 16 characters, an unresolved
   *     {@code ${...}} placeholder or a value published as an example (never showing it)
   */
  static AdminAuthorizer bearerToken(String token) {
    return new BearerTokenAuthorizer(token);
  }

  /**
   * Permits every request that reaches the servlet: for applications that already protect its
   * path (a container security constraint, Spring Security, an authenticating proxy). Only use it
   * where nothing unauthenticated can reach the mapping.
   */
  static AdminAuthorizer trustContainerSecurity() {
    return request -> true;
  }
}
