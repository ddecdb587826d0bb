package dev.hookledger.runtime.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hookledger.runtime.admin.LedgerFixture;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code hookledger reconcile} and {@code replay --dry-run}: read the provider's list, write nothing. */
class ReconcileCommandTest {
  private final LedgerFixture ledger = new LedgerFixture();
  private final String url = ledger.database.jdbcUrl();
  private final Map<String, String> env = Map.of("HOOKLEDGER_FIXTURE_API_KEY", "key-123");

  @Test
  void reconcileReportsEachKindOfDifferenceAsTextAndJson() throws Exception {
    Instant in = Instant.now().minusSeconds(3600);
    ledger.row("fixture", "evt_both").type("fixture.created").status("done").receivedAt(in).insert();
    ledger.row("fixture", "evt_failed").type("fixture.created").status("done").receivedAt(in).insert();
    ledger.row("fixture", "evt_ours").type("fixture.created").status("done").receivedAt(in).insert();

    CliProcess.Result r = CliProcess.run(env, "reconcile", "fixture", "--since", "2h", "--set",
        "events=evt_both,evt_failed!,evt_theirs", "--database-url", url);
    assertEquals(0, r.exitCode(), r.err());
    assertTrue(r.out().endsWith(": the provider lists 3 events, the ledger has 3 in the window; nothing was written\n"
        + "missing from the ledger (1):\n"
        + "  evt_theirs  fixture.created  provider: delivered (HTTP 200)\n"
        + "in the ledger, not listed by the provider (1):\n"
        + "  evt_ours  fixture.created  ledger: done\n"
        + "in both, status differs (1):\n"
        + "  evt_failed  fixture.created  provider: failed (HTTP 502)  ledger: done\n"), r.out());

    CliProcess.Result json = CliProcess.run(env, "--json", "reconcile", "fixture", "--since", "2h", "--set",
        "events=evt_both,evt_failed!,evt_theirs", "--database-url", url);
    assertTrue(json.out().contains("\"agrees\" : false"), json.out());
    assertTrue(json.out().contains("\"eventId\" : \"evt_theirs\""), json.out());
    assertEquals(3, ledger.count(), "nothing written");
  }

  @Test
  void replayDryRunShowsWhatItWouldFetchAndWritesNothing() throws Exception {
    ledger.row("fixture", "evt_1").type("fixture.created").status("done").insert();
    CliProcess.Result r = CliProcess.run(env, "replay", "fixture", "--since", "2h", "--dry-run", "--set",
        "events=evt_1,evt_2", "--database-url", url);
    assertEquals(0, r.exitCode(), r.err());
    assertTrue(r.out().contains("(dry run): the provider lists 2 events, 1 not in the ledger would be fetched;"
        + " nothing was written\nwould fetch (1):\n  evt_2  fixture.created  provider: delivered (HTTP 200)"), r.out());
    assertEquals(1, ledger.count());
  }

  @Test
  void aProviderWithoutAListingApiCannotBeReconciledAndSaysWhy() throws Exception {
    // as Shopify's factory does: no API lists its webhook deliveries
    CliProcess.Result r = CliProcess.run(Map.of(), "reconcile", "noapi", "--since", "1d", "--database-url", url);
    assertEquals(2, r.exitCode(), r.out());
    assertEquals("hookledger: noapi cannot be reconciled: " + NoApiReplaySourceFactory.MESSAGE + "\n", r.err());
  }
}
