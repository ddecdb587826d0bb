package dev.hookledger.runtime.cli;

import static dev.hookledger.runtime.admin.LedgerFixture.NOW;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hookledger.OnEvent;
import dev.hookledger.Secrets;
import dev.hookledger.WebhookEvent;
import dev.hookledger.runtime.WebhookRuntime;
import dev.hookledger.runtime.admin.LedgerFixture;
import dev.hookledger.runtime.testing.Await;
import dev.hookledger.runtime.testing.TestHookAdapter;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** {@code hookledger backfill}: dry run, record, follow with a progress bar, list, cancel. */
class BackfillCommandTest {
  private final LedgerFixture ledger = new LedgerFixture();
  private final String url = ledger.database.jdbcUrl();

  @BeforeEach
  void storedEvents() {
    // settled before handler bookkeeping: no handler recorded, so the done ones are legacy
    ledger.row("stripe", "evt_1").type("invoice.paid").status("done").settledAt(NOW).receivedAt(NOW.minusSeconds(30))
        .insert();
    ledger.row("stripe", "evt_2").type("invoice.paid").status("done").settledAt(NOW).receivedAt(NOW.minusSeconds(20))
        .insert();
    ledger.row("stripe", "evt_3").type("invoice.paid").status("ignored").settledAt(NOW)
        .receivedAt(NOW.minusSeconds(10)).insert();
    ledger.row("stripe", "evt_waiting").type("invoice.paid").status("pending").insert();
  }

  @Test
  void dryRunCountsWhatItWouldDoAndRecordsNothing() throws Exception {
    CliProcess.Result r = CliProcess.run(Map.of(), "backfill", "--handler", "billing", "--dry-run",
        "--database-url", url);
    assertEquals(0, r.exitCode(), r.err());
    assertEquals("would visit 1 of 3 selected events (0 already applied by every named handler, 2 legacy, skipped);"
        + " nothing was recorded (dry run)\n", r.out());
    CliProcess.Result json = CliProcess.run(Map.of(), "--json", "backfill", "--handler", "billing", "--legacy",
        "apply", "--type", "invoice.*", "--dry-run", "--database-url", url);
    assertTrue(json.out().contains("\"toVisit\" : 3"), json.out());
    assertEquals(0, ledger.sql.fetchCount(ledger.sql.selectFrom("hookledger.backfill")));
  }

  @Test
  void recordsABackfillThatANodeRunsAndFollowsItWithAProgressBar() throws Exception {
    CliProcess.Result started = CliProcess.run(Map.of(), "backfill", "--handler", "billing", "--legacy", "apply",
        "--detach", "--database-url", url);
    assertEquals(0, started.exitCode(), started.err());
    assertEquals("backfill 1 recorded: 3 events selected; it runs on a node that registers billing\n", started.err());
    assertEquals("backfill 1 running: billing over every provider *, 0 of 3 visited (applied 0, skipped 0, failed 0)\n",
        started.out());

    Billing billing = new Billing();
    try (WebhookRuntime node = WebhookRuntime.builder().jdbcUrl(url).provider(new TestHookAdapter(), Secrets.of("s"))
        .handlers(billing).inbox(i -> i.pollInterval(Duration.ofMillis(100))).build()) {
      node.start();
      CliProcess.Result followed = CliProcess.run(Map.of(), "backfill", "--show", "1", "--database-url", url);
      assertEquals(0, followed.exitCode(), followed.err());
      // evt_waiting, pending when the backfill was recorded, is the node's live work: the sweep visits it
      // (skipped, once the live path has applied it) or ends before it is settled; both are right
      String visited = followed.out().contains("4 of 4") ? "4/4 (applied 3, skipped 1, failed 0)"
          : "3/3 (applied 3, skipped 0, failed 0)";
      assertTrue(followed.err().contains("\r[##############################] 100%  " + visited), followed.err());
      assertFalse(followed.err().contains("\\u000d"), "the bar's own carriage return is obeyed, not shown");
      assertEquals("backfill 1 done: billing over every provider *, " + visited.replace("/", " of ")
          .replaceFirst(" \\(", " visited (") + "\n", followed.out());
      Await.until("the waiting event applied by the node's live processing", () -> billing.calls.get() == 4);
    }
    // the waiting event was live processing's, which ran billing too; settled by then, the backfill skipped it
    assertEquals(4, billing.calls.get(), "each event once");

    CliProcess.Result list = CliProcess.run(Map.of(), "--json", "backfill", "--list", "--database-url", url);
    assertTrue(list.out().contains("\"status\" : \"done\""), list.out());
    CliProcess.Result cancel = CliProcess.run(Map.of(), "backfill", "--cancel", "1", "--database-url", url);
    assertEquals(2, cancel.exitCode());
    assertEquals("hookledger: no backfill 1 is running\n", cancel.err());
  }

  /** Registered as "billing": counts its calls. */
  static final class Billing {
    final AtomicInteger calls = new AtomicInteger();

    @OnEvent(value = "*", name = "billing")
    void paid(WebhookEvent event) {
      calls.incrementAndGet();
    }
  }
}
