package dev.hookledger.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.hookledger.Secrets;
import dev.hookledger.runtime.admin.HealthServlet;
import dev.hookledger.runtime.testing.Await;
import dev.hookledger.runtime.testing.LedgerRows;
import dev.hookledger.runtime.testing.ServedRuntime;
import dev.hookledger.runtime.testing.StallingProxy;
import dev.hookledger.runtime.testing.TestDatabase;
import dev.hookledger.runtime.testing.TestHookAdapter;
import dev.hookledger.runtime.testing.TestHookSigner;
import dev.hookledger.runtime.testing.TestHttp;
import dev.hookledger.runtime.testing.TestServer;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A database that stops answering (a frozen host, packets dropped silently): the pool the runtime
 * builds has socket, connect and login timeouts, and a delivery's wait for its commit runs from its
 * arrival, so deliveries are answered 503 with {@code Retry-After} within 9 s, before GitHub gives up
 * at 10 s, instead of holding request threads for minutes, and the health check says down. A database
 * that refuses connections is answered at once, once the pool has said so.
 */
class DatabaseStopsAnsweringTest {
  static final TestHookSigner SIGNER = new TestHookSigner("silent-secret");
  /** The README's promise: 9 s, a second under GitHub's 10 s. */
  static final long BOUND_NANOS = TimeUnit.SECONDS.toNanos(9);
  /** Well under the bound, and under the application pool's 5 s wait for a connection, whatever the load. */
  static final long AT_ONCE_NANOS = TimeUnit.SECONDS.toNanos(3);

  @Test
  void deliveriesAreAnswered503WithinTenSecondsOnceTheDatabaseStopsAnswering() throws Exception {
    TestDatabase.Database db = TestDatabase.create();
    URI target = URI.create(db.jdbcUrl().substring("jdbc:".length()));
    try (StallingProxy proxy = StallingProxy.to(target.getHost(), target.getPort());
        WebhookRuntime runtime = WebhookRuntime.builder()
            .jdbcUrl(db.jdbcUrl().replace(":" + target.getPort() + "/", ":" + proxy.port() + "/"))
            .provider(new TestHookAdapter(), Secrets.of("silent-secret"))
            .inbox(i -> i.workers(1).shutdownTimeout(Duration.ofSeconds(1))).build()) {
      runtime.migrate();
      runtime.start();
      TestServer server = TestServer.start(context -> {
        ServedRuntime.filter(context, runtime);
        context.addServlet(new ServletHolder(new HealthServlet(runtime)), "/healthz");
      });
      ServedRuntime served = new ServedRuntime(runtime, server);
      assertEquals("accepted\n", TestHttp.send(delivery(served, "evt_before")).body());
      Await.until("evt_before settles", () -> LedgerRows.event(db.dataSource(), "hookledger", "evt_before")
          .map(r -> "ignored".equals(r.get("status"))).orElse(false));

      proxy.stall();
      for (String id : new String[] {"evt_during_1", "evt_during_2"}) {
        long start = System.nanoTime();
        HttpResponse<String> r = TestHttp.send(delivery(served, id));
        long elapsed = System.nanoTime() - start;
        assertEquals(503, r.statusCode(), r.body());
        assertEquals("5", r.headers().firstValue("Retry-After").orElseThrow());
        assertTrue(elapsed < BOUND_NANOS, id + " was answered after " + elapsed / 1_000_000 + " ms");
      }
      long start = System.nanoTime();
      HttpResponse<String> health = TestHttp.send(HttpRequest.newBuilder(served.uri("/healthz")).GET().build());
      assertEquals(503, health.statusCode());
      assertEquals("down: database unreachable\n", health.body());
      assertTrue(System.nanoTime() - start < BOUND_NANOS);
      server.close();
    }
    assertEquals(false, LedgerRows.event(db.dataSource(), "hookledger", "evt_during_1").isPresent());
  }

  /**
   * The database refuses connections (its server stopped): once the application's pool has said so, after
   * its 5 s wait for a connection, every delivery is answered 503 at once, not after that wait again (or
   * the 10 s the commit's wait used to be); a writer tries the database in the background, and once it is
   * back the provider's retry is accepted.
   */
  @Test
  void refusedConnectionsAreAnswered503AtOnceAndAcceptedOnceTheDatabaseIsBack(@TempDir Path data) throws Exception {
    EmbeddedPostgres postgres = TestDatabase.startDedicated(false, data, 0);
    int port = postgres.getPort();
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(postgres.getJdbcUrl("postgres", "postgres"));
    config.setMaximumPoolSize(4);
    config.setConnectionTimeout(5_000);
    config.setInitializationFailTimeout(-1);
    HikariDataSource pool = new HikariDataSource(config);
    ServedRuntime served = ServedRuntime.serve(WebhookRuntime.builder().dataSource(pool)
        .provider(new TestHookAdapter(), Secrets.of("silent-secret"))
        .inbox(i -> i.workers(1).shutdownTimeout(Duration.ofSeconds(1))));
    try {
      assertEquals("accepted\n", TestHttp.send(delivery(served, "evt_before")).body());

      postgres.close();
      long start = System.nanoTime();
      HttpResponse<String> first = TestHttp.send(delivery(served, "evt_refused_0"));
      assertEquals(503, first.statusCode(), first.body());
      assertTrue(System.nanoTime() - start < BOUND_NANOS, "the first after the stop took " + millis(start) + " ms");
      for (int i = 1; i <= 3; i++) {
        start = System.nanoTime();
        HttpResponse<String> r = TestHttp.send(delivery(served, "evt_refused_" + i));
        assertEquals(503, r.statusCode(), r.body());
        assertEquals("5", r.headers().firstValue("Retry-After").orElseThrow());
        assertEquals("unavailable: retry later (the delivery may be recorded; a redelivery is answered duplicate)\n",
            r.body());
        assertTrue(System.nanoTime() - start < AT_ONCE_NANOS, "evt_refused_" + i + " took " + millis(start) + " ms");
      }

      postgres = TestDatabase.startDedicated(false, data, port);
      HttpRequest retry = delivery(served, "evt_refused_1");
      Await.until("the retry is accepted once the database is back", Duration.ofSeconds(30),
          () -> TestHttp.send(retry).statusCode() == 200);
    } finally {
      served.close();
      pool.close();
      postgres.close();
    }
  }

  private static long millis(long start) {
    return (System.nanoTime() - start) / 1_000_000;
  }

  private static HttpRequest delivery(ServedRuntime served, String id) {
    return SIGNER.request(served.uri("/webhooks/testhook"), id, "order.paid", "{}");
  }
}
