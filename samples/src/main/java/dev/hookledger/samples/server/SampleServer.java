package dev.hookledger.samples.server;

import static java.util.Objects.requireNonNull;

import dev.hookledger.runtime.WebhookFilter;
import dev.hookledger.runtime.WebhookRuntime;
import dev.hookledger.runtime.admin.AdminAuthorizer;
import dev.hookledger.runtime.admin.HealthServlet;
import dev.hookledger.runtime.admin.web.AdminServlet;
import dev.hookledger.samples.app.StateServlet;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import jakarta.servlet.DispatcherType;
import java.net.URI;
import java.time.Duration;
import java.util.EnumSet;
import javax.sql.DataSource;
import org.eclipse.jetty.ee10.servlet.FilterHolder;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.handler.GracefulHandler;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.jooq.SQLDialect;
import org.jooq.impl.DSL;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The sample application's HTTP server (embedded Jetty 12, ee10): the webhook filter on
 * {@code /webhooks/*}, the operations page on {@code /admin} (behind a bearer token), the load
 * balancer's health check on {@code /healthz}, and the business state on {@code /sample/state.json}.
 *
 * <p>{@link #close()} stops gracefully: no new connections, requests in flight are answered
 * (for up to {@link #STOP_TIMEOUT}), so that no provider sees its delivery cut off.
 */
public final class SampleServer implements AutoCloseable {
  /** How long a stop waits for requests in flight. */
  public static final Duration STOP_TIMEOUT = Duration.ofSeconds(10);

  private static final Logger LOG = LoggerFactory.getLogger(SampleServer.class);

  private final Server jetty;
  private final URI uri;

  private SampleServer(Server jetty, URI uri) {
    this.jetty = jetty;
    this.uri = uri;
  }

  /**
   * Starts serving {@code runtime} and the sample pages on {@code host:port} ({@code port} 0
   * picks a free one); {@code /admin} answers only requests carrying {@code adminToken};
   * {@code /metrics} is {@code metrics} in Prometheus's text format, for a scraper.
   */
  public static SampleServer start(String host, int port, WebhookRuntime runtime, String adminToken,
      DataSource dataSource, PrometheusMeterRegistry metrics) {
    requireNonNull(runtime, "runtime");
    if (port < 0 || port > 65535) {
      throw new IllegalArgumentException("port must be between 0 and 65535, but was " + port);
    }
    QueuedThreadPool threads = new QueuedThreadPool(64, 8);
    threads.setName("samples-http");
    Server jetty = new Server(threads);
    ServerConnector connector = new ServerConnector(jetty);
    connector.setHost(requireNonNull(host, "host"));
    connector.setPort(port);
    jetty.addConnector(connector);

    ServletContextHandler context = new ServletContextHandler();
    context.setContextPath("/");
    context.addFilter(new FilterHolder(new WebhookFilter(runtime)), "/webhooks/*",
        EnumSet.of(DispatcherType.REQUEST));
    context.addServlet(new ServletHolder(
        new AdminServlet(runtime, AdminAuthorizer.bearerToken(adminToken))), "/admin/*");
    context.addServlet(new ServletHolder(new HealthServlet(runtime)), "/healthz");
    context.addServlet(new ServletHolder(new MetricsServlet(metrics)), "/metrics");
    context.addServlet(new ServletHolder(new StateServlet(DSL.using(dataSource, SQLDialect.POSTGRES))),
        "/sample/state.json");
    jetty.setHandler(new GracefulHandler(context));
    jetty.setStopTimeout(STOP_TIMEOUT.toMillis());
    try {
      jetty.start();
    } catch (Exception e) {
      stopQuietly(jetty);
      throw new IllegalStateException("cannot start the HTTP server on " + host + ":" + port + ": "
          + e.getMessage(), e);
    }
    return new SampleServer(jetty, URI.create("http://" + host + ":" + connector.getLocalPort()));
  }

  /** Where the server listens, e.g. {@code http://127.0.0.1:8080}. */
  public URI uri() {
    return uri;
  }

  public int port() {
    return uri.getPort();
  }

  @Override
  public void close() {
    stopQuietly(jetty);
  }

  private static void stopQuietly(Server jetty) {
    try {
      jetty.stop();
    } catch (Exception e) {
      LOG.warn("HTTP server did not stop cleanly: {}", e.toString());
    }
  }
}
