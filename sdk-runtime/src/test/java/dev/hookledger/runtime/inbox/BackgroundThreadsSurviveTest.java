package dev.hookledger.runtime.inbox;

import static dev.hookledger.runtime.inbox.InboxFixture.builder;
import static dev.hookledger.runtime.inbox.InboxFixture.event;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hookledger.EventContext;
import dev.hookledger.OnEvent;
import dev.hookledger.internal.Json;
import dev.hookledger.runtime.Health;
import dev.hookledger.runtime.WebhookRuntime;
import dev.hookledger.runtime.admin.AdminAuthorizer;
import dev.hookledger.runtime.admin.HealthServlet;
import dev.hookledger.runtime.admin.web.AdminServlet;
import dev.hookledger.runtime.testing.TestDatabase;
import dev.hookledger.runtime.testing.TestHttp;
import dev.hookledger.runtime.testing.TestServer;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.junit.jupiter.api.Test;

/**
 * A worker hit by an {@link Error} lives on and keeps processing, the node says what it survived,
 * and its health is readable by a load balancer (up or down, nothing more) and by an operator.
 */
class BackgroundThreadsSurviveTest {
  static final String TOKEN = "health-token-0123456789";

  final TestDatabase.Database db = InboxFixture.database();

  @Test
  void workerHitByAnErrorKeepsProcessingAndTheNodeReportsIt() throws Exception {
    Failing handler = new Failing();
    // one worker: if the Error killed its thread, nothing after it would ever be processed
    try (WebhookRuntime runtime = builder(db.jdbcUrl(), handler)
        .inbox(i -> i.workers(1).lease(Duration.ofSeconds(1))).build()) {
      runtime.start();
      InboxFixture.receive(runtime, "evt_oom", "job.oom", "{}");
      InboxFixture.awaitStatus(db, "evt_oom", "done"); // its lease ran out, and its second attempt passed
      InboxFixture.receive(runtime, "evt_next", "job.oom", "{}");
      InboxFixture.awaitStatus(db, "evt_next", "done");

      // at least: on a loaded machine a one-second lease can also run out under the second attempt
      assertTrue((Integer) event(db, "evt_oom").get("attempts") >= 2, "the Error's attempt, then another");
      assertTrue(handler.calls.get() >= 3, "evt_oom twice or more, evt_next once or more: " + handler.calls.get());
      Health health = runtime.health();
      assertEquals(1, health.failuresSurvived());
      assertEquals(1, health.workers());
      assertEquals(1, health.workersAlive());
      assertTrue(health.pollerAlive());
      assertTrue(health.databaseReachable());
      assertTrue(health.up(), health.toString());
    }
  }

  @Test
  void healthIsUpWhileRunningAndDownOnceClosedOverHttp() throws Exception {
    WebhookRuntime runtime = builder(db.jdbcUrl()).inbox(i -> i.workers(2)).build();
    runtime.start();
    try (TestServer server = TestServer.start(context -> {
      context.addServlet(new ServletHolder(new HealthServlet(runtime)), "/healthz");
      context.addServlet(new ServletHolder(new AdminServlet(runtime, AdminAuthorizer.bearerToken(TOKEN))), "/admin/*");
    })) {
      InboxFixture.awaitListeners(db, 1);
      HttpResponse<String> up = TestHttp.send(HttpRequest.newBuilder(server.uri("/healthz")).GET().build());
      assertEquals(200, up.statusCode());
      assertEquals("up\n", up.body());

      HttpResponse<String> refused = TestHttp.send(HttpRequest.newBuilder(server.uri("/admin/health.json")).GET().build());
      assertEquals(401, refused.statusCode());
      JsonNode details = Json.MAPPER.readTree(TestHttp.send(HttpRequest.newBuilder(server.uri("/admin/health.json"))
          .header("Authorization", "Bearer " + TOKEN).GET().build()).body());
      assertTrue(details.get("up").asBoolean());
      assertEquals(2, details.get("workersAlive").asInt());
      assertTrue(details.get("listenerConnected").asBoolean());
      assertEquals(0, details.get("dead").asInt());
      assertEquals(0, details.get("failuresSurvived").asInt());

      runtime.close();
      HttpResponse<String> down = TestHttp.send(HttpRequest.newBuilder(server.uri("/healthz")).GET().build());
      assertEquals(503, down.statusCode());
      assertEquals("down: not running\n", down.body());
      Health closed = runtime.health();
      assertFalse(closed.running());
      assertFalse(closed.up());
    } finally {
      runtime.close();
    }
  }

  static final class Failing {
    final AtomicInteger calls = new AtomicInteger();

    @OnEvent("job.oom")
    void run(EventContext context) {
      if (calls.incrementAndGet() == 1) {
        throw new OutOfMemoryError("simulated: Java heap space");
      }
    }
  }
}
