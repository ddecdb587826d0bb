package dev.hookledger.runtime.cli;

import static dev.hookledger.runtime.admin.LedgerFixture.NOW;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hookledger.internal.Json;
import dev.hookledger.runtime.admin.EffectFixture;
import dev.hookledger.runtime.admin.LedgerFixture;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The outbox's operator commands: status, list --effects, show, retry --effect(s), pause and resume. */
class EffectCommandsTest {
  private static final String REFUSED = "HTTP 503 from https://mail.example.com: Service Unavailable";

  private final LedgerFixture ledger = new LedgerFixture();
  private final EffectFixture effects = new EffectFixture(ledger);
  private final String url = ledger.database.jdbcUrl();

  @Test
  void statusShowsEachDestinationsBacklogBreakerAndPause() throws Exception {
    effects.effect("stripe", "evt_1", "receipts").status("dead").attempts(16).lastError(REFUSED).insert();
    effects.effect("stripe", "evt_2", "receipts").insert();
    effects.state("receipts", "open", 10, true);

    CliProcess.Result r = CliProcess.run(Map.of(), "status", "--database-url", url);

    assertEquals(0, r.exitCode(), r.err());
    List<String> lines = r.out().lines().toList();
    int at = lines.indexOf("effects per destination (sent effects are not counted):");
    assertTrue(at > 0, r.out());
    assertEquals("DESTINATION  PENDING  SENDING  DEAD  OLDEST WAITING  BREAKER             PAUSED  RATE/S", lines.get(at + 1));
    List<String> cells = List.of(lines.get(at + 2).trim().split(" {2,}"));
    assertEquals(List.of("receipts", "1", "0", "1"), cells.subList(0, 4), lines.get(at + 2));
    assertEquals(List.of("open (10 failures)", "paused", "-"), cells.subList(5, 8), lines.get(at + 2));

    JsonNode json = Json.MAPPER.readTree(CliProcess.run(Map.of(), "--json", "status", "--database-url", url).out());
    assertEquals("open", json.get("destinations").get(0).get("breaker").asText());
    assertEquals(1, json.get("destinations").get(0).get("dead").asInt());
  }

  @Test
  void listEffectsNarrowsByDestinationStatusAndCause() throws Exception {
    var dead = effects.effect("stripe", "evt_1", "receipts").status("dead").attempts(16).lastStatusCode(503)
        .lastError(REFUSED).insert();
    effects.effect("stripe", "evt_2", "chat").status("dead").attempts(16).lastError(REFUSED).insert();
    effects.effect("stripe", "evt_3", "receipts").insert();

    CliProcess.Result r = CliProcess.run(Map.of(), "list", "--effects", "--destination", "receipts", "--status", "DEAD",
        "--cause", REFUSED, "--database-url", url);

    assertEquals(0, r.exitCode(), r.err());
    List<String> lines = r.out().lines().toList();
    assertEquals(2, lines.size(), r.out());
    assertTrue(lines.get(0).startsWith("CREATED               DESTINATION  STATUS  ATTEMPTS  HTTP  EVENT         KEY"),
        lines.get(0));
    assertEquals("2025-03-01T12:00:00Z  receipts     dead          16   503  stripe evt_1  " + dead.key + "  " + REFUSED,
        lines.get(1));

    CliProcess.Result bad = CliProcess.run(Map.of(), "list", "--effects", "--status", "gone", "--database-url", url);
    assertEquals(List.of("hookledger: an effect's status is pending, sending, done or dead, but was 'gone' (see --help)"),
        bad.errLines());
  }

  @Test
  void showListsAnEventsEffectsWithEveryAttemptAndTheAnswerEscaped() throws Exception {
    ledger.row("stripe", "evt_1").status("done").settledAt(NOW).insert();
    var receipt = effects.effect("stripe", "evt_1", "receipts").name("receipt").status("done").attempts(2).insert();
    effects.attempt(receipt, 1, 503, "retry", "down\u001b[2J\u202eevil", "HTTP 503");
    effects.attempt(receipt, 2, 200, "done", "{\"ok\":true}", null);

    CliProcess.Result r = CliProcess.run(Map.of(), "show", "stripe", "evt_1", "--database-url", url);

    assertEquals(0, r.exitCode(), r.err());
    String out = r.out();
    assertTrue(out.contains("effects (1):\n  receipt from Billing.paid: POST /v1/receipts to receipts, done after 2"
        + " attempts\n    key " + receipt.key + ", created 2025-03-01T12:00:00Z\n"), out);
    assertTrue(out.contains("    attempt 1 2025-03-01T12:00:01Z on node-a, 12 ms: retry, HTTP 503, HTTP 503\n"
        + "      down\\u001b[2J\\u202eevil\n"), out);
    assertTrue(out.contains("    attempt 2 2025-03-01T12:00:02Z on node-a, 12 ms: done, HTTP 200\n      {\"ok\":true}\n"),
        out);
    assertFalse(out.contains("\u001b"), "no escape reaches the terminal");

    JsonNode json = Json.MAPPER.readTree(CliProcess.run(Map.of(), "--json", "show", "stripe", "evt_1",
        "--database-url", url).out());
    assertEquals("down\u001b[2J\u202eevil", json.get("effects").get(0).get("attempts").get(0).get("responseExcerpt").asText());
  }

  @Test
  void retryEffectsAsksForTheCountThenTakesExactlyTheConfirmedOnes() throws Exception {
    var a = effects.effect("stripe", "evt_1", "receipts").status("dead").attempts(16).lastError(REFUSED).insert();
    var b = effects.effect("stripe", "evt_2", "receipts").status("dead").attempts(16).lastError(REFUSED).insert();
    var chat = effects.effect("stripe", "evt_3", "chat").status("dead").attempts(16).lastError(REFUSED).insert();

    CliProcess.Result asked = CliProcess.run(Map.of(), "retry", "--effects", "--dead", "--destination", "receipts",
        "--database-url", url);
    assertEquals(3, asked.exitCode());
    assertEquals(List.of("hookledger: retry would take 2 dead effects of destination receipts; nothing was retried:"
        + " pass --confirm 2 to retry them"), asked.errLines());

    CliProcess.Result wrong = CliProcess.run(Map.of(), "retry", "--effects", "--dead", "--destination", "receipts",
        "--confirm", "3", "--database-url", url);
    assertEquals(List.of("hookledger: there are 2 dead effects of destination receipts now, not the 3 confirmed:"
        + " nothing was retried; look again and confirm 2"), wrong.errLines());

    CliProcess.Result r = CliProcess.run(Map.of(), "retry", "--effects", "--dead", "--destination", "receipts",
        "--confirm", "2", "--database-url", url);
    assertEquals(0, r.exitCode(), r.err());
    assertEquals("retried 2 dead effects of destination receipts: pending, due now\n", r.out());
    assertEquals("pending", effects.statusOf(a));
    assertEquals("pending", effects.statusOf(b));
    assertEquals("dead", effects.statusOf(chat));

    CliProcess.Result one = CliProcess.run(Map.of(), "retry", "--effect", chat.key.toString(), "--database-url", url);
    assertEquals(0, one.exitCode(), one.err());
    assertEquals("retried effect " + chat.key + ": pending, due now\n", one.out());
    assertEquals("pending", effects.statusOf(chat));
  }

  @Test
  void pauseAndResumeADestination() throws Exception {
    effects.effect("stripe", "evt_1", "receipts").insert();
    CliProcess.Result paused = CliProcess.run(Map.of(), "pause", "receipts", "--database-url", url);
    assertEquals(0, paused.exitCode(), paused.err());
    assertEquals("paused receipts: its effects wait until resumed\n", paused.out());
    assertEquals("receipts was paused already\n", CliProcess.run(Map.of(), "pause", "receipts", "--database-url", url).out());
    assertTrue(ledger.admin().outbox().destinations().get(0).paused());

    assertEquals("resumed receipts\n", CliProcess.run(Map.of(), "resume", "receipts", "--database-url", url).out());
    assertEquals("receipts was not paused\n", CliProcess.run(Map.of(), "resume", "receipts", "--database-url", url).out());
  }

  @Test
  void pauseOrResumeOfADestinationNobodyKnowsIsRefusedNamingTheKnownOnes() throws Exception {
    effects.effect("stripe", "evt_1", "receipts").insert();
    CliProcess.Result resume = CliProcess.run(Map.of(), "resume", "reciepts", "--database-url", url);
    assertEquals(3, resume.exitCode());
    assertEquals(List.of("hookledger: resume reciepts: no such destination (known: receipts); nothing was changed"),
        resume.errLines());
    CliProcess.Result pause = CliProcess.run(Map.of(), "pause", "reciepts", "--database-url", url);
    assertEquals(3, pause.exitCode());
    assertEquals(List.of("hookledger: pause reciepts: no such destination (known: receipts); nothing was changed"),
        pause.errLines());
    assertEquals(1, ledger.admin().outbox().destinations().size());
    assertFalse(ledger.admin().outbox().destinations().get(0).paused());
  }
}
