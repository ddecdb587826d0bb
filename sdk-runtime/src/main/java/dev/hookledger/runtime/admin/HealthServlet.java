package dev.hookledger.runtime.admin;

import static java.util.Objects.requireNonNull;

import dev.hookledger.runtime.Health;
import dev.hookledger.runtime.WebhookRuntime;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.function.Supplier;

/**
 * A health check for a load balancer: {@code 200 up}; {@code 200 degraded: events stuck} (or
 * {@code workers not running}, {@code effects dead}, {@code breaker open}) when the node receives but
 * events are not processed, or the outbox's effects not sent, as they should be, so that it stays in the pool while an alert fires; {@code 503 down: database unreachable} (or
 * {@code not running}) when it cannot receive. It answers within the runtime's read deadline (2 s)
 * whatever the database does, and tells the kind of problem only (no counts, errors, thread names),
 * so it needs no authentication and can sit on a public path; the details are in
 * {@link WebhookRuntime#health()} and the admin page's {@code health.json}
 * ({@link dev.hookledger.runtime.admin.web.AdminServlet}).
 *
 * <pre>{@code
 * context.addServlet(new ServletHolder(new HealthServlet(runtime)), "/healthz");
 * }</pre>
 *
 * <p>Answers {@code GET} and {@code HEAD}. Each request asks the runtime, which reads the ledger once
 * (bounded by the read deadline). Thread-safe.
 */
public class HealthServlet extends HttpServlet {
  private static final long serialVersionUID = 1L;

  private final transient Supplier<Health> health;

  /** A health check of {@code runtime}. */
  public HealthServlet(WebhookRuntime runtime) {
    requireNonNull(runtime, "runtime");
    this.health = runtime::health;
  }

  @Override
  protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
    Health h = health.get();
    Health.Status status = h.status();
    String word = status.name().toLowerCase(Locale.ROOT);
    byte[] body = (h.summary().map(s -> word + ": " + s).orElse(word) + "\n").getBytes(StandardCharsets.US_ASCII);
    resp.setStatus(status == Health.Status.DOWN ? 503 : 200);
    resp.setHeader("Cache-Control", "no-store");
    resp.setContentType("text/plain;charset=utf-8");
    resp.setContentLength(body.length);
    resp.getOutputStream().write(body);
  }
}
