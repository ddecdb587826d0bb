package dev.hookledger.samples.bench;

import com.zaxxer.hikari.HikariDataSource;
import dev.hookledger.samples.app.SampleState;
import jakarta.servlet.http.HttpServlet;
import java.net.URI;
import java.sql.Connection;
import java.sql.SQLException;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * What both hand-written peers, (h) and (hs), are made of: one servlet at {@code /webhooks/*} on a
 * Jetty of its own on a free loopback port, a pool, and the effect tables of a schema of its own.
 * Closing stops Jetty, then whatever the peer runs besides (its workers), then the pool.
 */
final class HandWrittenServer implements AutoCloseable {
  private final Server jetty;
  private final HikariDataSource pool;
  private final String schema;
  private final AutoCloseable beforePool;
  private final URI uri;

  private HandWrittenServer(Server jetty, HikariDataSource pool, String schema, AutoCloseable beforePool) {
    this.jetty = jetty;
    this.pool = pool;
    this.schema = schema;
    this.beforePool = beforePool;
    this.uri = URI.create("http://127.0.0.1:" + ((ServerConnector) jetty.getConnectors()[0]).getLocalPort());
  }

  /**
   * Serves {@code servlet}, its threads named {@code threadName}; the same server setup for both peers.
   *
   * @param beforePool closed after Jetty stops and before {@code pool} closes
   */
  static HandWrittenServer serve(String threadName, HttpServlet servlet, HikariDataSource pool, String schema,
      AutoCloseable beforePool) throws Exception {
    QueuedThreadPool threads = new QueuedThreadPool(64, 8);
    threads.setName(threadName);
    Server jetty = new Server(threads);
    ServerConnector connector = new ServerConnector(jetty);
    connector.setHost("127.0.0.1");
    connector.setPort(0);
    jetty.addConnector(connector);
    ServletContextHandler context = new ServletContextHandler();
    context.setContextPath("/");
    context.addServlet(new ServletHolder(servlet), "/webhooks/*");
    jetty.setHandler(context);
    jetty.start();
    return new HandWrittenServer(jetty, pool, schema, beforePool);
  }

  URI uri() {
    return uri;
  }

  HikariDataSource pool() {
    return pool;
  }

  /** Its effect tables, in the sample application's terms. */
  SampleState state() throws SQLException {
    try (Connection c = pool.getConnection()) {
      return InlineDesign.state(c, schema);
    }
  }

  @Override
  public void close() {
    try {
      JettyStop.stop(jetty);
    } finally {
      try {
        beforePool.close();
      } catch (Exception e) {
        throw new IllegalStateException("the peer's workers did not stop", e);
      } finally {
        pool.close();
      }
    }
  }
}
