package dev.hookledger.runtime.admin.web;

import static dev.hookledger.runtime.admin.LedgerFixture.NOW;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hookledger.internal.Json;
import dev.hookledger.runtime.admin.AdminAuthorizer;
import dev.hookledger.runtime.admin.EffectFixture;
import dev.hookledger.runtime.admin.LedgerFixture;
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

/** The outbox on the admin page, over real HTTP: an event's effects, the destinations view and their actions. */
class EffectPagesTest {
  private static final String TOKEN = "admin-token-0123456789abcdef";
  private static final String EVIL = "<script>alert('x')</script>\u202e";

  private final LedgerFixture ledger = new LedgerFixture();
  private final EffectFixture effects = new EffectFixture(ledger);
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  private Server server;
  private String base;

  @BeforeEach
  void start() throws Exception {
    server = new Server();
    ServerConnector connector = new ServerConnector(server);
    connector.setPort(0);
    server.addConnector(connector);
    ServletContextHandler context = new ServletContextHandler("/app");
    context.addServlet(new ServletHolder(new AdminServlet(ledger.admin(), AdminAuthorizer.bearerToken(TOKEN))),
        "/admin/*");
    server.setHandler(context);
    server.start();
    base = "http://localhost:" + connector.getLocalPort() + "/app/admin";
  }

  @AfterEach
  void stop() throws Exception {
    server.stop();
  }

  @Test
  void anEventsPageShowsItsEffectsWithEveryAttemptTheAnswerEscapedAndARetryForTheDeadOne() throws Exception {
    ledger.row("stripe", "evt_1").status("done").settledAt(NOW).insert();
    var dead = effects.effect("stripe", "evt_1", "receipts").name("receipt").status("dead").attempts(1).insert();
    effects.attempt(dead, 1, 400, "dead", EVIL, "HTTP 400");

    HttpResponse<String> r = get("/event?provider=stripe&eventId=evt_1", "text/html");

    assertEquals(200, r.statusCode());
    String html = r.body();
    assertTrue(html.contains("<table id=\"effects\">"), html);
    assertTrue(html.contains("receipt from Billing.paid<br><span class=\"muted\">POST /v1/receipts</span></td><td>receipts"
        + "</td><td>dead</td><td>1</td>"), html);
    assertTrue(html.contains(": dead, HTTP 400, HTTP 400<pre class=\"response\">&lt;script&gt;alert(&#39;x&#39;)"
        + "&lt;/script&gt;"), html);
    assertFalse(html.contains("<script>alert"), html);
    assertTrue(html.contains("action=\"/app/admin/retry-effect\"><input type=\"hidden\" name=\"scope\" value=\"\">"
        + "<input type=\"hidden\" name=\"key\" value=\"" + dead.key + "\">"), html);

    JsonNode json = Json.MAPPER.readTree(get("/event.json?provider=stripe&eventId=evt_1", "application/json").body());
    assertEquals(400, json.get("effects").get(0).get("attempts").get(0).get("statusCode").asInt());

    HttpResponse<String> retried = post("/retry-effect", "scope=&key=" + dead.key);
    assertEquals(200, retried.statusCode(), retried.body());
    assertEquals("pending", effects.statusOf(dead));
  }

  @Test
  void theDestinationsViewShowsBreakerRateAndBacklogAndPausesResumesAndRetriesTheDeadAtTheConfirmedCount()
      throws Exception {
    var a = effects.effect("stripe", "evt_1", "receipts").status("dead").attempts(16).insert();
    var b = effects.effect("stripe", "evt_2", "receipts").status("dead").attempts(16).insert();
    effects.effect("stripe", "evt_3", "receipts").insert();
    effects.state("receipts", "open", 10, false);

    String html = get("/destinations", "text/html").body();
    assertTrue(html.contains("<tr><td>receipts</td><td>1</td><td>0</td><td>2</td>"), html);
    assertTrue(html.contains("<td class=\"breaker-open\">open (10 failures)</td><td>-</td>"), html);
    assertTrue(html.contains("action=\"/app/admin/pause\"><input type=\"hidden\" name=\"destination\" value=\"receipts\">"),
        html);
    assertTrue(html.contains("href=\"/app/admin/confirm-retry-effects?status=dead&amp;destination=receipts\""), html);

    String confirm = get("/confirm-retry-effects?status=dead&destination=receipts", "text/html").body();
    assertTrue(confirm.contains("Retry all <b>2</b> dead effects of destination receipts?"), confirm);

    HttpResponse<String> wrong = post("/retry-effects", "status=dead&destination=receipts&confirm=3");
    assertEquals(409, wrong.statusCode());
    assertEquals("there are 2 dead effects of destination receipts now, not the 3 confirmed: nothing was retried;"
        + " look again and confirm 2", Json.MAPPER.readTree(wrong.body()).get("error").asText());
    assertEquals(200, post("/retry-effects", "status=dead&destination=receipts&confirm=2").statusCode());
    assertEquals("pending", effects.statusOf(a));
    assertEquals("pending", effects.statusOf(b));

    assertEquals(200, post("/pause", "destination=receipts").statusCode());
    assertTrue(get("/destinations", "text/html").body().contains(" · <b>paused</b>"));
    JsonNode json = Json.MAPPER.readTree(get("/destinations.json", "application/json").body());
    assertTrue(json.get("destinations").get(0).get("paused").asBoolean());
    assertEquals(200, post("/resume", "destination=receipts").statusCode());
    assertFalse(ledger.admin().outbox().destinations().get(0).paused());

    HttpResponse<String> unguarded = http.send(HttpRequest.newBuilder(URI.create(base + "/pause"))
        .header("Content-Type", "application/x-www-form-urlencoded").header("Authorization", "Bearer " + TOKEN)
        .POST(HttpRequest.BodyPublishers.ofString("destination=receipts")).build(), HttpResponse.BodyHandlers.ofString());
    assertEquals(403, unguarded.statusCode());
    assertFalse(ledger.admin().outbox().destinations().get(0).paused());
  }

  @Test
  void pausingOrResumingADestinationNobodyKnowsIsRefusedNamingTheKnownOnes() throws Exception {
    effects.effect("stripe", "evt_1", "receipts").insert();

    HttpResponse<String> resume = post("/resume", "destination=reciepts");
    assertEquals(409, resume.statusCode());
    assertEquals("resume reciepts: no such destination (known: receipts); nothing was changed",
        Json.MAPPER.readTree(resume.body()).get("error").asText());
    HttpResponse<String> pause = post("/pause", "destination=reciepts");
    assertEquals(409, pause.statusCode());
    assertEquals("pause reciepts: no such destination (known: receipts); nothing was changed",
        Json.MAPPER.readTree(pause.body()).get("error").asText());
    assertEquals(1, ledger.admin().outbox().destinations().size());
    assertFalse(ledger.admin().outbox().destinations().get(0).paused());
  }

  private HttpResponse<String> get(String path, String accept) throws Exception {
    return http.send(HttpRequest.newBuilder(URI.create(base + path)).header("Accept", accept)
        .header("Authorization", "Bearer " + TOKEN).GET().build(), HttpResponse.BodyHandlers.ofString());
  }

  private HttpResponse<String> post(String path, String form) throws Exception {
    return http.send(HttpRequest.newBuilder(URI.create(base + path))
        .header("Content-Type", "application/x-www-form-urlencoded").header("Authorization", "Bearer " + TOKEN)
        .header(AdminServlet.GUARD_HEADER, "1").POST(HttpRequest.BodyPublishers.ofString(form)).build(),
        HttpResponse.BodyHandlers.ofString());
  }
}
