package dev.hookledger.samples.providers;

import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.client.WireMock;
import com.github.tomakehurst.wiremock.core.WireMockConfiguration;
import dev.hookledger.runtime.admin.AdminAuthorizer;
import dev.hookledger.runtime.admin.InboxAdmin;
import dev.hookledger.runtime.admin.ReplaySources;
import dev.hookledger.runtime.admin.web.AdminServlet;
import dev.hookledger.runtime.testing.LedgerRows;
import dev.hookledger.runtime.testing.TestDatabase;
import dev.hookledger.runtime.testing.TestServer;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.stream.StreamSupport;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 22's reconcile from the admin page, against a WireMock stand-in of Stripe's events API
 * ({@code GET /v1/events}) with gaps planted both ways and a status that differs: the page and its
 * JSON show exactly those, nothing is written; Shopify, which has no API that lists deliveries, is
 * refused with its module's reason.
 */
class ReconcileFromThePageTest {
  private static final String TOKEN = "admin-token-0123456789abcdef";
  private static final String KEY = "sk_test_51ReconcileKeyThatMustNeverShow";
  // Stripe keeps events for 30 days, and its source refuses an older window: two days back
  private static final Instant SINCE = Instant.now().minus(Duration.ofDays(2)).truncatedTo(ChronoUnit.HOURS);
  private static final Instant UNTIL = SINCE.plus(Duration.ofDays(1));

  private static final Instant AT = SINCE.plus(Duration.ofHours(10));

  private final TestDatabase.Database db = TestDatabase.create();
  private final WireMockServer stripe = new WireMockServer(WireMockConfiguration.options().dynamicPort());
  private final HttpClient http = HttpClient.newHttpClient();
  private TestServer server;

  @AfterEach
  void stop() throws Exception {
    if (server != null) {
      server.close();
    }
    stripe.stop();
  }

  @Test
  void thePageShowsExactlyThePlantedGapsAndTheDifferingStatusAndWritesNothing() throws Exception {
    InboxAdmin admin = InboxAdmin.builder(db.dataSource()).build();
    admin.migrate();
    // the ledger: evt_both and evt_pending as Stripe lists them, evt_ledger_only that Stripe does not list
    for (String id : List.of("evt_both", "evt_pending", "evt_ledger_only")) {
      db.execute("insert into hookledger.event (provider, scope, event_id, type, body, status, received_at,"
          + " available_at, settled_at) values ('stripe', '', '" + id + "', 'invoice.paid', '\\x7b7d', 'done',"
          + " timestamptz '" + AT + "', timestamptz '" + AT + "', timestamptz '" + AT + "')");
    }
    long before = LedgerRows.events(db.dataSource(), "hookledger");
    // Stripe: evt_both delivered, evt_pending still pending at an endpoint, evt_stripe_only never received
    stripe.start();
    stripe.stubFor(WireMock.get(urlPathEqualTo("/v1/events")).withHeader("Authorization", equalTo("Bearer " + KEY))
        .willReturn(okJson("{\"object\": \"list\", \"has_more\": false, \"data\": [" + event("evt_stripe_only", 0)
            + ", " + event("evt_pending", 2) + ", " + event("evt_both", 0) + "]}")));
    ReplaySources sources = ReplaySources.of(Map.of("HOOKLEDGER_STRIPE_API_KEY", KEY,
        "HOOKLEDGER_STRIPE_API_BASE", stripe.baseUrl()));
    server = TestServer.start(context -> context.addServlet(new ServletHolder(new AdminServlet(admin,
        AdminAuthorizer.bearerToken(TOKEN), sources)), "/admin/*"));

    HttpResponse<String> page = get("/admin/reconcile?provider=stripe&since=" + SINCE + "&until=" + UNTIL, "text/html");
    assertEquals(200, page.statusCode(), page.body());
    String html = page.body();
    assertEquals(List.of("evt_stripe_only"), firstColumn(html, "missing"));
    assertEquals(List.of("evt_ledger_only"), firstColumn(html, "unlisted"));
    assertEquals(List.of("evt_pending"), firstColumn(html, "differing"));
    assertTrue(html.contains("<td>pending <span class=\"muted\">(pending_webhooks=2)</span></td><td>done</td>"), html);
    assertTrue(!html.contains(KEY), "the API key is never shown");

    JsonNode json = new ObjectMapper().readTree(get("/admin/reconcile.json?provider=stripe&since=" + SINCE
        + "&until=" + UNTIL, "application/json").body());
    assertEquals(List.of("evt_stripe_only"), ids(json.get("missingFromLedger")));
    assertEquals(List.of("evt_ledger_only"), ids(json.get("notListedByProvider")));
    assertEquals(List.of("evt_pending"), ids(json.get("statusDiffers")));
    assertEquals(before, LedgerRows.events(db.dataSource(), "hookledger"), "reconcile writes nothing");

    HttpResponse<String> shopify = get("/admin/reconcile?provider=shopify&since=1d", "text/html");
    assertEquals(409, shopify.statusCode());
    assertTrue(shopify.body().contains("shopify cannot be reconciled: "), shopify.body());
  }

  /** An Event as {@code GET /v1/events} lists it, created inside the window. */
  private static String event(String id, int pendingWebhooks) {
    return "{\"id\": \"" + id + "\", \"object\": \"event\", \"api_version\": \"2024-06-20\", \"created\": "
        + AT.getEpochSecond() + ", \"livemode\": false, \"pending_webhooks\": " + pendingWebhooks
        + ", \"type\": \"invoice.paid\", \"data\": {\"object\": {\"id\": \"in_1\", \"object\": \"invoice\"}}}";
  }

  private HttpResponse<String> get(String path, String accept) throws Exception {
    return http.send(HttpRequest.newBuilder(server.uri(path)).header("Accept", accept)
        .header("Authorization", "Bearer " + TOKEN).GET().build(), HttpResponse.BodyHandlers.ofString());
  }

  /** The event ids of one table of the report page. */
  private static List<String> firstColumn(String html, String table) {
    int start = html.indexOf("<table id=\"" + table + "\">");
    if (start < 0) {
      return List.of();
    }
    String rows = html.substring(start, html.indexOf("</table>", start));
    return java.util.regex.Pattern.compile("<tr><td>(?:<a [^>]*>)?([^<]*)").matcher(rows).results()
        .map(m -> m.group(1)).toList();
  }

  private static List<String> ids(JsonNode entries) {
    return StreamSupport.stream(entries.spliterator(), false).map(e -> e.get("eventId").asText()).toList();
  }
}
