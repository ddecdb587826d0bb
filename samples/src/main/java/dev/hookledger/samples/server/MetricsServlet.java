package dev.hookledger.samples.server;

import static java.util.Objects.requireNonNull;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * {@code GET /metrics}: the runtime's meters and the ledger's backlog gauges in Prometheus's text
 * format, for a Prometheus scrape. Holds no secret and no event data: counts, timers and gauges by
 * provider.
 */
final class MetricsServlet extends HttpServlet {
  private static final long serialVersionUID = 1L;
  private final transient PrometheusMeterRegistry registry;

  MetricsServlet(PrometheusMeterRegistry registry) {
    this.registry = requireNonNull(registry, "registry");
  }

  @Override
  protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
    byte[] body = registry.scrape().getBytes(StandardCharsets.UTF_8);
    response.setContentType("text/plain; version=0.0.4; charset=utf-8");
    response.setContentLength(body.length);
    response.getOutputStream().write(body);
  }
}
