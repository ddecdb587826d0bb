package dev.hookledger.runtime.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hookledger.OnEvent;
import dev.hookledger.Secrets;
import dev.hookledger.internal.Json;
import dev.hookledger.runtime.Receipt;
import dev.hookledger.runtime.RetryPolicy;
import dev.hookledger.runtime.WebhookRuntime;
import dev.hookledger.runtime.admin.AdminAuthorizer;
import dev.hookledger.runtime.admin.EventSummary;
import dev.hookledger.runtime.admin.InboxAdmin;
import dev.hookledger.runtime.admin.web.AdminServlet;
import dev.hookledger.runtime.internal.VisibleText;
import dev.hookledger.runtime.micrometer.MicrometerWebhookListener;
import dev.hookledger.runtime.testing.Await;
import dev.hookledger.runtime.testing.TestDatabase;
import dev.hookledger.runtime.testing.TestHookAdapter;
import dev.hookledger.runtime.testing.TestHookSigner;
import dev.hookledger.runtime.testing.TestServer;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.junit.jupiter.api.Test;

/**
 * A handler's failure message is partly the sender's text (an invoice id with {@code \r\n}, a
 * bidirectional override): the root cause is still the exception's class and the first line of its
 * message, and every control and bidirectional character, of the cause and of the event's id, is
 * shown escaped at every door: the admin API, the command line (text and JSON), the bulk retry's
 * cause filter, the admin JSON, the page and the metrics' tags.
 */
class HostileCausesEverywhereTest {
  private static final String SECRET = "hostile-secret";
  private static final String TOKEN = FailingEventsEverywhereTest.TOKEN;
  /** The sender's id: a bidirectional override and a bell. */
  private static final String ID = "in_\u202e1\u0007";
  private static final String TYPE = "order.\u202ecreated";
  private static final String CAUSE = "IllegalStateException: invoice in_\\u202e1\\u0007 not found";
  private static final String FORGED = "FAKE: all good";

  /** Fails with a message that carries the sender's id, and a forged second line after it. */
  static final class Invoices {
    @OnEvent("order.*")
    void created(dev.hookledger.WebhookEvent event) {
      throw new IllegalStateException("invoice " + event.eventId() + " not found\r\n" + FORGED);
    }
  }

  @Test
  void theCauseIsTheClassAndFirstLineAndEveryDoorShowsControlsEscaped() throws Exception {
    TestDatabase.Database db = TestDatabase.create();
    RetryPolicy policy = RetryPolicy.builder().firstDelay(Duration.ofHours(1)).maxAttempts(5).jitter(0).build();
    SimpleMeterRegistry metrics = new SimpleMeterRegistry();
    TestHookSigner signer = new TestHookSigner(SECRET);
    try (WebhookRuntime runtime = WebhookRuntime.builder().jdbcUrl(db.jdbcUrl())
        .provider(new TestHookAdapter(), Secrets.of(SECRET)).handlers(new Invoices()).inbox(i -> i.retryPolicy(policy))
        .listener(MicrometerWebhookListener.builder(metrics).tagEventTypes(10).build())
        .inbox(i -> i.pollInterval(Duration.ofMillis(50))).build()) {
      runtime.migrate();
      runtime.start();
      assertEquals(Receipt.Outcome.ACCEPTED, runtime.receive("testhook",
          signer.delivery("testhook", ID, TYPE, "{\"id\":1}")).outcome());
      // a minute, not the page's 2 s: on a loaded machine a read may wait, and this test asserts outcomes
      InboxAdmin admin = InboxAdmin.builder(runtime.dataSource()).readTimeout(Duration.ofMinutes(1)).build();
      Await.until("the event failed its first attempt", () -> admin.status().failing() == 1);

      // the admin API: class and first line, escaped; the id itself kept exactly
      EventSummary failing = admin.showExisting("testhook", "", ID).summary();
      assertEquals(CAUSE, failing.rootCause().orElseThrow());
      assertEquals(CAUSE, admin.causes().get(0).cause());
      assertEquals("testhook event in_\\u202e1\\u0007", failing.toString(), "an event named in logs and errors");

      // the command line: status and list show the cause, never the forged line, nothing unsafe
      for (String command : List.of("status", "list")) {
        CliProcess.Result r = CliProcess.run(Map.of(), command, "--database-url", db.jdbcUrl());
        assertEquals(0, r.exitCode(), r.err());
        assertTrue(r.out().contains(CAUSE), r.out());
        assertFalse(r.out().contains(FORGED), r.out());
        assertTrue(r.out().chars().noneMatch(c -> VisibleText.unsafeInText((char) c)), r.out());
      }
      CliProcess.Result listed = CliProcess.run(Map.of(), "list", "--database-url", db.jdbcUrl());
      assertTrue(listed.out().contains("in_\\u202e1\\u0007"), listed.out());
      // --json: the same cause line, the id exactly (as JSON escapes)
      CliProcess.Result json = CliProcess.run(Map.of(), "list", "--json", "--database-url", db.jdbcUrl());
      assertTrue(json.out().chars().noneMatch(c -> VisibleText.unsafeInText((char) c)), json.out());
      JsonNode event = Json.MAPPER.readTree(json.out()).get("events").get(0);
      assertEquals(ID, event.get("eventId").asText());
      assertEquals(CAUSE, event.get("rootCause").asText());

      // the bulk retry's cause filter: the line shown selects the event; the forged line selects nothing
      CliProcess.Result forged = CliProcess.run(Map.of(), "retry", "--failing", "--cause", FORGED, "--confirm", "0",
          "--database-url", db.jdbcUrl());
      assertEquals(0, forged.exitCode(), forged.err());
      assertTrue(forged.out().startsWith("retried 0 "), forged.out());

      // the admin JSON and page, over HTTP
      try (TestServer server = TestServer.start(context -> context.addServlet(
          new ServletHolder(new AdminServlet(runtime, AdminAuthorizer.bearerToken(TOKEN))), "/admin/*"))) {
        String raw = FailingEventsEverywhereTest.get(server.uri("/admin/failing.json")).body();
        assertTrue(raw.chars().noneMatch(c -> VisibleText.unsafe((char) c)), raw);
        assertTrue(raw.contains("in_\\u202E1\\u0007") || raw.contains("in_\\u202e1\\u0007"), raw);
        JsonNode page1 = Json.MAPPER.readTree(raw).get("events").get(0);
        assertEquals(ID, page1.get("eventId").asText(), "a JSON reader gets the id exactly");
        assertEquals(TYPE, page1.get("type").asText());
        assertEquals(CAUSE, page1.get("rootCause").asText());
        String causes = FailingEventsEverywhereTest.get(server.uri("/admin/status.json")).body();
        assertTrue(causes.chars().noneMatch(c -> VisibleText.unsafe((char) c)), causes);

        String page = FailingEventsEverywhereTest.get(server.uri("/admin/?status=failing")).body();
        assertEquals(List.of(), page.chars().filter(c -> VisibleText.unsafeInText((char) c)).boxed().toList(),
            "nothing obeyed");
        assertFalse(page.contains("\u202e"), page);
        assertTrue(page.contains(CAUSE), page);
        assertFalse(page.contains(FORGED), page);
        assertTrue(page.contains("in_\\u202e1\\u0007"), page);
        String detail = FailingEventsEverywhereTest.get(server.uri("/admin/event?provider=testhook&scope=&eventId="
            + java.net.URLEncoder.encode(ID, java.nio.charset.StandardCharsets.UTF_8))).body();
        assertFalse(detail.contains("\u202e"), detail);
        assertTrue(detail.contains(CAUSE), detail);
        assertTrue(detail.contains("in_\\u202e1\\u0007 not found\n\t| " + FORGED), "the whole error, its lines kept");

        // the bulk retry of the page's cause takes the event
        HttpResponse<String> retried = FailingEventsEverywhereTest.post(server.uri("/admin/retry-matching"), "status=failing&confirm=1&cause="
            + java.net.URLEncoder.encode(CAUSE, java.nio.charset.StandardCharsets.UTF_8));
        assertEquals(200, retried.statusCode(), retried.body());
        Await.until("the retried event's second attempt ran",
            () -> admin.showExisting("testhook", "", ID).summary().attempts() == 2);
      }

      // the metrics' type tag: shown, not obeyed
      for (Meter m : metrics.getMeters()) {
        for (Tag t : m.getId().getTags()) {
          assertTrue(t.getValue().chars().noneMatch(c -> VisibleText.unsafe((char) c)), m.getId().toString());
        }
      }
      assertTrue(metrics.getMeters().stream().anyMatch(m -> "order.\\u202ecreated".equals(m.getId().getTag("type"))),
          "the type tag, escaped");
    }
  }
}
