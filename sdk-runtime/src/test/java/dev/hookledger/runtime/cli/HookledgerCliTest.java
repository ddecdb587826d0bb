package dev.hookledger.runtime.cli;

import static dev.hookledger.runtime.admin.LedgerFixture.NOW;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hookledger.internal.Json;
import dev.hookledger.runtime.admin.InboxAdmin;
import dev.hookledger.runtime.admin.InboxStatus;
import dev.hookledger.runtime.admin.LedgerFixture;
import dev.hookledger.runtime.internal.ledger.LedgerMigration;
import dev.hookledger.runtime.testing.Await;
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

  /**
   * More waiting events than status counts (a bulk retry leaves a million): the waiting and stuck
   * lines say "over" the bound rather than print it as a count, and the table says what its waiting
   * rows are.
   */
  @Test
  void statusSaysOverTheBoundWhenMoreEventsWaitThanItCounts() throws Exception {
    ledger.sql.execute("insert into hookledger.event (provider, event_id, type, body, available_at)"
        + " select 'stripe', 'evt_wait_' || i, 'invoice.paid', '\\x7b7d', now() - interval '1 hour'"
        + " from generate_series(1, " + InboxStatus.COUNTED + ") i");
    CliProcess.Result r = CliProcess.run(Map.of(), "status", "--database-url", url);

    assertEquals(0, r.exitCode(), r.err());
    List<String> lines = r.out().lines().toList();
    assertTrue(lines.contains("(pending and processing: of the 10001 events due first; more wait)"), r.out());
    assertTrue(lines.stream().anyMatch(l -> l.startsWith("waiting:    over 10000 (oldest ")), r.out());
    assertTrue(lines.stream().anyMatch(l -> l.startsWith("stuck:      over 10000 due for over 2m")), r.out());
    assertTrue(lines.contains("failing:    0"), r.out());
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
  void listDeadShowsOnlyDeadEventsWithAttemptOfNAndTheRootCauseInOneLine() throws Exception {
    CliProcess.Result r = CliProcess.run(Map.of(), "list", "--status", "dead", "--database-url", url);

    assertEquals(0, r.exitCode(), r.err());
    List<String> lines = r.out().lines().toList();
    assertEquals(2, lines.size(), r.out() + r.err());
    assertEquals("RECEIVED              PROVIDER  SCOPE   EVENT      TYPE           STATUS  ATTEMPT  NEXT ATTEMPT  CAUSE",
        lines.get(0));
    assertEquals("2025-03-01T11:00:00Z  github    hook-7  guid-dead  issues.opened  dead    8 of 12  -             "
        + "IllegalStateException: issue 12 not found", lines.get(1));

    CliProcess.Result json = CliProcess.run(Map.of(), "list", "--status", "dead", "--json", "--database-url", url);
    JsonNode events = Json.MAPPER.readTree(json.out()).get("events");
    assertEquals(1, events.size());
    assertTrue(events.get(0).get("lastError").asText().contains("Issues.java:40"), "JSON keeps the whole error");
  }

  @Test
  void retryDeadAsksForTheCountThenRetriesAllDeadEventsWhenItIsConfirmed() throws Exception {
    CliProcess.Result asked = CliProcess.run(Map.of(), "retry", "--dead", "--database-url", url);
    assertEquals(3, asked.exitCode());
    assertEquals(List.of("hookledger: retry --dead would set 1 dead events back to pending; nothing was retried:"
        + " pass --confirm 1 to retry them"), asked.errLines());
    assertEquals("dead", ledger.statusOf("github", "hook-7", "guid-dead"));

    CliProcess.Result wrong = CliProcess.run(Map.of(), "retry", "--dead", "--confirm", "2", "--database-url", url);
    assertEquals(3, wrong.exitCode());
    assertEquals(List.of("hookledger: there are 1 dead events now, not the 2 confirmed: nothing was retried;"
        + " look again and confirm 1"), wrong.errLines());

    CliProcess.Result r = CliProcess.run(Map.of(), "retry", "--dead", "--confirm", "1", "--database-url", url);
    assertEquals(0, r.exitCode(), r.err());
    assertEquals("retried 1 dead events: pending, due now\n", r.out());
    assertEquals("pending", ledger.statusOf("github", "hook-7", "guid-dead"));
  }

  @Test
  void retryFailingWithACauseAsksForTheCountThenMakesExactlyThoseEventsDueNow() throws Exception {
    java.time.Instant later = ledger.databaseNow().plus(Duration.ofHours(1));
    String gone = "java.lang.IllegalStateException: relation sample.balance does not exist\n\tat a.B.c(B.java:1)";
    ledger.row("stripe", "evt_f1").attempts(2).lastError(gone).availableAt(later).insert();
    ledger.row("stripe", "evt_f2").attempts(3).lastError(gone).availableAt(later).insert();
    ledger.row("stripe", "evt_f3").attempts(3).lastError("java.io.IOException: timeout\n\tat a.B.c(B.java:1)")
        .availableAt(later).insert();
    String cause = "IllegalStateException: relation sample.balance does not exist";

    CliProcess.Result asked = CliProcess.run(Map.of(), "retry", "--failing", "--cause", cause, "--database-url", url);
    assertEquals(3, asked.exitCode());
    assertEquals(List.of("hookledger: retry would take 2 failing events of cause '" + cause + "'; nothing was retried:"
        + " pass --confirm 2 to retry them"), asked.errLines());

    CliProcess.Result wrong = CliProcess.run(Map.of(), "retry", "--failing", "--cause", cause, "--confirm", "3",
        "--database-url", url);
    assertEquals(3, wrong.exitCode());
    assertEquals(List.of("hookledger: there are 2 failing events of cause '" + cause + "' now, not the 3 confirmed:"
        + " nothing was retried; look again and confirm 2"), wrong.errLines());

    CliProcess.Result r = CliProcess.run(Map.of(), "retry", "--failing", "--cause", cause, "--confirm", "2", "--json",
        "--database-url", url);
    assertEquals(0, r.exitCode(), r.err());
    assertEquals(2, Json.MAPPER.readTree(r.out()).get("retried").asInt());
    InboxAdmin admin = ledger.admin();
    assertTrue(admin.show("stripe", "", "evt_f1").orElseThrow().summary().availableAt().isBefore(later));
    assertTrue(admin.show("stripe", "", "evt_f2").orElseThrow().summary().availableAt().isBefore(later));
    assertEquals(later, admin.show("stripe", "", "evt_f3").orElseThrow().summary().availableAt());
  }

  @Test
  void statusActivityPrintsReceivedAndSettledPerMinuteForTheLastHour() throws Exception {
    java.time.Instant now = ledger.databaseNow();
    java.time.Instant received = now.minus(Duration.ofMinutes(5));
    ledger.row("stripe", "evt_recent").status("done").receivedAt(received).settledAt(received.plusMillis(30)).insert();
    ledger.row("stripe", "evt_recent2").receivedAt(received).insert();
    ledger.row("stripe", "evt_old").status("done").receivedAt(now.minus(Duration.ofHours(3)))
        .settledAt(now.minus(Duration.ofHours(3))).insert();

    CliProcess.Result text = CliProcess.run(Map.of(), "status", "--activity", "--database-url", url);
    assertEquals(0, text.exitCode(), text.err());
    assertEquals("last hour: 2 received, 1 settled; peak 2 a minute", text.out().lines().findFirst().orElseThrow());
    assertEquals(List.of("MINUTE (UTC)", "RECEIVED", "SETTLED"), List.of(text.out().lines().skip(1).findFirst()
        .orElseThrow().trim().split("\\s{2,}")));
    assertEquals(2 + 60, text.out().lines().count(), "a line a minute: " + text.out());
    String minute = received.truncatedTo(java.time.temporal.ChronoUnit.MINUTES).toString().substring(11, 16);
    assertTrue(text.out().lines().anyMatch(l -> l.matches(minute + "\\s+2\\s+1")), text.out());

    CliProcess.Result json = CliProcess.run(Map.of(), "status", "--activity", "--json", "--database-url", url);
    JsonNode minutes = Json.MAPPER.readTree(json.out()).get("minutes");
    assertEquals(60, minutes.size());
    long receivedTotal = 0;
    for (JsonNode m : minutes) {
      receivedTotal += m.get("received").asLong();
    }
    assertEquals(2, receivedTotal, "nothing from three hours ago");
  }

  @Test
  void retryDeadNarrowedByProviderAndTypeRetriesOnlyThose() throws Exception {
    ledger.row("stripe", "evt_dead").type("issues.opened").status("dead").attempts(12).insert();

    CliProcess.Result r = CliProcess.run(Map.of(), "retry", "--dead", "--provider", "github", "--type", "issues.*",
        "--confirm", "1", "--database-url", url);

    assertEquals(0, r.exitCode(), r.err());
    assertEquals("retried 1 dead events of provider github, type issues.*: pending, due now\n", r.out());
    assertEquals("pending", ledger.statusOf("github", "hook-7", "guid-dead"));
    assertEquals("dead", ledger.statusOf("stripe", "", "evt_dead"));
  }

  @Test
  void retryMakesAFailingEventDueNowAndShowNamesTheScopeAnEventIsUnder() throws Exception {
    ledger.row("stripe", "evt_failing").status("pending").attempts(2).lastError("x")
        .availableAt(ledger.databaseNow().plus(Duration.ofHours(1))).insert();

    CliProcess.Result r = CliProcess.run(Map.of(), "retry", "stripe", "evt_failing", "--database-url", url);
    assertEquals(0, r.exitCode(), r.err());
    assertEquals("retried stripe event evt_failing: pending, due now\n", r.out());

    CliProcess.Result show = CliProcess.run(Map.of(), "show", "github", "guid-dead", "--database-url", url);
    assertEquals(3, show.exitCode());
    assertEquals(List.of("hookledger: github event guid-dead is not in the ledger; found under scope hook-7:"
        + " add --scope hook-7"), show.errLines());
    CliProcess.Result retry = CliProcess.run(Map.of(), "retry", "github", "guid-dead", "--database-url", url);
    assertEquals(3, retry.exitCode());
    assertEquals(List.of("hookledger: github event guid-dead is not in the ledger; found under scope hook-7:"
        + " add --scope hook-7"), retry.errLines());
  }

  @Test
  void showListsEveryAttemptOfTheNTheRuntimeRecordedNotTheCommandLinesOwn() throws Exception {
    ledger.row("stripe", "evt_tried").status("dead").attempts(2).lastError("java.lang.IllegalStateException: second")
        .insert();
    ledger.sql.execute("update hookledger.event set max_attempts = 2 where event_id = 'evt_tried'");
    ledger.sql.execute("insert into hookledger.attempt (provider, scope, event_id, attempt, node, started_at, ended_at,"
        + " duration_ms, outcome, cause, error) values"
        + " ('stripe', '', 'evt_tried', 1, 'web-1/42/ab', '2025-03-01T11:00:00Z', '2025-03-01T11:00:01Z', 1000,"
        + " 'retry', 'IllegalStateException: first', 'java.lang.IllegalStateException: first'),"
        + " ('stripe', '', 'evt_tried', 2, 'web-2/7/cd', '2025-03-01T11:10:00Z', '2025-03-01T11:10:00.250Z', 250,"
        + " 'dead', 'IllegalStateException: second', 'java.lang.IllegalStateException: second')");

    CliProcess.Result show = CliProcess.run(Map.of(), "show", "stripe", "evt_tried", "--max-attempts", "12",
        "--database-url", url);

    assertEquals(0, show.exitCode(), show.err());
    assertTrue(show.out().contains("2 of 2"), show.out());
    assertTrue(show.out().contains("1 of 2   2025-03-01T11:00:00Z  web-1/42/ab  1000 ms   retry    IllegalStateException: first"),
        show.out());
    assertTrue(show.out().contains("2 of 2   2025-03-01T11:10:00Z  web-2/7/cd   250 ms    dead     IllegalStateException: second"),
        show.out());
  }

  @Test
  void listPagingHintKeepsEveryFilter() throws Exception {
    ledger.row("stripe", "evt_pending2").status("pending").receivedAt(NOW.minus(Duration.ofMinutes(1))).insert();
    ledger.row("stripe", "evt_pending3").status("pending").receivedAt(NOW.minus(Duration.ofMinutes(2))).insert();

    CliProcess.Result r = CliProcess.run(Map.of(), "list", "--status", "pending", "--limit", "2", "--database-url", url);

    assertEquals(0, r.exitCode(), r.err());
    List<String> lines = r.out().lines().toList();
    assertEquals(4, lines.size(), r.out());
    String more = lines.get(3);
    assertTrue(more.matches("more: hookledger list --status pending --limit 2 --after \\S+"), more);
    String[] next = (more.substring("more: hookledger ".length()) + " --database-url " + url).split(" ");
    CliProcess.Result page2 = CliProcess.run(Map.of(), next);
    assertEquals(0, page2.exitCode(), page2.err());
    List<String> rows = page2.out().lines().toList();
    assertEquals(2, rows.size(), "only the third pending event, on a page of its own: " + page2.out());
    assertTrue(rows.get(1).contains("evt_pending3"), page2.out());

    CliProcess.Result typed = CliProcess.run(Map.of(), "list", "--schema", "hookledger", "--provider", "github",
        "--type", "issues.*", "--status", "DEAD", "--limit", "1", "--database-url", url);
    assertEquals(0, typed.exitCode(), typed.err());
    assertTrue(typed.out().contains("guid-dead"), typed.out());
  }

  @Test
  void listAcceptsGroupsInAnyCaseAndTypePatternsOrRefusesThemWithTheReason() throws Exception {
    CliProcess.Result waiting = CliProcess.run(Map.of(), "list", "--status", "Waiting", "--database-url", url);
    assertEquals(0, waiting.exitCode(), waiting.err());
    assertEquals(2, waiting.out().lines().count(), waiting.out());
    assertTrue(waiting.out().contains("evt_pending"), waiting.out());

    CliProcess.Result pattern = CliProcess.run(Map.of(), "list", "--type", "issues.*", "--database-url", url);
    assertEquals(0, pattern.exitCode(), pattern.err());
    assertTrue(pattern.out().contains("guid-dead"), pattern.out());

    CliProcess.Result badType = CliProcess.run(Map.of(), "list", "--type", "*.opened", "--database-url", url);
    assertEquals(2, badType.exitCode());
    assertEquals(List.of("hookledger: bad event type pattern '*.opened' ('*' may only end a pattern, as in"
        + " \"invoice.*\", or stand alone as \"*\")"), badType.errLines());
    CliProcess.Result badStatus = CliProcess.run(Map.of(), "list", "--status", "lost", "--database-url", url);
    assertEquals(2, badStatus.exitCode());
    assertEquals(List.of("hookledger: status must be one of pending, processing, done, ignored, stale, dead,"
        + " waiting, failing, stuck, but was 'lost'"), badStatus.errLines());
  }

  @Test
  void pruneDryRunCountsAndDeletesNothing() throws Exception {
    CliProcess.Result r = CliProcess.run(Map.of(), "prune", "--older-than", "3d", "--dry-run", "--database-url", url);

    assertEquals(0, r.exitCode(), r.err());
    assertTrue(r.out().matches("would prune 2 settled events \\(settled before \\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ,"
        + " older than 3d\\); nothing was deleted \\(dry run\\)\n"), r.out());
    assertEquals(4, ledger.count());

    CliProcess.Result json = CliProcess.run(Map.of(), "prune", "--older-than", "3d", "--dry-run", "--json",
        "--database-url", url);
    JsonNode report = Json.MAPPER.readTree(json.out());
    assertEquals(0, report.get("deleted").asLong(), json.out());
    assertEquals(2, report.get("wouldDelete").asLong(), json.out());
    assertTrue(report.get("dryRun").asBoolean(), json.out());
    assertEquals(4, ledger.count());
  }

  @Test
  void controlCharactersFromTheLedgerAreShownNotObeyedAndJsonKeepsThemExactly() throws Exception {
    String hostile = "java.lang.IllegalStateException: \u001b[32mall good\u001b[0m\r\u202eok\u0085";
    ledger.row("stripe", "evt_\u001b[2Jhostile").type("invoice.\u0007paid").status("dead").attempts(3)
        .lastError(hostile).insert();

    CliProcess.Result list = CliProcess.run(Map.of(), "list", "--status", "dead", "--database-url", url);
    CliProcess.Result show = CliProcess.run(Map.of(), "show", "stripe", "evt_\u001b[2Jhostile", "--database-url", url);
    for (CliProcess.Result r : List.of(list, show)) {
      assertEquals(0, r.exitCode(), r.err());
      assertTrue(r.out().chars().noneMatch(c -> TerminalSafeWriter.unsafe((char) c)), r.out());
    }
    assertTrue(list.out().contains("evt_\\u001b[2Jhostile"), list.out());
    assertTrue(list.out().contains("invoice.\\u0007paid"), list.out());
    assertTrue(show.out().contains("IllegalStateException: \\u001b[32mall good\\u001b[0m\\u000d\\u202eok\\u0085"),
        show.out());

    CliProcess.Result json = CliProcess.run(Map.of(), "list", "--status", "dead", "--json", "--database-url", url);
    assertTrue(json.out().chars().noneMatch(c -> TerminalSafeWriter.unsafe((char) c)), json.out());
    JsonNode events = Json.MAPPER.readTree(json.out()).get("events");
    boolean found = false;
    for (JsonNode e : events) {
      if (e.get("eventId").asText().equals("evt_\u001b[2Jhostile")) {
        assertEquals(hostile, e.get("lastError").asText(), "--json keeps the error exactly");
        assertEquals("invoice.\u0007paid", e.get("type").asText());
        found = true;
      }
    }
    assertTrue(found, json.out());
  }

  @Test
  void aRefusedRetryWithJsonWritesAJsonDocumentOnStdout() throws Exception {
    CliProcess.Result r = CliProcess.run(Map.of(), "--json", "retry", "--dead", "--database-url", url);

    assertEquals(3, r.exitCode());
    String refusal = "retry --dead would set 1 dead events back to pending; nothing was retried: pass --confirm 1 to"
        + " retry them";
    assertEquals(List.of("hookledger: " + refusal), r.errLines());
    JsonNode doc = Json.MAPPER.readTree(r.out());
    assertEquals(refusal, doc.get("error").asText());
    assertEquals(3, doc.get("exitCode").asInt());
    assertEquals("dead", ledger.statusOf("github", "hook-7", "guid-dead"));
  }

  @Test
  void attemptsIsTheSameNumberInEveryJsonAndTheHistoryIsAList() throws Exception {
    JsonNode listed = Json.MAPPER.readTree(CliProcess.run(Map.of(), "list", "--status", "dead", "--json",
        "--database-url", url).out()).get("events").get(0);
    JsonNode shown = Json.MAPPER.readTree(CliProcess.run(Map.of(), "show", "github", "guid-dead", "--scope", "hook-7",
        "--json", "--database-url", url).out());

    assertTrue(listed.get("attempts").isInt(), listed.toString());
    assertTrue(shown.get("attempts").isInt(), shown.toString());
    assertEquals(8, listed.get("attempts").asInt());
    assertEquals(8, shown.get("attempts").asInt());
    assertTrue(shown.get("attemptHistory").isArray(), shown.toString());
  }

  @Test
  void retryingAnEventThatIsNotDeadIsRefusedWithExitCode3() throws Exception {
    CliProcess.Result r = CliProcess.run(Map.of(), "retry", "stripe", "evt_done", "--database-url", url);

    assertEquals(3, r.exitCode());
    assertEquals(List.of("hookledger: stripe event evt_done is done, not dead: only dead and failing events are retried"
        + " (pass --force to run a settled event's handlers again)"), r.errLines());
    assertEquals("done", ledger.statusOf("stripe", "", "evt_done"));
  }

  @Test
  void pruneRefusesAShortWindowWithOneLineAndExitCode3() throws Exception {
    CliProcess.Result r = CliProcess.run(Map.of(), "prune", "--older-than", "1d", "--database-url", url);

    assertEquals(3, r.exitCode());
    assertEquals(List.of("hookledger: refusing to prune events settled less than 3d ago (asked: 1d): providers"
        + " still redeliver them (automatic retries and redelivery by hand last up to 3 days) and an id pruned"
        + " before its last redelivery is processed twice; use a window of at least 3d, or pass --force"), r.errLines());
    assertEquals("", r.out());
    assertEquals(4, ledger.count());

    CliProcess.Result forced = CliProcess.run(Map.of(), "prune", "--older-than", "30d", "--database-url", url);
    assertEquals(0, forced.exitCode(), forced.err());
    assertTrue(forced.out().matches("pruned 2 settled events \\(settled before \\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ,"
        + " older than 30d\\) in 1 batches\n"), "timestamps to the second: " + forced.out());
    assertEquals(2, ledger.count(), "the pending and the dead event stay");
  }

  @Test
  void migrateAppliesTheLedgerToTheGivenSchemaEvenAReservedWord() throws Exception {
    CliProcess.Result r = CliProcess.run(Map.of(), "migrate", "--schema", "order", "--database-url", url);

    assertEquals(0, r.exitCode(), r.err());
    String database = ledger.sql.fetchSingle("select current_database()").get(0, String.class);
    int version = InboxAdmin.latestSchemaVersion();
    assertEquals("created ledger schema order in database " + database + " at version " + version + "\n", r.out());
    CliProcess.Result again = CliProcess.run(Map.of(), "migrate", "--schema", "order", "--database-url", url);
    assertEquals("ledger schema order in database " + database + " is up to date (version " + version + ")\n",
        again.out());
    assertEquals(0, Await.read("status", InboxAdmin.builder(ledger.database.forRuntime()).schema("order").build()::status)
        .total());
    assertEquals(4, ledger.count(), "the ledger in the default schema is untouched");
  }

  @Test
  void migrateDryRunPrintsTheSqlOfEachMissingVersionAndAppliesNothing() throws Exception {
    // a ledger as the migrate() of a build that knew V1 only left it
    ledger.sql.execute(LedgerMigration.ALL.get(0).sql("older"));

    CliProcess.Result r = CliProcess.run(Map.of(), "migrate", "--dry-run", "--schema", "older", "--database-url", url);

    assertEquals(0, r.exitCode(), r.err());
    String database = ledger.sql.fetchSingle("select current_database()").get(0, String.class);
    assertTrue(r.out().startsWith("-- ledger schema older in database " + database + " is at version 1;"
        + " this hookledger needs " + InboxAdmin.latestSchemaVersion() + "\n\n-- V2 (status counts): in one transaction\n"
        + "CREATE TABLE IF NOT EXISTS \"older\".schema_version ("), r.out());
    assertTrue(r.out().contains("\n\n-- V3 (operator indexes): one statement at a time, outside a transaction\n"
        + "CREATE INDEX CONCURRENTLY IF NOT EXISTS event_received_idx\n  ON \"older\".event (received_at);"), r.out());
    assertTrue(r.out().endsWith("\n\n-- nothing was applied (dry run)\n"), r.out());
    assertEquals(1, InboxAdmin.builder(ledger.database.dataSource()).schema("older").build().schemaVersion());
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
    assertEquals(List.of("hookledger: name one event (PROVIDER EVENT_ID) or pass --dead or --failing (see --help)"), both.errLines());
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
