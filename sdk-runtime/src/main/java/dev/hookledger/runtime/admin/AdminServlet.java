package dev.hookledger.runtime.admin;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.hookledger.LedgerUnavailableException;
import dev.hookledger.internal.Json;
import dev.hookledger.runtime.EventStatus;
import dev.hookledger.runtime.Health;
import dev.hookledger.runtime.WebhookRuntime;
import dev.hookledger.runtime.internal.admin.HealthJson;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An optional admin page over an {@link InboxAdmin}: counts per provider and status, the oldest
 * waiting event's age, and the dead events with their errors, each with a retry button, plus
 * "retry all dead". Nothing is exposed unless the application registers it, and nothing is
 * answered unless an {@link AdminAuthorizer} permits the request:
 *
 * <pre>{@code
 * AdminAuthorizer auth = AdminAuthorizer.bearerToken(System.getenv("HOOKLEDGER_ADMIN_TOKEN"));
 * context.addServlet(new ServletHolder(new AdminServlet(runtime, auth)), "/admin/*");
 * }</pre>
 *
 * <p>Every route, the HTML page included, asks the authorizer first: a request it refuses is
 * answered 401 (with its {@code WWW-Authenticate} challenges) and reads nothing. A servlet built
 * without an authorizer ({@link #AdminServlet(InboxAdmin)}) is closed: it answers every request 403.
 *
 * <p>Routes, relative to the mapping: {@code GET /} the HTML page (or, with
 * {@code Accept: application/json}, the status and dead list as JSON, plus the runtime's
 * {@link dev.hookledger.runtime.Health} when built over a runtime); {@code GET /status.json};
 * {@code GET /dead.json}; {@code GET /health.json}; {@code POST /retry} with form parameters
 * {@code provider}, {@code scope} (empty if none) and {@code eventId}; {@code POST /retry-dead}.
 * Retries are POST only and need the header {@value #GUARD_HEADER}{@code : 1}, else 403: a browser
 * does not let another site add a custom header to a cross-origin request without a CORS preflight,
 * which this servlet never approves, so a forged form post cannot retry anything. The page's
 * buttons send the header from a script allowed by a per-response Content-Security-Policy nonce;
 * scripts send it with {@code curl -H 'X-Hookledger-Admin: 1'}. A refused retry answers 409 with the
 * reason, a database failure 503. Thread-safe.
 */
public class AdminServlet extends HttpServlet {
  private static final long serialVersionUID = 1L;
  private static final Logger log = LoggerFactory.getLogger(AdminServlet.class);

  /** The header a retry must carry, with value {@code 1}. */
  public static final String GUARD_HEADER = "X-Hookledger-Admin";

  /** Dead events listed on the page and in {@code dead.json}. */
  static final int DEAD_SHOWN = 100;

  private static final SecureRandom RANDOM = new SecureRandom();
  static final String CLOSED = "the admin servlet is closed: it was built without an AdminAuthorizer";
  static final String UNAUTHORIZED = "unauthorized: the admin pages need valid credentials";

  private final transient InboxAdmin admin;
  private final transient AdminAuthorizer authorizer;
  private final transient Supplier<Health> health;

  /**
   * A closed admin page over {@code admin}: with no authorizer, every request is answered 403.
   * Use {@link #AdminServlet(InboxAdmin, AdminAuthorizer)}.
   */
  public AdminServlet(InboxAdmin admin) {
    this.admin = requireNonNull(admin, "admin");
    this.authorizer = null;
    this.health = null;
    log.warn("AdminServlet has no AdminAuthorizer: it refuses every request (403)");
  }

  /** An admin page over {@code admin}, answering only the requests {@code authorizer} permits. */
  public AdminServlet(InboxAdmin admin, AdminAuthorizer authorizer) {
    this.admin = requireNonNull(admin, "admin");
    this.authorizer = requireNonNull(authorizer, "authorizer");
    this.health = null;
  }

  /**
   * An admin page over {@code runtime}'s ledger ({@link WebhookRuntime#admin()}) that also shows its
   * {@link WebhookRuntime#health()}, answering only the requests {@code authorizer} permits.
   */
  public AdminServlet(WebhookRuntime runtime, AdminAuthorizer authorizer) {
    requireNonNull(runtime, "runtime");
    this.admin = runtime.admin();
    this.authorizer = requireNonNull(authorizer, "authorizer");
    this.health = runtime::health;
  }

  /** Checks the authorizer before any route: the page, the JSON and the retries alike. */
  @Override
  protected void service(HttpServletRequest req, HttpServletResponse resp) throws ServletException, IOException {
    secureHeaders(resp);
    if (authorizer == null) {
      json(resp, 403, error(CLOSED));
      return;
    }
    if (!authorizer.permits(req)) {
      authorizer.challenges().forEach(c -> resp.addHeader("WWW-Authenticate", c));
      json(resp, 401, error(UNAUTHORIZED));
      return;
    }
    super.service(req, resp);
  }

  @Override
  protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
    try {
      switch (route(req)) {
        case "/status.json" -> json(resp, 200, AdminJson.status(admin.status()));
        case "/dead.json" -> json(resp, 200, AdminJson.page(deadPage()));
        case "/health.json" -> {
          if (health == null) {
            json(resp, 404, error("no health here: this admin servlet was built over an InboxAdmin, not a runtime"));
          } else {
            json(resp, 200, HealthJson.of(health.get()));
          }
        }
        case "/" -> page(req, resp);
        case "/retry", "/retry-dead" -> {
          resp.setHeader("Allow", "POST");
          json(resp, 405, error("retries are POST only"));
        }
        default -> json(resp, 404, error("no such admin page: " + route(req)));
      }
    } catch (LedgerUnavailableException e) {
      log.warn("admin page: {}", e.getMessage());
      json(resp, 503, error(e.getMessage()));
    }
  }

  @Override
  protected void doPost(HttpServletRequest req, HttpServletResponse resp) throws IOException {
    if (!"1".equals(req.getHeader(GUARD_HEADER))) {
      json(resp, 403, error("a retry needs the header " + GUARD_HEADER + ": 1 (cross-site request guard)"));
      return;
    }
    try {
      switch (route(req)) {
        case "/retry" -> retryOne(req, resp);
        case "/retry-dead" -> json(resp, 200, JsonNodeFactory.instance.objectNode().put("retried", admin.retryDead()));
        default -> json(resp, 404, error("no such admin action: " + route(req)));
      }
    } catch (OperationRefusedException e) {
      json(resp, 409, error(e.getMessage()));
    } catch (LedgerUnavailableException e) {
      log.warn("admin retry: {}", e.getMessage());
      json(resp, 503, error(e.getMessage()));
    }
  }

  private void retryOne(HttpServletRequest req, HttpServletResponse resp) throws IOException {
    String provider = req.getParameter("provider");
    String eventId = req.getParameter("eventId");
    String scope = req.getParameter("scope") == null ? "" : req.getParameter("scope");
    if (provider == null || provider.isEmpty() || eventId == null || eventId.isEmpty()) {
      json(resp, 400, error("a retry needs the parameters provider and eventId (and scope, where the event has one)"));
      return;
    }
    admin.retry(provider, scope, eventId);
    json(resp, 200, JsonNodeFactory.instance.objectNode().put("retried", 1));
  }

  private void page(HttpServletRequest req, HttpServletResponse resp) throws IOException {
    InboxStatus status = admin.status();
    EventPage dead = deadPage();
    String accept = req.getHeader("Accept");
    if (accept != null && accept.contains("application/json") && !accept.contains("text/html")) {
      ObjectNode o = JsonNodeFactory.instance.objectNode();
      o.set("status", AdminJson.status(status));
      o.set("dead", AdminJson.page(dead));
      if (health != null) {
        o.set("health", HealthJson.of(health.get()));
      }
      json(resp, 200, o);
      return;
    }
    byte[] nonceBytes = new byte[16];
    RANDOM.nextBytes(nonceBytes);
    String nonce = Base64.getEncoder().encodeToString(nonceBytes);
    resp.setHeader("Content-Security-Policy", "default-src 'none'; script-src 'nonce-" + nonce
        + "'; style-src 'nonce-" + nonce + "'; connect-src 'self'; form-action 'self'; frame-ancestors 'none'");
    String base = req.getContextPath() + req.getServletPath();
    byte[] html = AdminPage.render(status, dead.events(), dead.nextCursor().isPresent(), base, GUARD_HEADER, nonce)
        .getBytes(StandardCharsets.UTF_8);
    resp.setStatus(200);
    resp.setContentType("text/html;charset=utf-8");
    resp.setContentLength(html.length);
    resp.getOutputStream().write(html);
  }

  private EventPage deadPage() {
    return admin.list(EventQuery.builder().status(EventStatus.DEAD).limit(DEAD_SHOWN).build());
  }

  private static String route(HttpServletRequest req) {
    String path = req.getPathInfo();
    return path == null || path.isEmpty() ? "/" : path;
  }

  private static void secureHeaders(HttpServletResponse resp) {
    resp.setHeader("Cache-Control", "no-store");
    resp.setHeader("X-Content-Type-Options", "nosniff");
    resp.setHeader("X-Frame-Options", "DENY");
  }

  private static ObjectNode error(String message) {
    return JsonNodeFactory.instance.objectNode().put("error", message);
  }

  private static void json(HttpServletResponse resp, int status, JsonNode body) throws IOException {
    byte[] bytes = Json.MAPPER.writeValueAsBytes(body);
    resp.setStatus(status);
    resp.setContentType("application/json");
    resp.setContentLength(bytes.length);
    resp.getOutputStream().write(bytes);
  }
}
