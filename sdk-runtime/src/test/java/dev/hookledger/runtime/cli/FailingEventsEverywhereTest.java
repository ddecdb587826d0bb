package dev.hookledger.runtime.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hookledger.OnEvent;
import dev.hookledger.Secrets;
import dev.hookledger.internal.Json;
import dev.hookledger.runtime.Receipt;
import dev.hookledger.runtime.RetryPolicy;
import dev.hookledger.runtime.WebhookRuntime;
import dev.hookledger.runtime.admin.AdminAuthorizer;
import dev.hookledger.runtime.admin.EventQuery;
import dev.hookledger.runtime.admin.EventSummary;
import dev.hookledger.runtime.admin.InboxAdmin;
import dev.hookledger.runtime.admin.StatusFilter;
import dev.hookledger.runtime.admin.web.AdminServlet;
import dev.hookledger.runtime.testing.Await;
import dev.hookledger.runtime.testing.TestDatabase;
import dev.hookledger.runtime.testing.TestHookAdapter;
import dev.hookledger.runtime.testing.TestHookSigner;
import dev.hookledger.runtime.testing.TestServer;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.junit.jupiter.api.Test;

/**
 * Events that fail on every attempt, not dead yet, are in plain sight: counted and listed as
 * failing, with attempt k of N, the next attempt and the root cause in one line, in {@code status}
 * (text and JSON), the admin JSON and the admin page; and "retry now" runs the next attempt at once.
 */
class FailingEventsEverywhereTest {
  private static final String SECRET = "failing-secret";
  static final String TOKEN = "admin-token-0123456789abcdef";
  private static final String CAUSE = "ConnectException: Connection refused: inventory.internal:8080";

  /** Fails every attempt, with the cause an operator must see first two levels down. */
  static final class InventoryDown {
    @OnEvent("order.created")
    void created() {
      throw new IllegalStateException("cannot reserve stock",
          new ConnectException("Connection refused: inventory.internal:8080"));
    }
  }

  @Test
  void eventsFailingOnEveryAttemptAreShownAsFailingWithAttemptNextAttemptAndOneLineCause() throws Exception {
    TestDatabase.Database db = TestDatabase.create();
    RetryPolicy policy = RetryPolicy.builder().firstDelay(Duration.ofHours(1)).maxAttempts(5).jitter(0).build();
    TestHookSigner signer = new TestHookSigner(SECRET);
    try (WebhookRuntime runtime = WebhookRuntime.builder().jdbcUrl(db.jdbcUrl())
        .provider(new TestHookAdapter(), Secrets.of(SECRET)).handlers(new InventoryDown())
        .inbox(i -> i.retryPolicy(policy)
            .pollInterval(Duration.ofMillis(50))).build()) {
      runtime.migrate();
      runtime.start();
      for (int i = 1; i <= 3; i++) {
        assertEquals(Receipt.Outcome.ACCEPTED, runtime.receive("testhook",
            signer.delivery("testhook", "ord_" + i, "order.created", "{\"id\":" + i + "}")).outcome());
      }
      // on a loaded Citus cluster a status read across every shard can pass the admin's 2 s default
      InboxAdmin admin = !TestDatabase.citus() ? runtime.admin() : InboxAdmin.builder(runtime.dataSource())
          .maxAttempts(policy.maxAttempts()).readTimeout(Duration.ofSeconds(30)).build();
      Await.until("3 events failed their first attempt", () -> admin.status().failing() == 3);
      Instant before = Instant.now();

      // the admin API
      assertEquals(0, admin.status().dead());
      assertEquals(0, admin.status().stuck(), "backing off is not stuck");
      List<EventSummary> failing = admin.list(EventQuery.builder().status(StatusFilter.FAILING).build()).events();
      assertEquals(3, failing.size());
      for (EventSummary e : failing) {
        assertEquals(1, e.attempts());
        assertEquals(5, e.maxAttempts(), "N comes from the runtime's retry policy");
        assertEquals(CAUSE, e.rootCause().orElseThrow());
        Duration untilNext = Duration.between(before, e.nextAttemptAt().orElseThrow());
        assertTrue(untilNext.compareTo(Duration.ofMinutes(58)) > 0 && untilNext.compareTo(Duration.ofMinutes(61)) < 0,
            "next attempt in about an hour: " + untilNext);
      }

      // the command line, text and JSON
      CliProcess.Result text = CliProcess.run(Map.of(), "status", "--database-url", db.jdbcUrl(), "--max-attempts", "5");
      assertEquals(0, text.exitCode(), text.err());
      List<String> lines = text.out().lines().toList();
      assertTrue(lines.contains("failing:    3 (hookledger list --status failing)"), text.out());
      assertTrue(lines.contains("stuck:      0"), text.out());
      assertTrue(lines.contains("dead:       0"), text.out());
      assertTrue(lines.contains("failing events, newest first:"), text.out());
      String row = lines.stream().filter(l -> l.contains("ord_3")).findFirst().orElseThrow();
      assertTrue(row.matches(".*testhook  -      ord_3  order.created  pending  1 of 5   in 5\\dm \\d+s \\(\\d\\d:\\d\\d:\\d\\dZ\\)  "
          + CAUSE.replace(".", "\\.") + "$"), row);
      CliProcess.Result json = CliProcess.run(Map.of(), "status", "--json", "--database-url", db.jdbcUrl());
      JsonNode status = Json.MAPPER.readTree(json.out());
      assertEquals(3, status.get("failing").asInt());
      assertEquals(3, status.get("failingEvents").size());
      JsonNode first = status.get("failingEvents").get(0);
      // issue 21: N is the one the runtime recorded on the event (5), not the command line's default 12
      assertEquals("1 of 5", first.get("attempts").asInt() + " of " + first.get("maxAttempts").asInt(),
          "the runtime's N, the same as on the page");
      assertEquals(CAUSE, first.get("rootCause").asText());
      assertTrue(first.get("lastError").asText().contains("\tat "), "the whole trace is kept beside the cause");

      // the admin JSON and page, over HTTP
      try (TestServer server = TestServer.start(context -> context.addServlet(
          new ServletHolder(new AdminServlet(runtime, AdminAuthorizer.bearerToken(TOKEN))), "/admin/*"))) {
        JsonNode adminStatus = Json.MAPPER.readTree(get(server.uri("/admin/status.json")).body());
        assertEquals(3, adminStatus.get("failing").asInt());
        JsonNode listed = Json.MAPPER.readTree(get(server.uri("/admin/failing.json")).body()).get("events");
        assertEquals(3, listed.size());
        assertEquals(5, listed.get(0).get("maxAttempts").asInt());
        assertTrue(listed.get(0).get("failing").asBoolean());
        assertEquals(CAUSE, listed.get(0).get("rootCause").asText());
        assertTrue(Instant.parse(listed.get(0).get("nextAttemptAt").asText()).isAfter(before.plus(Duration.ofMinutes(58))));

        String page = get(server.uri("/admin/")).body();
        assertTrue(page.contains("<a class=\"card alarm\" id=\"card-failing\""), "failing is highlighted");
        assertTrue(page.contains("<span class=\"n\">3</span>failing</a>"), page);
        assertTrue(page.contains("<td data-label=\"attempt\">1 of 5</td>"), page);
        assertTrue(page.contains("<td data-label=\"cause\" class=\"cause\" title=\"" + CAUSE + "\">" + CAUSE + "</td>"), page);
        assertTrue(page.matches("(?s).*<td data-label=\"next attempt\"><time datetime=\"[0-9T:-]+Z\" title=\"[0-9T:-]+Z\">in 5\\dm \\d+s</time></td>.*"),
            "the next attempt, relative with the absolute time on hover");
        assertTrue(page.contains(">retry now</button>"), page);

        // retry now: the next attempt runs at once, not in an hour
        HttpResponse<String> retried = post(server.uri("/admin/retry"), "provider=testhook&scope=&eventId=ord_2");
        assertEquals(200, retried.statusCode(), retried.body());
        assertEquals("retried testhook event ord_2: pending, due now",
            Json.MAPPER.readTree(retried.body()).get("message").asText());
        Await.until("ord_2's second attempt ran", () -> admin.showExisting("testhook", "", "ord_2").summary().attempts() == 2);
        EventSummary again = admin.showExisting("testhook", "", "ord_2").summary();
        assertTrue(again.failing());
        assertEquals(CAUSE, again.rootCause().orElseThrow());
      }
    }
  }

  /** A GET of the admin servlet with the token these tests configure. */
  static HttpResponse<String> get(URI uri) throws Exception {
    return HttpClient.newHttpClient().send(HttpRequest.newBuilder(uri).header("Authorization", "Bearer " + TOKEN).GET()
        .build(), HttpResponse.BodyHandlers.ofString());
  }

  /** A form POST to the admin servlet with the token and the cross-site guard header. */
  static HttpResponse<String> post(URI uri, String form) throws Exception {
    return HttpClient.newHttpClient().send(HttpRequest.newBuilder(uri).header("Authorization", "Bearer " + TOKEN)
        .header(AdminServlet.GUARD_HEADER, "1").header("Content-Type", "application/x-www-form-urlencoded")
        .POST(HttpRequest.BodyPublishers.ofString(form)).build(), HttpResponse.BodyHandlers.ofString());
  }
}
