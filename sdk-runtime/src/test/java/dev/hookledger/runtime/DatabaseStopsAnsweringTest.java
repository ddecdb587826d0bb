package dev.hookledger.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.junit.jupiter.api.Test;

/**
 * A database that stops answering (a frozen host, packets dropped silently), rather than refusing
 * connections: the pool the runtime builds has socket, connect and login timeouts, so deliveries are
 * answered 503 with {@code Retry-After} within 10 s (GitHub gives up on a delivery after 10 s)
 * instead of holding request threads for minutes, and the health check says down.
 */
class DatabaseStopsAnsweringTest {
  static final TestHookSigner SIGNER = new TestHookSigner("silent-secret");
  static final long BOUND_NANOS = TimeUnit.SECONDS.toNanos(10);

  @Test
  void deliveriesAreAnswered503WithinTenSecondsOnceTheDatabaseStopsAnswering() throws Exception {
    TestDatabase.Database db = TestDatabase.create();
    URI target = URI.create(db.jdbcUrl().substring("jdbc:".length()));
    try (StallingProxy proxy = StallingProxy.to(target.getHost(), target.getPort());
        WebhookRuntime runtime = WebhookRuntime.builder()
            .jdbcUrl(db.jdbcUrl().replace(":" + target.getPort() + "/", ":" + proxy.port() + "/"))
            .provider(new TestHookAdapter(), Secrets.of("silent-secret"))
            .workers(1).shutdownTimeout(Duration.ofSeconds(1)).build()) {
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

  private static HttpRequest delivery(ServedRuntime served, String id) {
    return SIGNER.request(served.uri("/webhooks/testhook"), id, "order.paid", "{}");
  }
}
