package dev.hookledger.runtime.admin;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The counts {@code status} reads (kept by the ledger's triggers as rows change) always equal a
 * count of the rows themselves: after inserts, status changes, duplicate deliveries, retries,
 * pruning, truncation, and many writers at once.
 */
class StatusCountsTest {
  private final LedgerFixture ledger = new LedgerFixture();

  @Test
  void countsFollowEveryChangeOfARow() {
    ledger.row("stripe", "evt_1").insert();
    ledger.row("stripe", "evt_2").duplicates(3).insert();
    ledger.row("github", "evt_3").scope("hook-1").status("dead").attempts(12).lastError("boom").insert();
    assertCountsMatchTheRows();

    ledger.sql.execute("update hookledger.event set status = 'processing', attempts = 1 where event_id = 'evt_1'");
    ledger.sql.execute("update hookledger.event set status = 'done', settled_at = now() - interval '40 days'"
        + " where event_id in ('evt_1', 'evt_2')");
    ledger.sql.execute("update hookledger.event set duplicates = duplicates + 1 where event_id = 'evt_2'");
    ledger.sql.execute("update hookledger.event set available_at = now() where event_id = 'evt_3'"); // no status change
    assertCountsMatchTheRows();

    ledger.admin().retry("github", "hook-1", "evt_3");
    ledger.admin().retry("stripe", "", "evt_1", true);
    assertCountsMatchTheRows();

    assertEquals(1, InboxAdmin.builder(ledger.database.dataSource()).build()
        .prune(InboxAdmin.DEFAULT_PRUNE_WINDOW, false).deleted());
    assertCountsMatchTheRows();

    ledger.sql.execute("truncate hookledger.event");
    assertCountsMatchTheRows();
    assertEquals(0, ledger.admin().status().total());
  }

  @Test
  void manyWritersAtOnceLeaveExactCounts() throws Exception {
    int writers = 4;
    int each = 150;
    ExecutorService threads = Executors.newFixedThreadPool(writers);
    try {
      List<Future<?>> done = new ArrayList<>();
      for (int w = 0; w < writers; w++) {
        int writer = w;
        done.add(threads.submit(() -> {
          for (int i = 0; i < each; i++) {
            String id = "evt_" + writer + "_" + i;
            String settled = i % 3 == 0 ? "ignored" : "done";
            ledger.row(writer % 2 == 0 ? "stripe" : "github", id).insert();
            ledger.sql.transaction(cfg -> {
              cfg.dsl().execute("update hookledger.event set status = 'processing' where event_id = ?", id);
              cfg.dsl().execute("update hookledger.event set status = ?, settled_at = now() where event_id = ?",
                  settled, id);
            });
            if (i % 5 == 0) {
              ledger.sql.execute("update hookledger.event set duplicates = duplicates + 1 where event_id = ?", id);
            }
          }
          return null;
        }));
      }
      for (Future<?> f : done) {
        f.get(120, TimeUnit.SECONDS);
      }
    } finally {
      threads.shutdownNow();
    }
    assertCountsMatchTheRows();
    assertEquals(writers * each, ledger.admin().status().total());
  }

  private void assertCountsMatchTheRows() {
    List<String> counted = ledger.admin().status().counts().stream()
        .map(c -> c.provider() + " " + c.status().name().toLowerCase() + " " + c.events() + " " + c.duplicates())
        .sorted().toList();
    List<String> rows = ledger.sql.fetch("select provider || ' ' || status || ' ' || count(*) || ' ' || sum(duplicates)"
        + " from hookledger.event group by provider, status").getValues(0, String.class).stream().sorted().toList();
    assertEquals(rows, counted);
  }
}
