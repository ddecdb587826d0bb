package dev.hookledger.runtime.admin;

import static dev.hookledger.runtime.admin.LedgerFixture.NOW;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hookledger.internal.Json;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class AdminServletTest {
  static final String TOKEN = "admin-token-0123456789abcdef";
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
    context.addServlet(new ServletHolder(new AdminServlet(ledger.admin(), AdminAuthorizer.bearerToken(TOKEN))),
        "/admin/*");
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
  void pageShowsCountsAgeAndTheDeadEventsEscapedError() throws Exception {
    HttpResponse<String> r = get("/", "text/html");

    assertEquals(200, r.statusCode());
    assertEquals("text/html;charset=utf-8", r.headers().firstValue("Content-Type").orElseThrow());
    String html = r.body();
    assertTrue(html.contains("<tr><td>stripe</td><td class=\"n\">1</td><td class=\"n\">0</td>"
        + "<td class=\"n\">1</td><td class=\"n\">0</td><td class=\"n\">0</td><td class=\"n\">0</td></tr>"), html);
    assertTrue(html.contains("<p id=\"waiting\">waiting: 1 (oldest 3m 0s)</p>"), html);
    assertTrue(html.contains("<p id=\"dead\">dead: 1</p>"), html);
    assertTrue(html.contains("<pre>&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &quot;quoted&quot;</pre>"), html);
    assertFalse(html.contains(EVIL_ERROR));
    assertTrue(html.contains("<td>guid-&lt;1&gt;</td>"), html);
    assertTrue(html.contains("<input type=\"hidden\" name=\"eventId\" value=\"guid-&lt;1&gt;\">"), html);
    assertTrue(html.contains("action=\"/app/admin/retry\""), html);
    assertTrue(html.contains("retry all dead"), html);
    String csp = r.headers().firstValue("Content-Security-Policy").orElseThrow();
    String nonce = csp.replaceAll(".*script-src 'nonce-([^']+)'.*", "$1");
    assertTrue(html.contains("<script nonce=\"" + nonce + "\">"), "the page's only script carries the nonce");
    assertEquals("no-store", r.headers().firstValue("Cache-Control").orElseThrow());
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
    assertEquals("guid-<1>", both.get("dead").get("events").get(0).get("eventId").asText());
  }

  @Test
  void retryWithoutTheGuardHeaderIsForbiddenAndChangesNothing() throws Exception {
    HttpResponse<String> r = post("/retry", "provider=github&scope=hook-7&eventId=guid-%3C1%3E", false);

    assertEquals(403, r.statusCode());
    assertEquals("a retry needs the header X-Hookledger-Admin: 1 (cross-site request guard)",
        Json.MAPPER.readTree(r.body()).get("error").asText());
    assertEquals("dead", ledger.statusOf("github", "hook-7", "guid-<1>"));
    assertEquals(403, post("/retry-dead", "", false).statusCode());
    assertEquals("dead", ledger.statusOf("github", "hook-7", "guid-<1>"));
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
    assertEquals("stripe event evt_done is done, not dead: only dead events are retried"
        + " (force it to run a settled event's handlers again)", Json.MAPPER.readTree(refused.body()).get("error").asText());
    assertEquals(400, post("/retry", "provider=stripe", true).statusCode());

    HttpResponse<String> all = post("/retry-dead", "", true);
    assertEquals(200, all.statusCode());
    assertEquals(1, Json.MAPPER.readTree(all.body()).get("retried").asInt());
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
      for (String path : new String[] {"/", "/status.json", "/dead.json", "/health.json", "/nowhere"}) {
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
            .POST(HttpRequest.BodyPublishers.ofString("provider=github&scope=hook-7&eventId=guid-%3C1%3E")), authorization);
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
    HttpResponse<String> retry = send(HttpRequest.newBuilder(URI.create(closed + "/retry-dead"))
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
    return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  private static String basic(String user, String password) {
    return java.util.Base64.getEncoder().encodeToString((user + ":" + password).getBytes(
        java.nio.charset.StandardCharsets.UTF_8));
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
