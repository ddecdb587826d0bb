package dev.hookledger.runtime.cli;

import static dev.hookledger.runtime.admin.LedgerFixture.NOW;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hookledger.internal.Json;
import dev.hookledger.runtime.admin.InboxAdmin;
import dev.hookledger.runtime.admin.LedgerFixture;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class HookledgerCliTest {
  private final LedgerFixture ledger = new LedgerFixture();
  private final String url = ledger.database.jdbcUrl();

  @BeforeEach
  void someEvents() {
    ledger.row("stripe", "evt_pending").status("pending").insert();
    ledger.row("stripe", "evt_done").status("done").duplicates(4).settledAt(NOW).insert();
    ledger.row("stripe", "evt_done2").status("done").settledAt(NOW).insert();
    ledger.row("github", "guid-dead").scope("hook-7").type("issues.opened").status("dead").attempts(8)
        .receivedAt(NOW.minus(Duration.ofHours(1)))
        .lastError("java.lang.IllegalStateException: issue 12 not found\n\tat com.acme.Issues.opened(Issues.java:40)")
        .insert();
  }

  @Test
  void statusPrintsAnAlignedTable() throws Exception {
    CliProcess.Result r = CliProcess.run(Map.of(), "status", "--database-url", url);

    assertEquals(0, r.exitCode(), r.err());
    List<String> lines = r.out().lines().toList();
    assertEquals(List.of(
        "PROVIDER  STATUS   EVENTS  DUPLICATES",
        "github    dead          1           0",
        "stripe    pending       1           0",
        "stripe    done          2           4"), lines.subList(0, 4));
    assertTrue(lines.contains("dead:       1 (hookledger list --status dead)"), r.out());
    assertTrue(lines.contains("duplicates: 4 deliveries acknowledged without processing"), r.out());
    assertTrue(lines.stream().anyMatch(l -> l.startsWith("waiting:    1 (oldest ")), r.out());
    assertEquals("", r.err());
  }

  @Test
  void statusAsJsonWithTheDatabaseFromTheEnvironment() throws Exception {
    CliProcess.Result r = CliProcess.run(Map.of("HOOKLEDGER_DATABASE_URL", url), "--json", "status");

    assertEquals(0, r.exitCode(), r.err());
    JsonNode json = Json.MAPPER.readTree(r.out());
    assertEquals(4, json.get("total").asInt());
    assertEquals(1, json.get("dead").asInt());
    assertEquals(1, json.get("waiting").asInt());
    assertEquals(4, json.get("duplicates").asInt());
    assertEquals("github", json.get("counts").get(0).get("provider").asText());
    assertEquals("dead", json.get("counts").get(0).get("status").asText());
  }

  @Test
  void listDeadShowsOnlyDeadEventsWithTheFirstLineOfTheirError() throws Exception {
    CliProcess.Result r = CliProcess.run(Map.of(), "list", "--status", "dead", "--database-url", url);

    assertEquals(0, r.exitCode(), r.err());
    List<String> lines = r.out().lines().toList();
    assertEquals(2, lines.size(), r.out() + r.err());
    assertEquals("RECEIVED              PROVIDER  SCOPE   EVENT      TYPE           STATUS  ATTEMPTS  LAST ERROR",
        lines.get(0));
    assertEquals("2025-03-01T11:00:00Z  github    hook-7  guid-dead  issues.opened  dead           8"
        + "  java.lang.IllegalStateException: issue 12 not found ...", lines.get(1));

    CliProcess.Result json = CliProcess.run(Map.of(), "list", "--status", "dead", "--json", "--database-url", url);
    JsonNode events = Json.MAPPER.readTree(json.out()).get("events");
    assertEquals(1, events.size());
    assertTrue(events.get(0).get("lastError").asText().contains("Issues.java:40"), "JSON keeps the whole error");
  }

  @Test
  void retryDeadSetsDeadEventsPending() throws Exception {
    CliProcess.Result r = CliProcess.run(Map.of(), "retry", "--dead", "--database-url", url);

    assertEquals(0, r.exitCode(), r.err());
    assertEquals("retried 1 dead events\n", r.out());
    assertEquals("pending", ledger.statusOf("github", "hook-7", "guid-dead"));
  }

  @Test
  void retryingAnEventThatIsNotDeadIsRefusedWithExitCode3() throws Exception {
    CliProcess.Result r = CliProcess.run(Map.of(), "retry", "stripe", "evt_done", "--database-url", url);

    assertEquals(3, r.exitCode());
    assertEquals(List.of("hookledger: stripe event evt_done is done, not dead: only dead events are retried"
        + " (force it to run a settled event's handlers again)"), r.errLines());
    assertEquals("done", ledger.statusOf("stripe", "", "evt_done"));
  }

  @Test
  void pruneRefusesAShortWindowWithOneLineAndExitCode3() throws Exception {
    CliProcess.Result r = CliProcess.run(Map.of(), "prune", "--older-than", "1d", "--database-url", url);

    assertEquals(3, r.exitCode());
    assertEquals(List.of("hookledger: refusing to prune events settled less than 3d ago (asked: 1d): providers"
        + " still redeliver them (automatic retries and redelivery by hand last up to 3 days) and an id pruned"
        + " before its last redelivery is processed twice; use a window of at least 3d, or force it"), r.errLines());
    assertEquals("", r.out());
    assertEquals(4, ledger.count());

    CliProcess.Result forced = CliProcess.run(Map.of(), "prune", "--older-than", "30d", "--database-url", url);
    assertEquals(0, forced.exitCode(), forced.err());
    assertTrue(forced.out().startsWith("pruned 2 settled events (settled before "), forced.out());
    assertEquals(2, ledger.count(), "the pending and the dead event stay");
  }

  @Test
  void migrateAppliesTheLedgerToTheGivenSchemaEvenAReservedWord() throws Exception {
    CliProcess.Result r = CliProcess.run(Map.of(), "migrate", "--schema", "order", "--database-url", url);

    assertEquals(0, r.exitCode(), r.err());
    assertEquals("ledger schema order is up to date\n", r.out());
    assertEquals(0, InboxAdmin.builder(ledger.database.dataSource()).schema("order").build().status().total());
    assertEquals(4, ledger.count(), "the ledger in the default schema is untouched");
  }

  @Test
  void anUnreachableDatabaseFailsWithOneLineAndThePasswordMasked() throws Exception {
    CliProcess.Result r = CliProcess.run(Map.of(), "status",
        "--database-url", "jdbc:postgresql://127.0.0.1:1/ledger?user=ops&password=hunter2secret");

    assertEquals(1, r.exitCode());
    assertEquals(1, r.errLines().size(), r.err());
    String line = r.errLines().get(0);
    assertTrue(line.startsWith("hookledger: ledger database failure: Connection to 127.0.0.1:1 refused"), line);
    assertTrue(line.endsWith("(database jdbc:postgresql://127.0.0.1:1/ledger?user=ops&password=****)"), line);
    assertFalse(r.err().contains("hunter2secret"));
    assertFalse(r.out().contains("hunter2secret"));
  }

  @Test
  void usageErrorsExitWith2() throws Exception {
    CliProcess.Result noDatabase = CliProcess.run(Map.of(), "status");
    assertEquals(2, noDatabase.exitCode());
    assertEquals(List.of("hookledger: no database: pass --database-url or set HOOKLEDGER_DATABASE_URL (see --help)"),
        noDatabase.errLines());

    CliProcess.Result both = CliProcess.run(Map.of(), "retry", "stripe", "evt_1", "--dead", "--database-url", url);
    assertEquals(2, both.exitCode());
    assertEquals(List.of("hookledger: name one event (PROVIDER EVENT_ID) or pass --dead (see --help)"), both.errLines());
    assertEquals("dead", ledger.statusOf("github", "hook-7", "guid-dead"));
  }

  @Test
  void replayRecordsMissedEventsWithSettingsFromTheEnvironmentAndSkipsKnownOnes() throws Exception {
    ledger.row("fixture", "f_2").status("done").settledAt(NOW).insert();

    CliProcess.Result r = CliProcess.run(Map.of("HOOKLEDGER_FIXTURE_API_KEY", "key-123"),
        "replay", "fixture", "--since", "2h", "--set", "events=f_1,f_2,f_3", "--json", "--database-url", url);

    assertEquals(0, r.exitCode(), r.err());
    JsonNode report = Json.MAPPER.readTree(r.out());
    assertEquals(3, report.get("fetched").asInt());
    assertEquals(2, report.get("recorded").asInt());
    assertEquals(1, report.get("alreadyReceived").asInt());
    assertEquals("pending", ledger.statusOf("fixture", "", "f_1"));
    assertEquals("done", ledger.statusOf("fixture", "", "f_2"));
  }

  @Test
  void replayReportsAMissingSettingUnknownProviderAndUnsupportedProviderPlainly() throws Exception {
    CliProcess.Result noKey = CliProcess.run(Map.of(), "replay", "fixture", "--since", "1d", "--database-url", url);
    assertEquals(2, noKey.exitCode());
    assertEquals(List.of("hookledger: fixture replay needs the setting api-key (HOOKLEDGER_FIXTURE_API_KEY)"),
        noKey.errLines());

    CliProcess.Result stripe = CliProcess.run(Map.of(), "replay", "stripe", "--since", "1d", "--database-url", url);
    assertEquals(2, stripe.exitCode());
    assertEquals(List.of("hookledger: no replay source for provider 'stripe' on the class path: add the provider's"
        + " module, e.g. dev.hookledger:hookledger-stripe, or one with its ReplaySourceFactory (found: fixture, noapi)"), stripe.errLines());

    CliProcess.Result noApi = CliProcess.run(Map.of(), "replay", "noapi", "--since", "1d", "--database-url", url);
    assertEquals(2, noApi.exitCode());
    assertEquals(List.of("hookledger: " + NoApiReplaySourceFactory.MESSAGE), noApi.errLines());
  }
}
