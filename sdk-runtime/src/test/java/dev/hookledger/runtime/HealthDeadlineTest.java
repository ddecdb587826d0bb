package dev.hookledger.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hookledger.Secrets;
import dev.hookledger.runtime.admin.AdminAuthorizer;
import dev.hookledger.runtime.admin.HealthServlet;
import dev.hookledger.runtime.admin.web.AdminServlet;
import dev.hookledger.runtime.testing.Await;
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
 * Health and the admin page answer within their deadline (2 s) whatever the database does: a
 * database that stops answering (a frozen host) is {@code 503 down} with the reason in time for a
 * load balancer's probe (1 to 5 s), not after the pool's 30 s; the admin page shows the failure as a
 * page that reloads by itself, and is back once the database is. Events nobody takes make the node
 * {@code degraded}, not down.
 */
class HealthDeadlineTest {
  static final String SECRET = "health-deadline-secret";
  static final String TOKEN = "health-deadline-admin-token-0123456789";
  /** The 2 s deadline, with room for a loaded machine: still well inside any probe's timeout. */
  static final long ANSWERED_WITHIN_NANOS = TimeUnit.SECONDS.toNanos(4);

  @Test
  void healthAndAdminAnswerDownWithinTheDeadlineWhenTheDatabaseStopsAnsweringAndRecoverByThemselves()
      throws Exception {
    TestDatabase.Database db = TestDatabase.create();
    URI target = URI.create(db.jdbcUrl().substring("jdbc:".length()));
    try (StallingProxy proxy = StallingProxy.to(target.getHost(), target.getPort());
        WebhookRuntime runtime = WebhookRuntime.builder()
            .jdbcUrl(db.jdbcUrl().replace(":" + target.getPort() + "/", ":" + proxy.port() + "/"))
            .provider(new TestHookAdapter(), Secrets.of(SECRET))
            .inbox(i -> i.workers(1).shutdownTimeout(Duration.ofSeconds(1))).build()) {
      runtime.migrate();
      runtime.start();
      try (TestServer server = serve(runtime)) {
        // up before the stall; read again: on Citus a loaded machine's first reads through new connections
        // (the coordinator's to the workers opened too) can pass the 2 s deadline and answer down
        Await.until("health is up", Duration.ofSeconds(30), () -> get(server, "/healthz", false).equals("200 up\n"));
        Await.until("the admin page answers", Duration.ofSeconds(30), () -> status(server, "/admin/") == 200);

        proxy.stall();

        long start = System.nanoTime();
        String health = get(server, "/healthz", false);
        long healthTook = System.nanoTime() - start;
        assertEquals("503 down: database unreachable\n", health);
        assertTrue(healthTook < ANSWERED_WITHIN_NANOS, "health answered after " + healthTook / 1_000_000 + " ms");

        start = System.nanoTime();
        HttpResponse<String> page = TestHttp.send(admin(server, "/admin/"));
        long pageTook = System.nanoTime() - start;
        assertEquals(503, page.statusCode());
        assertEquals("text/html;charset=utf-8", page.headers().firstValue("Content-Type").orElseThrow().replace(" ", ""));
        assertTrue(page.body().contains("The ledger cannot be read right now"), page.body());
        assertTrue(page.body().contains("the ledger database did not answer within 2000 ms"), page.body());
        assertTrue(page.body().contains("id=\"pause\""), "the page keeps its auto-refresh: " + page.body());
        assertTrue(pageTook < ANSWERED_WITHIN_NANOS, "the admin page answered after " + pageTook / 1_000_000 + " ms");

        HttpResponse<String> json = TestHttp.send(admin(server, "/admin/health.json"));
        assertEquals(200, json.statusCode());
        assertTrue(json.body().contains("\"status\":\"down\""), json.body());
        assertTrue(json.body().contains("\"reason\":\"the database is unreachable: the ledger database did not answer"
            + " within 2000 ms\""), json.body());

        proxy.resume();

        // what the page's reload finds once the database answers again: no restart, no operator
        Await.until("the admin page is back", Duration.ofSeconds(30), () -> status(server, "/admin/") == 200);
        Await.until("health is up again", Duration.ofSeconds(30),
            () -> get(server, "/healthz", false).equals("200 up\n"));
      }
    }
  }

  @Test
  void eventsNobodyTakesMakeTheNodeDegradedNotDown() throws Exception {
    TestDatabase.Database db = TestDatabase.create();
    try (WebhookRuntime runtime = WebhookRuntime.builder()
        .jdbcUrl(db.jdbcUrl())
        .provider(new TestHookAdapter(), Secrets.of(SECRET))
        .handlers(new Object() {
          @dev.hookledger.OnEvent("order.paid")
          void paid() {}
        })
        .inbox(i -> i.workers(0)).build()) {
      runtime.migrate();
      runtime.start();
      try (TestServer server = serve(runtime)) {
        HttpResponse<String> accepted = TestHttp.send(new TestHookSigner(SECRET)
            .request(server.uri("/webhooks/testhook"), "evt_waits", "order.paid", "{}"));
        assertEquals("accepted\n", accepted.body());
        // due for three minutes, and no worker anywhere took it
        db.execute("UPDATE hookledger.event SET available_at = now() - interval '3 minutes'");

        assertEquals("200 degraded: events stuck\n", get(server, "/healthz", false));
        assertEquals(Health.Status.DEGRADED, runtime.health().status());
        assertEquals("1 event stuck: due and taken by no worker", runtime.health().reason().orElseThrow());
      }
    }
  }

  private static TestServer serve(WebhookRuntime runtime) {
    return TestServer.start(context -> {
      ServedRuntime.filter(context, runtime);
      context.addServlet(new ServletHolder(new HealthServlet(runtime)), "/healthz");
      context.addServlet(new ServletHolder(new AdminServlet(runtime, AdminAuthorizer.bearerToken(TOKEN))), "/admin/*");
    });
  }

  private static String get(TestServer server, String path, boolean admin) {
    HttpResponse<String> r = TestHttp.send(HttpRequest.newBuilder(server.uri(path)).GET().build());
    return r.statusCode() + " " + r.body();
  }

  private static int status(TestServer server, String path) {
    return TestHttp.send(admin(server, path)).statusCode();
  }

  private static HttpRequest admin(TestServer server, String path) {
    return HttpRequest.newBuilder(server.uri(path)).header("Authorization", "Bearer " + TOKEN)
        .header("Accept", "text/html").GET().build();
  }
}
