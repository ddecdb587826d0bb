package dev.hookledger.runtime.admin;

import static java.util.Objects.requireNonNull;

import dev.hookledger.runtime.Health;
import dev.hookledger.runtime.WebhookRuntime;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.function.Supplier;

/**
 * A health check for a load balancer: {@code 200 up} when {@link Health#up()}, else
 * {@code 503 down}, and nothing more. It tells no detail (counts, errors, thread names), so it needs
 * no authentication and can sit on a public path; the details are in {@link WebhookRuntime#health()}
 * and the {@link AdminServlet}'s {@code health.json}.
 *
 * <pre>{@code
 * context.addServlet(new ServletHolder(new HealthServlet(runtime)), "/healthz");
 * }</pre>
 *
 * <p>Answers {@code GET} and {@code HEAD}. Each request asks the runtime, which reads the ledger once
 * (bounded by the connection deadlines). Thread-safe.
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
    boolean up = health.get().up();
    byte[] body = (up ? "up\n" : "down\n").getBytes(StandardCharsets.US_ASCII);
    resp.setStatus(up ? 200 : 503);
    resp.setHeader("Cache-Control", "no-store");
    resp.setContentType("text/plain;charset=utf-8");
    resp.setContentLength(body.length);
    resp.getOutputStream().write(body);
  }
}
