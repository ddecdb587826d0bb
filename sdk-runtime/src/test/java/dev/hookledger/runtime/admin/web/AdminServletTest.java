package dev.hookledger.runtime.admin.web;

import static dev.hookledger.runtime.admin.LedgerFixture.NOW;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hookledger.internal.Json;
import dev.hookledger.runtime.admin.AdminAuthorizer;
import dev.hookledger.runtime.admin.Backfill;
import dev.hookledger.runtime.admin.BackfillRequest;
import dev.hookledger.runtime.admin.BackfillStatus;
import dev.hookledger.runtime.admin.LedgerFixture;
import dev.hookledger.runtime.admin.ReplaySources;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class AdminServletTest {
  static final String TOKEN = "admin-token-0123456789abcdef";
  /**
   * The command line's test source ({@code FixtureReplaySourceFactory}): it lists {@code evt_a}
   * delivered and {@code evt_b} as a failed delivery (HTTP 502), at the start of the window.
   */
  static final ReplaySources FIXTURE_SOURCES = ReplaySources.of(Map.of("HOOKLEDGER_FIXTURE_API_KEY", "key-123",
      "HOOKLEDGER_FIXTURE_EVENTS", "evt_a,evt_b!"));
  private static final String EVIL_ERROR = "<script>alert('x')</script> & \"quoted\"";

  private final LedgerFixture ledger = new LedgerFixture();
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  private Server server;
  private String base;

  @BeforeEach
  void start() throws Exception {
    ledger.row("stripe", "evt_pending").status("pending").receivedAt(NOW.minus(Duration.ofMinutes(3))).insert();
    ledger.row("stripe", "evt_done").status("done").duplicates(2).settledAt(NOW).insert();
    ledger.row("github", "guid-<1>").scope("hook-7").status("dead").attempts(8).lastError(EVIL_ERROR).insert();

    server = new Server();
    ServerConnector connector = new ServerConnector(server);
    connector.setPort(0);
    server.addConnector(connector);
    ServletContextHandler context = new ServletContextHandler("/app");
    context.addServlet(new ServletHolder(new AdminServlet(ledger.admin(), AdminAuthorizer.bearerToken(TOKEN),
        FIXTURE_SOURCES)), "/admin/*");
    context.addServlet(new ServletHolder(new AdminServlet(ledger.admin())), "/closed/*");
    server.setHandler(context);
    server.start();
    base = "http://localhost:" + connector.getLocalPort() + "/app/admin";
  }

  @AfterEach
  void stop() throws Exception {
    server.stop();
  }

  @Test
  void pageShowsSummaryCountsAndTheDeadEventsEscapedCauseOnOneLine() throws Exception {
    HttpResponse<String> r = get("/?status=dead", "text/html");

    assertEquals(200, r.statusCode());
    assertEquals("text/html;charset=utf-8", r.headers().firstValue("Content-Type").orElseThrow());
    String html = r.body();
    assertTrue(html.contains("<tr><td>stripe</td><td class=\"n\">1</td><td class=\"n\">0</td>"
        + "<td class=\"n\">1</td><td class=\"n\">0</td><td class=\"n\">0</td><td class=\"n\">0</td></tr>"), html);
    assertTrue(html.contains("<span class=\"n\">3m 0s</span>oldest waiting</a>"), html);
    assertTrue(html.contains("<a class=\"card alarm\" id=\"card-dead\""), "dead is highlighted: " + html);
    assertTrue(html.contains("<a class=\"card\" id=\"card-failing\""), "nothing is failing: " + html);
    String escaped = "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &quot;quoted&quot;";
    assertTrue(html.contains("<td data-label=\"cause\" class=\"cause\" title=\"" + escaped + "\">" + escaped + "</td>"), html);
    assertFalse(html.contains(EVIL_ERROR));
    assertTrue(html.contains(">guid-&lt;1&gt;</a>"), html);
    assertTrue(html.contains("<input type=\"hidden\" name=\"eventId\" value=\"guid-&lt;1&gt;\">"), html);
    assertTrue(html.contains("action=\"/app/admin/retry\""), html);
    assertTrue(html.contains("<a class=\"button danger\" id=\"retry-all-dead\" href=\"/app/admin/confirm-retry-dead\">"
        + "retry all 1 dead…</a>"), html);
    assertTrue(html.contains("<a id=\"tab-dead\" href=\"/app/admin/?status=dead\" class=\"on\">dead (1)</a>"), html);
    String csp = r.headers().firstValue("Content-Security-Policy").orElseThrow();
    String nonce = csp.replaceAll(".*script-src 'nonce-([^']+)'.*", "$1");
    assertTrue(html.contains("<script nonce=\"" + nonce + "\">"), "the page's only script carries the nonce");
    assertEquals(1, html.split("<script").length - 1, "one script");
    assertFalse(html.contains(" style=\""), "no inline style attribute: the CSP would refuse it");
    assertFalse(html.matches("(?s).*(src|href)=\"(https?:)?//.*"), "nothing is loaded from elsewhere");
    assertEquals("no-store", r.headers().firstValue("Cache-Control").orElseThrow());
  }

  /** More events waiting than status counts (a bulk retry of a million): the cards say "over", and the table says what it shows. */
  @Test
  void pageSaysOverTheBoundWhenMoreEventsWaitThanItCounts() throws Exception {
    ledger.sql.execute("insert into hookledger.event (provider, event_id, type, body, available_at)"
        + " select 'stripe', 'evt_wait_' || i, 'invoice.paid', '\\x7b7d', now() - interval '1 hour'"
        + " from generate_series(1, " + dev.hookledger.runtime.admin.InboxStatus.COUNTED + ") i");

    String html = get("/", "text/html").body();
    assertTrue(html.contains("<span class=\"n\">over 10000</span>waiting</a>"), html);
    assertTrue(html.contains("<span class=\"n\">over 10000</span>stuck</a>"), html);
    assertTrue(html.contains("stuck (over 10000)"), html);
    assertTrue(html.contains("<p class=\"note\" id=\"counts-bounded\">pending and processing: of the 10001 events due"
        + " first; more wait</p>"), html);
  }

  @Test
  void aBrowserIsShownErrorsAsPagesWithTheReasonEscapedAndNeverAStackTrace() throws Exception {
    HttpResponse<String> missing = get("/event?provider=github&eventId=guid-%3C1%3E", "text/html,*/*;q=0.8");
    assertEquals(404, missing.statusCode());
    assertEquals("text/html;charset=utf-8", missing.headers().firstValue("Content-Type").orElseThrow());
    assertTrue(missing.body().contains("<p id=\"problem\" class=\"status-dead\">github event guid-&lt;1&gt; is not in"
        + " the ledger; found under scope hook-7: add --scope hook-7</p>"), missing.body());

    HttpResponse<String> nowhere = get("/nowhere", "text/html");
    assertEquals(404, nowhere.statusCode());
    assertTrue(nowhere.body().contains("no such admin page: /nowhere"), nowhere.body());

    HttpResponse<String> bad = get("/confirm-retry?status=done", "text/html");
    assertEquals(400, bad.statusCode());
    assertTrue(bad.body().contains("a bulk retry takes failing or dead events, but was &#39;done&#39;"), bad.body());

    HttpResponse<String> noScript = http.send(HttpRequest.newBuilder(URI.create(base + "/retry-dead"))
        .header("Accept", "text/html").header("Content-Type", "application/x-www-form-urlencoded")
        .header("Authorization", "Bearer " + TOKEN).POST(HttpRequest.BodyPublishers.ofString("confirm=1")).build(),
        HttpResponse.BodyHandlers.ofString());
    assertEquals(403, noScript.statusCode());
    assertTrue(noScript.body().contains("JavaScript on; nothing was changed."), noScript.body());
    assertEquals("dead", ledger.statusOf("github", "hook-7", "guid-<1>"));

    HttpResponse<String> unauthorized = http.send(HttpRequest.newBuilder(URI.create(base + "/")).header("Accept", "text/html")
        .GET().build(), HttpResponse.BodyHandlers.ofString());
    assertEquals(401, unauthorized.statusCode());
    assertTrue(unauthorized.body().contains("<p id=\"problem\" class=\"status-dead\">" + AdminServlet.UNAUTHORIZED),
        unauthorized.body());
    assertFalse(unauthorized.body().contains("guid"), "nothing of the ledger is read");
    for (HttpResponse<String> r : java.util.List.of(missing, nowhere, bad, noScript, unauthorized)) {
      assertFalse(r.body().contains("\tat ") || r.body().contains("Exception"), r.body());
    }
  }

  @Test
  void theStyleAndScriptComeFromTheirResourcesAndOneColumnListShapesTheTable() throws Exception {
    String html = get("/?status=dead", "text/html").body();

    assertTrue(html.contains("table.events{width:100%;table-layout:fixed}"), "admin.css, inlined under the nonce");
    assertTrue(html.contains("col.c-received{width:7em}"), "the widths derive from the columns: " + html);
    assertTrue(html.contains("var guardHeader = body.getAttribute('data-guard-header');"), "admin.js, inlined");
    assertTrue(html.contains("<body data-guard-header=\"" + AdminServlet.GUARD_HEADER + "\" data-refresh-seconds=\"15\">"),
        html);
    String table = html.substring(html.indexOf("<table class=\"events\""), html.indexOf("</table>", html.indexOf("id=\"events\"")));
    int columns = table.split("<col ").length - 1;
    assertEquals(9, columns, table);
    assertEquals(columns, table.split("<th>").length - 1, "one heading per column: " + table);
    assertEquals(columns, table.split("<td data-label=").length - 1, "one labelled cell per column: " + table);
    assertTrue(table.contains("<td data-label=\"status\" class=\"status-dead\">dead</td>"), table);
  }

  @Test
  void theEventPageShowsBodyKeptHeadersAndTheWholeErrorButNoSignature() throws Exception {
    ledger.row("stripe", "evt_full").status("dead").attempts(12).body("{\"amount\":\"<42>\"}")
        .headers(java.util.Map.of("stripe-signature", "t=1,v1=abc", "content-type", "application/json",
            "x-hook-hmac", "zzz"))
        .lastError("handler failed\njava.lang.IllegalStateException: card declined\n\tat a.B.c(B.java:1)\n").insert();

    HttpResponse<String> r = get("/event?provider=stripe&scope=&eventId=evt_full", "text/html");

    assertEquals(200, r.statusCode(), r.body());
    String html = r.body();
    assertTrue(html.contains("<pre id=\"body\">{&quot;amount&quot;:&quot;&lt;42&gt;&quot;}</pre>"), html);
    assertTrue(html.contains("<tr><th>content-type</th><td>application/json</td></tr>"), html);
    assertFalse(html.contains("stripe-signature") || html.contains("t=1,v1=abc") || html.contains("x-hook-hmac"), html);
    assertTrue(html.contains("<dt>root cause</dt><dd>IllegalStateException: card declined</dd>"), html);
    assertTrue(html.contains("<dt>attempt</dt><dd>12 of 12</dd>"), html);
    assertTrue(html.contains("\tat a.B.c(B.java:1)"), "the whole trace, one click away: " + html);
    assertTrue(html.contains(">retry</button>"), html);

    HttpResponse<String> missing = get("/event?provider=github&eventId=guid-%3C1%3E", "*/*");
    assertEquals(404, missing.statusCode());
    assertEquals("github event guid-<1> is not in the ledger; found under scope hook-7: add --scope hook-7",
        Json.MAPPER.readTree(missing.body()).get("error").asText());
    JsonNode json = Json.MAPPER.readTree(get("/event.json?provider=stripe&eventId=evt_full", "*/*").body());
    assertEquals("IllegalStateException: card declined", json.get("rootCause").asText());
    assertFalse(json.get("headers").has("stripe-signature"));
  }

  @Test
  void thePageFindsAnEventByIdInAnyStatusAndKeepsTheSearchInItsForm() throws Exception {
    ledger.row("stripe", "evt_searched").status("done").insert();
    ledger.row("stripe", "evt_failing_other").status("pending").attempts(1).lastError("x")
        .availableAt(NOW.plus(java.time.Duration.ofHours(1))).insert();

    String html = get("/?id=evt_searched", "text/html").body();

    assertTrue(html.contains("data-event=\"evt_searched\""), html);
    assertTrue(!html.contains("data-event=\"evt_failing_other\""), "only the match: " + html);
    assertTrue(html.contains("<input name=\"id\" id=\"search-id\" size=\"18\" placeholder=\"event or delivery id\""
        + " value=\"evt_searched\">"), html);
  }

  @Test
  void filtersAndPagesOverJsonAndABadFilterIsExplainedOnThePage() throws Exception {
    ledger.row("stripe", "evt_inv1").type("invoice.paid").status("done").settledAt(NOW).insert();
    ledger.row("stripe", "evt_inv2").type("invoice.created").status("done").settledAt(NOW).insert();

    JsonNode page = Json.MAPPER.readTree(get("/events.json?type=invoice.*&limit=1", "*/*").body());
    assertEquals(1, page.get("events").size());
    String after = page.get("nextCursor").asText();
    JsonNode next = Json.MAPPER.readTree(get("/events.json?type=invoice.*&limit=1&after=" + after, "*/*").body());
    assertEquals(1, next.get("events").size());
    assertTrue(next.get("nextCursor").isNull());
    assertEquals(java.util.Set.of("evt_inv1", "evt_inv2"), java.util.Set.of(page.get("events").get(0).get("eventId").asText(),
        next.get("events").get(0).get("eventId").asText()));

    HttpResponse<String> bad = get("/?type=*.paid", "text/html");
    assertEquals(400, bad.statusCode());
    assertTrue(bad.body().contains("<p id=\"filter-error\" class=\"stuck\">bad event type pattern &#39;*.paid&#39;"),
        bad.body());
    assertEquals(400, get("/events.json?status=lost", "*/*").statusCode());
  }

  @Test
  void activityCountsReceivedAndSettledPerMinuteOverTheLastHour() throws Exception {
    ledger.row("stripe", "evt_a").status("done").receivedAt(NOW.minus(Duration.ofMinutes(10)))
        .settledAt(NOW.minus(Duration.ofMinutes(9))).insert();
    ledger.row("stripe", "evt_old").status("done").receivedAt(NOW.minus(Duration.ofHours(2)))
        .settledAt(NOW.minus(Duration.ofHours(2))).insert();

    JsonNode minutes = Json.MAPPER.readTree(get("/activity.json", "*/*").body()).get("minutes");

    assertEquals(60, minutes.size());
    assertEquals("2025-03-01T12:00:00Z", minutes.get(59).get("start").asText());
    long received = 0;
    long settled = 0;
    for (JsonNode m : minutes) {
      received += m.get("received").asLong();
      settled += m.get("settled").asLong();
    }
    // the pending (3 min ago), done (now) and dead (now) rows of the fixture, and evt_a; not evt_old
    assertEquals(4, received);
    assertEquals(2, settled, "evt_done (settled now) and evt_a");
    assertEquals(1, minutes.get(49).get("received").asLong(), "evt_a, at 11:50");
    assertTrue(get("/", "text/html").body().contains("<figure id=\"activity\"><svg role=\"img\""));
  }

  @Test
  void statusAndDeadListAsJson() throws Exception {
    JsonNode status = Json.MAPPER.readTree(get("/status.json", "*/*").body());
    assertEquals(3, status.get("total").asInt());
    assertEquals(1, status.get("dead").asInt());
    assertEquals(2, status.get("duplicates").asInt());
    assertEquals(180, status.get("oldestWaitingSeconds").asInt());

    JsonNode dead = Json.MAPPER.readTree(get("/dead.json", "*/*").body());
    assertEquals(1, dead.get("events").size());
    assertEquals(EVIL_ERROR, dead.get("events").get(0).get("lastError").asText());

    HttpResponse<String> negotiated = get("/", "application/json");
    assertEquals("application/json", negotiated.headers().firstValue("Content-Type").orElseThrow());
    JsonNode both = Json.MAPPER.readTree(negotiated.body());
    assertEquals(1, both.get("status").get("dead").asInt());
    assertEquals(0, both.get("failing").get("events").size());
    assertEquals("guid-<1>", both.get("dead").get("events").get(0).get("eventId").asText());
  }

  @Test
  void retryWithoutTheGuardHeaderIsForbiddenAndChangesNothing() throws Exception {
    HttpResponse<String> r = post("/retry", "provider=github&scope=hook-7&eventId=guid-%3C1%3E", false);

    assertEquals(403, r.statusCode());
    assertEquals("a retry needs the header X-Hookledger-Admin: 1 (cross-site request guard)",
        Json.MAPPER.readTree(r.body()).get("error").asText());
    assertEquals("dead", ledger.statusOf("github", "hook-7", "guid-<1>"));
    assertEquals(403, post("/retry-dead", "confirm=1", false).statusCode());
    assertEquals("dead", ledger.statusOf("github", "hook-7", "guid-<1>"));
    // the refusal names what was refused
    HttpResponse<String> cancel = post("/cancel-backfill", "id=1", false);
    assertEquals(403, cancel.statusCode());
    assertEquals("cancelling a backfill needs the header X-Hookledger-Admin: 1 (cross-site request guard)",
        Json.MAPPER.readTree(cancel.body()).get("error").asText());
  }

  @Test
  void retryWithTheGuardHeaderMakesTheEventPending() throws Exception {
    HttpResponse<String> r = post("/retry", "provider=github&scope=hook-7&eventId=guid-%3C1%3E", true);

    assertEquals(200, r.statusCode(), r.body());
    assertEquals("pending", ledger.statusOf("github", "hook-7", "guid-<1>"));
  }

  @Test
  void retryAllDeadAndRefusalsOverHttp() throws Exception {
    HttpResponse<String> refused = post("/retry", "provider=stripe&eventId=evt_done", true);
    assertEquals(409, refused.statusCode());
    assertEquals("stripe event evt_done is done, not dead: only dead and failing events are retried"
        + " (pass --force to run a settled event's handlers again)", Json.MAPPER.readTree(refused.body()).get("error").asText());
    assertEquals(400, post("/retry", "provider=stripe", true).statusCode());

    HttpResponse<String> unconfirmed = post("/retry-dead", "", true);
    assertEquals(400, unconfirmed.statusCode());
    assertEquals("retry-dead needs the parameter confirm, the number of dead events to retry (now 1): nothing was"
        + " retried", Json.MAPPER.readTree(unconfirmed.body()).get("error").asText());
    HttpResponse<String> stale = post("/retry-dead", "confirm=2", true);
    assertEquals(409, stale.statusCode());
    assertEquals("dead", ledger.statusOf("github", "hook-7", "guid-<1>"));

    String confirm = get("/confirm-retry-dead", "text/html").body();
    assertTrue(confirm.contains("Retry all <b>1</b> dead events?"), confirm);
    assertTrue(confirm.contains("<input type=\"hidden\" name=\"confirm\" value=\"1\">"), confirm);
    HttpResponse<String> all = post("/retry-dead", "confirm=1", true);
    assertEquals(200, all.statusCode());
    assertEquals(1, Json.MAPPER.readTree(all.body()).get("retried").asInt());
    assertEquals("retried 1 dead events: pending, due now", Json.MAPPER.readTree(all.body()).get("message").asText());
    assertEquals("pending", ledger.statusOf("github", "hook-7", "guid-<1>"));
  }

  @Test
  void retryIsPostOnly() throws Exception {
    HttpResponse<String> r = get("/retry-dead", "*/*");
    assertEquals(405, r.statusCode());
    assertEquals("POST", r.headers().firstValue("Allow").orElseThrow());
    assertEquals("dead", ledger.statusOf("github", "hook-7", "guid-<1>"));
  }

  @Test
  void everyRouteAnswers401WithoutAValidTokenAndChangesNothing() throws Exception {
    for (String authorization : new String[] {null, "Bearer wrong-token-0123456789", "Bearer " + TOKEN + "x",
        "Basic " + basic("ops", "wrong"), "Token " + TOKEN}) {
      for (String path : new String[] {"/", "/?status=dead", "/status.json", "/dead.json", "/failing.json",
          "/events.json", "/event.json?provider=github&scope=hook-7&eventId=guid-%3C1%3E",
          "/event?provider=github&scope=hook-7&eventId=guid-%3C1%3E", "/activity.json", "/confirm-retry-dead",
          "/health.json", "/nowhere"}) {
        HttpResponse<String> r = send(HttpRequest.newBuilder(URI.create(base + path)).GET(), authorization);
        assertEquals(401, r.statusCode(), path + " with " + authorization);
        assertEquals(AdminServlet.UNAUTHORIZED, Json.MAPPER.readTree(r.body()).get("error").asText());
        assertEquals(java.util.List.of("Bearer realm=\"hookledger admin\"",
            "Basic realm=\"hookledger admin\", charset=\"UTF-8\""), r.headers().allValues("WWW-Authenticate"));
        assertFalse(r.body().contains("guid"), "nothing of the ledger is read");
      }
      for (String path : new String[] {"/retry", "/retry-dead"}) {
        HttpResponse<String> r = send(HttpRequest.newBuilder(URI.create(base + path))
            .header("Content-Type", "application/x-www-form-urlencoded").header(AdminServlet.GUARD_HEADER, "1")
            .POST(HttpRequest.BodyPublishers.ofString("provider=github&scope=hook-7&eventId=guid-%3C1%3E&confirm=1")),
            authorization);
        assertEquals(401, r.statusCode(), path + " with " + authorization);
      }
    }
    assertEquals("dead", ledger.statusOf("github", "hook-7", "guid-<1>"));
  }

  @Test
  void theTokenAlsoOpensThePageAsTheBasicPasswordSoThatABrowserCanAskForIt() throws Exception {
    HttpResponse<String> r = send(HttpRequest.newBuilder(URI.create(base + "/status.json")).GET(),
        "Basic " + basic("anyone", TOKEN));
    assertEquals(200, r.statusCode(), r.body());
    assertEquals(200, send(HttpRequest.newBuilder(URI.create(base + "/")).GET(), "bearer  " + TOKEN + " ").statusCode());
  }

  @Test
  void aServletBuiltWithoutAnAuthorizerRefusesEverything() throws Exception {
    String closed = base.replace("/admin", "/closed");
    HttpResponse<String> page = send(HttpRequest.newBuilder(URI.create(closed + "/")).GET(), "Bearer " + TOKEN);
    assertEquals(403, page.statusCode());
    assertEquals(AdminServlet.CLOSED, Json.MAPPER.readTree(page.body()).get("error").asText());
    HttpResponse<String> retry = send(HttpRequest.newBuilder(URI.create(closed + "/retry-dead?confirm=1"))
        .header(AdminServlet.GUARD_HEADER, "1").POST(HttpRequest.BodyPublishers.noBody()), "Bearer " + TOKEN);
    assertEquals(403, retry.statusCode());
    assertEquals("dead", ledger.statusOf("github", "hook-7", "guid-<1>"));
  }

  @Test
  void rejectsAShortToken() {
    IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
        () -> AdminAuthorizer.bearerToken("  short-token  "));
    assertEquals("admin token must be at least 16 characters, but was 11", e.getMessage());
  }

  private HttpResponse<String> send(HttpRequest.Builder b, String authorization) throws Exception {
    if (authorization != null) {
      b.header("Authorization", authorization);
    }
    HttpRequest request = b.build();
    // a refused POST is answered before its body is read, and Jetty then closes the connection: a
    // pooled connection reused for the next request may be the closed one, so a POST gets its own
    HttpClient client = request.method().equals("POST")
        ? HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build() : http;
    return client.send(request, HttpResponse.BodyHandlers.ofString());
  }

  private static String basic(String user, String password) {
    return java.util.Base64.getEncoder().encodeToString((user + ":" + password).getBytes(
        java.nio.charset.StandardCharsets.UTF_8));
  }

  @Test
  void theOverviewShowsEachBackfillWithItsProgressAndWhereItRuns() throws Exception {
    assertEquals(false, get("/", "text/html").body().contains("id=\"backfills\""), "no section without backfills");
    Backfill b = ledger.admin().startBackfill(BackfillRequest.builder("<b>billing").build());
    String page = get("/", "text/html").body();
    assertTrue(page.contains("<tr id=\"backfill-" + b.id() + "\"><td>" + b.id() + "</td><td>&lt;b&gt;billing</td>"
        + "<td>every provider *</td><td>running</td><td><progress max=\"100\" value=\"0\">0%</progress> 0%"
        + " <span class=\"muted\">0/1</span></td>"), page);
    assertTrue(page.contains("<td>waiting for a node</td>"), page);
  }

  @Test
  void aBackfillStartedFromThePageShowsItsDryRunCountFirstAndIsRecordedOnlyWhenConfirmed() throws Exception {
    HttpResponse<String> form = get("/backfill", "text/html");
    assertEquals(200, form.statusCode());
    assertTrue(form.body().contains("<input name=\"handler\" placeholder="), "an admin over a database alone does not"
        + " know the handlers: their names are typed " + form.body());

    HttpResponse<String> confirm = get("/confirm-backfill?handler=audit.%3Cb%3E&type=*&since=2025-01-01&until="
        + "2025-04-01T00:00:00Z&legacy=apply&maxPerSecond=50", "text/html");
    assertEquals(200, confirm.statusCode());
    String page = confirm.body();
    assertTrue(page.contains("<p id=\"confirm\">Start a backfill of <b>audit.&lt;b&gt;</b> over <b>1</b> events?"
        + " every provider&#39;s events of type *, received from 2025-01-01T00:00:00Z to 2025-04-01T00:00:00Z;"
        + " legacy events apply.</p>"), page);
    assertTrue(page.contains("<dt>selected</dt><dd>1 stored, settled events</dd><dt>already applied</dt><dd>0</dd>"
        + "<dt>legacy</dt><dd>1 (applied)</dd>"), page);
    assertTrue(page.contains("<input type=\"hidden\" name=\"since\" value=\"2025-01-01T00:00:00Z\">"), page);
    assertTrue(page.contains("action=\"/app/admin/start-backfill\""), page);
    assertEquals(List.of(), ledger.admin().backfills(), "counting records nothing");

    String fields = "handler=audit.%3Cb%3E&provider=&type=*&since=2025-01-01T00:00:00Z&until=2025-04-01T00:00:00Z"
        + "&legacy=apply&maxPerSecond=50";
    assertEquals(403, post("/start-backfill", fields, false).statusCode());
    assertEquals(List.of(), ledger.admin().backfills(), "no guard header, nothing started");

    HttpResponse<String> started = post("/start-backfill", fields, true);
    assertEquals(200, started.statusCode(), started.body());
    Backfill b = ledger.admin().backfills().get(0);
    assertEquals("{\"backfill\":" + b.id() + ",\"message\":\"backfill " + b.id() + " started: audit.<b> over 1"
        + " events; progress below\"}", started.body());
    assertEquals(List.of("audit.<b>", "*", "2025-01-01T00:00:00Z", "APPLY"), List.of(b.handlers().get(0), b.type(),
        b.since().toString(), b.legacy().name()));
    assertTrue(get("/", "text/html").body().contains("<button type=\"submit\" class=\"danger cancel-backfill\">"
        + "cancel</button>"), "a running backfill has its cancel button");
  }

  @Test
  void aBadBackfillFormIsRefusedWithTheReasonAndStartsNothing() throws Exception {
    HttpResponse<String> none = get("/confirm-backfill?type=*", "text/html");
    assertEquals(400, none.statusCode());
    assertTrue(none.body().contains("a backfill needs at least one handler: choose the handlers to run"), none.body());
    HttpResponse<String> since = get("/confirm-backfill?handler=a&since=yesterday", "text/html");
    assertEquals(400, since.statusCode());
    assertTrue(since.body().contains("since is not an ISO instant, a date or a duration back from now: &#39;yesterday&#39;"
        + " (write 2025-03-01T08:00:00Z, 2025-03-01, 90m or 3d)"), since.body());
    HttpResponse<String> window = post("/start-backfill", "handler=a&since=2025-03-02&until=2025-03-01", true);
    assertEquals(400, window.statusCode());
    assertEquals("{\"error\":\"until (2025-03-01T00:00:00Z) must be after since (2025-03-02T00:00:00Z): nothing was"
        + " changed\"}", window.body());
    HttpResponse<String> pace = post("/start-backfill", "handler=a&maxPerSecond=0", true);
    assertEquals("{\"error\":\"maxPerSecond must be between 1 and 10000, but was 0: nothing was changed\"}",
        pace.body());
    assertEquals(List.of(), ledger.admin().backfills());
  }

  @Test
  void aRunningBackfillIsCancelledFromThePageAndASecondCancelIsRefused() throws Exception {
    Backfill b = ledger.admin().startBackfill(BackfillRequest.builder("audit").build());

    HttpResponse<String> cancelled = post("/cancel-backfill", "id=" + b.id(), true);
    assertEquals("{\"cancelled\":" + b.id() + ",\"message\":\"backfill " + b.id() + " cancelled: what it applied"
        + " stays applied\"}", cancelled.body());
    assertEquals(BackfillStatus.CANCELLED, ledger.admin().backfill(b.id()).orElseThrow().status());
    HttpResponse<String> again = post("/cancel-backfill", "id=" + b.id(), true);
    assertEquals(409, again.statusCode());
    assertEquals("{\"error\":\"backfill " + b.id() + " is not running: nothing was cancelled\"}", again.body());
    assertEquals(400, post("/cancel-backfill", "id=x", true).statusCode());
  }

  @Test
  void reconcileFromThePageShowsWhatTheProviderAndTheLedgerDisagreeOnAndWritesNothing() throws Exception {
    Instant since = Instant.parse("2025-03-01T00:00:00Z");
    ledger.row("fixture", "evt_b").type("fixture.created").status("done").receivedAt(since.plusSeconds(5)).insert();
    ledger.row("fixture", "evt_<c>").type("fixture.created").status("done").receivedAt(since.plusSeconds(9)).insert();
    long before = ledger.count();

    HttpResponse<String> form = get("/reconcile", "text/html");
    assertTrue(form.body().contains("<select name=\"provider\"><option>fixture</option><option>noapi</option>"),
        form.body());
    HttpResponse<String> r = get("/reconcile?provider=fixture&since=2025-03-01&until=2025-03-02", "text/html");
    assertEquals(200, r.statusCode(), r.body());
    String page = r.body();
    assertTrue(page.contains("From 2025-03-01T00:00:00Z to 2025-03-02T00:00:00Z: the provider lists 2 events, the"
        + " ledger has 2 in the window.  Nothing was written."), page);
    assertTrue(page.contains("<h3>missing from the ledger (1)</h3>\n<div class=\"wide\"><table id=\"missing\">"
        + "<tr><th>event</th><th>type</th><th>provider says</th><th>ledger</th></tr>\n<tr><td>evt_a</td><td>"
        + "fixture.created</td><td>delivered <span class=\"muted\">(HTTP 200)</span></td><td>absent</td></tr>"), page);
    assertTrue(page.contains("<table id=\"unlisted\"><tr><th>event</th><th>type</th><th>provider says</th><th>ledger"
        + "</th></tr>\n<tr><td><a href=\"/app/admin/event?provider=fixture&amp;eventId=evt_%3Cc%3E\">"
        + "evt_&lt;c&gt;</a></td><td>fixture.created</td><td>not listed</td><td>done</td></tr>"), page);
    assertTrue(page.contains(">evt_b</a></td><td>fixture.created</td><td>failed <span class=\"muted\">(HTTP 502)"
        + "</span></td><td>done</td></tr>"), page);

    JsonNode json = Json.MAPPER.readTree(get("/reconcile?provider=fixture&since=2025-03-01&until=2025-03-02",
        "application/json").body());
    assertEquals(List.of("evt_a", "evt_<c>", "evt_b"), List.of(json.at("/missingFromLedger/0/eventId").asText(),
        json.at("/notListedByProvider/0/eventId").asText(), json.at("/statusDiffers/0/eventId").asText()));
    assertEquals(3, json.at("/missingFromLedger").size() + json.at("/notListedByProvider").size()
        + json.at("/statusDiffers").size());
    assertEquals(before, ledger.count(), "reconcile writes nothing");
  }

  @Test
  void aReconcileWindowLongerThanADayIsShownADayAtATimeEachPageLinkingToTheRest() throws Exception {
    // before, the page read the whole window asked for, both sides in memory at once
    HttpResponse<String> r = get("/reconcile?provider=fixture&since=2025-03-01&until=2025-03-04T06:00:00Z", "text/html");
    assertEquals(200, r.statusCode(), r.body());
    assertTrue(r.body().contains("From 2025-03-01T00:00:00Z to 2025-03-02T00:00:00Z: the provider lists"), r.body());
    assertTrue(r.body().contains("<p id=\"reconcile-next\">A page reconciles at most a day; the window asked for goes"
        + " on to 2025-03-04T06:00:00Z: <a href=\"/app/admin/reconcile?provider=fixture&amp;"
        + "since=2025-03-02T00%3A00%3A00Z&amp;until=2025-03-04T06%3A00%3A00Z\">reconcile the next day</a></p>"),
        r.body());

    JsonNode json = Json.MAPPER.readTree(get("/reconcile.json?provider=fixture&since=2025-03-03T00:00:00Z"
        + "&until=2025-03-04T06:00:00Z", "application/json").body());
    assertEquals("2025-03-04T00:00:00Z", json.at("/until").asText(), json.toString());
    assertEquals("{\"since\":\"2025-03-04T00:00:00Z\",\"until\":\"2025-03-04T06:00:00Z\"}",
        json.at("/next").toString());
    JsonNode last = Json.MAPPER.readTree(get("/reconcile.json?provider=fixture&since=2025-03-04T00:00:00Z"
        + "&until=2025-03-04T06:00:00Z", "application/json").body());
    assertTrue(last.at("/next").isMissingNode(), last.toString());
    assertTrue(!get("/reconcile?provider=fixture&since=2025-03-01&until=2025-03-02", "text/html").body()
        .contains("reconcile-next"));
  }

  @Test
  void aProviderWithoutAListingApiIsRefusedWithItsReasonAsTheCommandLineExits2() throws Exception {
    HttpResponse<String> page = get("/reconcile?provider=noapi&since=1d", "text/html");
    assertEquals(409, page.statusCode());
    assertTrue(page.body().contains("<p id=\"problem\" class=\"status-dead\">noapi cannot be reconciled: noapi has no"
        + " API to list past deliveries: reconcile from its resource APIs instead</p>"), page.body());
    assertEquals("{\"error\":\"noapi cannot be reconciled: noapi has no API to list past deliveries: reconcile from its"
        + " resource APIs instead\"}", get("/reconcile.json?provider=noapi&since=1d", "application/json").body());
    HttpResponse<String> noSince = get("/reconcile?provider=fixture", "text/html");
    assertEquals(400, noSince.statusCode());
    assertTrue(noSince.body().contains("a reconcile needs the parameters provider and since (and until, default now)"),
        noSince.body());
  }

  private HttpResponse<String> get(String path, String accept) throws Exception {
    return http.send(HttpRequest.newBuilder(URI.create(base + path)).header("Accept", accept)
            .header("Authorization", "Bearer " + TOKEN).GET().build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private HttpResponse<String> post(String path, String form, boolean guard) throws Exception {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path))
        .header("Content-Type", "application/x-www-form-urlencoded")
        .header("Authorization", "Bearer " + TOKEN)
        .POST(HttpRequest.BodyPublishers.ofString(form));
    if (guard) {
      b.header(AdminServlet.GUARD_HEADER, "1");
    }
    return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }
}
