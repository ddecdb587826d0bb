package dev.hookledger.runtime.admin;

import static dev.hookledger.runtime.admin.LedgerFixture.NOW;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import dev.hookledger.runtime.testing.TestDatabase;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class PruneTest {
  private static final Instant OLD = NOW.minus(Duration.ofDays(40));
  private static final Instant RECENT = NOW.minus(Duration.ofDays(10));

  private final LedgerFixture ledger = new LedgerFixture();

  @Test
  void prunesSettledEventsOlderThanTheWindowOnly() {
    ledger.row("stripe", "old_done").status("done").receivedAt(OLD).settledAt(OLD).insert();
    ledger.row("stripe", "old_ignored").status("ignored").receivedAt(OLD).settledAt(OLD).insert();
    ledger.row("stripe", "old_stale").status("stale").receivedAt(OLD).settledAt(OLD).insert();
    ledger.row("stripe", "recent_done").status("done").receivedAt(RECENT).settledAt(RECENT).insert();
    // waiting and dead rows are never pruned, however old (a dead row may carry a settled_at)
    ledger.row("stripe", "old_pending").status("pending").receivedAt(OLD).insert();
    ledger.row("stripe", "old_processing").status("processing").receivedAt(OLD).settledAt(OLD).insert();
    ledger.row("stripe", "old_dead").status("dead").receivedAt(OLD).settledAt(OLD).insert();

    PruneReport report = ledger.admin().prune(Duration.ofDays(30), false);

    assertEquals(3, report.deleted());
    assertEquals(NOW.minus(Duration.ofDays(30)), report.cutoff());
    assertNull(ledger.statusOf("stripe", "", "old_done"));
    assertNull(ledger.statusOf("stripe", "", "old_stale"));
    assertEquals("done", ledger.statusOf("stripe", "", "recent_done"));
    assertEquals("pending", ledger.statusOf("stripe", "", "old_pending"));
    assertEquals("processing", ledger.statusOf("stripe", "", "old_processing"));
    assertEquals("dead", ledger.statusOf("stripe", "", "old_dead"));
  }

  @Test
  void prunedEventsTakeTheirAttemptsWithThem() {
    ledger.row("stripe", "old_done").status("done").attempts(2).receivedAt(OLD).settledAt(OLD).insert();
    ledger.row("stripe", "old_dead").status("dead").attempts(2).receivedAt(OLD).settledAt(OLD).insert();
    for (String id : List.of("old_done", "old_dead")) {
      ledger.sql.execute("insert into hookledger.attempt (provider, scope, event_id, attempt, node, started_at,"
          + " ended_at, duration_ms, outcome, cause, error) values ('stripe', '', ?, 1, 'n', now(), now(), 1,"
          + " 'retry', 'E: x', 'E: x')", id);
    }

    ledger.admin().prune(Duration.ofDays(30), false);

    assertEquals(List.of("old_dead"), ledger.sql.fetch("select event_id from hookledger.attempt")
        .getValues(0, String.class), "the dead event keeps its attempts; the pruned one's are gone");
  }

  @Test
  void refusesAWindowShorterThanTheMinimumUnlessForced() {
    Instant twoDaysAgo = NOW.minus(Duration.ofDays(2));
    ledger.row("stripe", "evt_1").status("done").settledAt(twoDaysAgo).insert();

    OperationRefusedException e = assertThrows(OperationRefusedException.class,
        () -> ledger.admin().prune(Duration.ofDays(1), false));
    assertEquals("refusing to prune events settled less than 3d ago (asked: 1d): providers still redeliver"
        + " them (automatic retries and redelivery by hand last up to 3 days) and an id pruned before its last"
        + " redelivery is processed twice; use a window of at least 3d, or pass --force", e.getMessage());
    assertEquals(1, ledger.count());

    assertEquals(1, ledger.admin().prune(Duration.ofDays(1), true).deleted());
    assertEquals(0, ledger.count());
  }

  @Test
  void theMinimumIsConfigurableAndTheWindowMustBePositive() {
    InboxAdmin strict = InboxAdmin.builder(ledger.database.dataSource()).clock(LedgerFixture.CLOCK)
        .minimumPruneWindow(Duration.ofDays(30)).build();

    assertThrows(OperationRefusedException.class, () -> strict.prune(Duration.ofDays(10), false));
    assertEquals("olderThan must be positive, but was PT0S",
        assertThrows(IllegalArgumentException.class, () -> strict.prune(Duration.ZERO, true)).getMessage());
  }

  @Test
  void deletesInBatchesOfTheConfiguredSize() {
    for (int i = 0; i < 5; i++) {
      ledger.row("stripe", "evt_" + i).status("done").settledAt(OLD).insert();
    }
    InboxAdmin admin = InboxAdmin.builder(ledger.database.dataSource()).clock(LedgerFixture.CLOCK)
        .pruneBatchSize(2).build();

    PruneReport report = admin.prune(Duration.ofDays(30), false);

    assertEquals(5, report.deleted());
    assertEquals(3, report.batches());
    assertEquals(0, ledger.count());
  }

  @Test
  void reportsProgressAfterEachBatchDeletingTheOldestSettledFirst() {
    for (int i = 0; i < 25; i++) {
      ledger.row("stripe", "evt_" + i).status("done").settledAt(OLD.minus(Duration.ofMinutes(i))).insert();
    }
    ledger.row("stripe", "evt_recent").status("done").settledAt(RECENT).insert();
    InboxAdmin admin = InboxAdmin.builder(ledger.database.dataSource()).clock(LedgerFixture.CLOCK)
        .pruneBatchSize(10).build();
    List<String> progress = new ArrayList<>();

    PruneReport report = admin.prune(InboxAdmin.DEFAULT_PRUNE_WINDOW, false, r -> progress.add(r.deleted() + " in "
        + r.batches() + ", oldest left: " + ledger.sql.fetchValue("select min(event_id) from hookledger.event"
        + " where settled_at = (select min(settled_at) from hookledger.event)")));

    assertEquals(List.of("10 in 1, oldest left: evt_14", "20 in 2, oldest left: evt_4", "25 in 3, oldest left: evt_recent"),
        progress, "each batch its own transaction, seen committed between batches, oldest first");
    assertEquals(new PruneReport(25, 3, NOW.minus(InboxAdmin.DEFAULT_PRUNE_WINDOW)), report);
    assertEquals(1, ledger.count());
  }

  @Test
  void skipsRowsLockedByAnotherTransactionInsteadOfWaiting() throws Exception {
    // on Citus a prune waits for locked rows instead (README, Running on Citus)
    assumeFalse(TestDatabase.citus(), "not the behaviour on Citus");
    ledger.row("stripe", "evt_locked").status("done").settledAt(OLD).insert();
    ledger.row("stripe", "evt_free").status("done").settledAt(OLD).insert();
    try (Connection holder = ledger.database.dataSource().getConnection();
        Statement s = holder.createStatement()) {
      holder.setAutoCommit(false);
      s.execute("SELECT 1 FROM hookledger.event WHERE event_id = 'evt_locked' FOR UPDATE");

      PruneReport report = CompletableFuture.supplyAsync(() -> ledger.admin().prune(Duration.ofDays(30), false))
          .get(20, TimeUnit.SECONDS);

      assertEquals(1, report.deleted());
      holder.rollback();
    }
    assertEquals("done", ledger.statusOf("stripe", "", "evt_locked"));
    assertNull(ledger.statusOf("stripe", "", "evt_free"));
  }
}
