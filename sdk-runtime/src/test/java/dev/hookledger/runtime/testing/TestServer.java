package dev.hookledger.runtime.testing;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.function.Consumer;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;

/**
 * An embedded Jetty 12 (ee10) on a free port of 127.0.0.1. Its servlet context has a downstream
 * servlet at {@code /*} that answers {@code downstream <method> <path>: <body>}, so tests can see
 * what a filter let through.
 */
public final class TestServer implements AutoCloseable {
  private final Server server;
  private final ServerConnector connector;

  private TestServer(Server server, ServerConnector connector) {
    this.server = server;
    this.connector = connector;
  }

  /** A server whose servlet context ({@code /}) {@code setup} completes, e.g. with a filter. */
  public static TestServer start(Consumer<ServletContextHandler> setup) {
    ServletContextHandler context = new ServletContextHandler("/");
    context.addServlet(new ServletHolder(new DownstreamServlet()), "/*");
    setup.accept(context);
    return start(context);
  }

  /** A server around any handler (a web application, for instance). */
  public static TestServer start(Handler handler) {
    Server server = new Server();
    ServerConnector connector = new ServerConnector(server);
    connector.setHost("127.0.0.1");
    connector.setPort(0);
    server.addConnector(connector);
    server.setHandler(handler);
    try {
      server.start();
    } catch (Exception e) {
      throw new IllegalStateException("Jetty did not start", e);
    }
    return new TestServer(server, connector);
  }

  public URI uri(String path) {
    return URI.create("http://127.0.0.1:" + connector.getLocalPort() + path);
  }

  @Override
  public void close() throws Exception {
    server.stop();
  }

  /** Echoes what reached it. */
  public static final class DownstreamServlet extends HttpServlet {
    private static final long serialVersionUID = 1L;

    @Override
    protected void service(HttpServletRequest req, HttpServletResponse resp) throws IOException {
      String body = new String(req.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      resp.setStatus(200);
      resp.setContentType("text/plain;charset=utf-8");
      resp.getWriter().print("downstream " + req.getMethod() + " " + req.getRequestURI() + ": " + body);
    }
  }
}
