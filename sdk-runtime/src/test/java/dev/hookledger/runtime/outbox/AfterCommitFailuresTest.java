package dev.hookledger.runtime.outbox;

import static dev.hookledger.runtime.outbox.OutboxFixture.builder;
import static dev.hookledger.runtime.outbox.OutboxFixture.receive;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hookledger.runtime.WebhookRuntime;
import dev.hookledger.runtime.admin.AdminAuthorizer;
import dev.hookledger.runtime.admin.AfterCommitFailureCount;
import dev.hookledger.runtime.admin.InboxAdmin;
import dev.hookledger.runtime.admin.web.AdminServlet;
import dev.hookledger.runtime.micrometer.MicrometerWebhookListener;
import dev.hookledger.runtime.testing.Await;
import dev.hookledger.runtime.testing.TestDatabase;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.junit.jupiter.api.Test;

/**
 * A failure inside an {@code afterCommit} action, which is at most once and not run again, is
 * counted by the metric {@code hookledger.aftercommit.failed} and in the ledger, and shown on the
 * admin page of any node (here a page over an {@link InboxAdmin} of its own, as on a node that
 * runs no workers), with the event and the cause; a page of a ledger where none failed shows nothing.
 */
class AfterCommitFailuresTest {
  private static final String TOKEN = "admin-token-0123456789abcdef";

  private final TestDatabase.Database db = OutboxFixture.database();

  @Test
  void aFailedAfterCommitActionIsCountedInTheMetricAndTheLedgerAndShownOnThePage() throws Exception {
    // what the page shows is asserted, not how fast: a loaded machine can take longer than the 2 s default
    InboxAdmin admin = InboxAdmin.builder(db.dataSource()).readTimeout(Duration.ofSeconds(30)).build();
    assertFalse(page(admin).contains("card-aftercommit"), "no failure, no card");

    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    try (WebhookRuntime runtime = builder(db.jdbcUrl(), URI.create("http://127.0.0.1:9"), new OutboxTest.Notices())
        .listener(MicrometerWebhookListener.of(registry)).build()) {
      runtime.start();
      receive(runtime, "evt_ac_1");
      receive(runtime, "evt_ac_2");
      Await.until("both failures counted in the ledger", () -> admin.afterCommitFailures().stream()
          .mapToLong(AfterCommitFailureCount::failures).sum() == 2);
    }
    assertEquals(2.0, registry.get("hookledger.aftercommit.failed").tags("provider", "testhook").counter().count());
    List<AfterCommitFailureCount> counted = admin.afterCommitFailures();
    assertEquals(1, counted.size());
    AfterCommitFailureCount c = counted.get(0);
    assertEquals("testhook", c.provider());
    assertEquals(2, c.failures());
    assertTrue(List.of("evt_ac_1", "evt_ac_2").contains(c.lastEventId()), c.lastEventId());
    assertEquals("IllegalStateException: cache gone", c.lastCause());

    String html = page(admin);
    assertTrue(html.contains("<div class=\"card alarm\" id=\"card-aftercommit\" title=\"afterCommit actions that threw"
        + " (at most once: not run again; send what must happen through the outbox); last: testhook event "
        + c.lastEventId() + ": IllegalStateException: cache gone\"><span class=\"n\">2</span>afterCommit failed</div>"),
        html);
  }

  private static String page(InboxAdmin admin) throws Exception {
    Server server = new Server();
    ServerConnector connector = new ServerConnector(server);
    connector.setPort(0);
    server.addConnector(connector);
    ServletContextHandler context = new ServletContextHandler("/app");
    context.addServlet(new ServletHolder(new AdminServlet(admin, AdminAuthorizer.bearerToken(TOKEN))), "/admin/*");
    server.setHandler(context);
    server.start();
    try {
      HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
              URI.create("http://localhost:" + connector.getLocalPort() + "/app/admin/"))
          .header("Accept", "text/html").header("Authorization", "Bearer " + TOKEN).GET().build(),
          HttpResponse.BodyHandlers.ofString());
      assertEquals(200, r.statusCode(), r.body());
      return r.body();
    } finally {
      server.stop();
    }
  }
}
