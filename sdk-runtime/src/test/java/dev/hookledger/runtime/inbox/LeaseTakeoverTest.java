package dev.hookledger.runtime.inbox;

import static dev.hookledger.runtime.inbox.InboxFixture.builder;
import static dev.hookledger.runtime.inbox.InboxFixture.event;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.hookledger.EventContext;
import dev.hookledger.OnEvent;
import dev.hookledger.WebhookEvent;
import dev.hookledger.runtime.Settlement;
import dev.hookledger.runtime.WebhookListener;
import dev.hookledger.runtime.WebhookRuntime;
import dev.hookledger.runtime.testing.Await;
import dev.hookledger.runtime.testing.LedgerRows;
import dev.hookledger.runtime.testing.TestDatabase;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jooq.DSLContext;
import org.junit.jupiter.api.Test;

/**
 * A lease, not a lock, bounds an attempt: a worker stuck past its handler deadline (its lease no
 * longer renewed) is replaced, and commits nothing.
 */
class LeaseTakeoverTest {

  @Test
  void slowWorkerWhoseLeaseWasTakenOverCommitsNothingAndTheNewWorkersResultStands() {
    TestDatabase.Database db = InboxFixture.database();
    Gate gate = new Gate();
    Writer slow = new Writer("A", gate);
    Writer fast = new Writer("B", null);
    List<String> heard = new CopyOnWriteArrayList<>();
    // A polls rarely, so that only B can take the event over once A's one-second lease runs out, which
    // it does once A's handler is past its deadline, stuck where the deadline's interrupt cannot reach
    try (WebhookRuntime a = builder(db.jdbcUrl(), slow)
        .inbox(i -> i.workers(1).lease(Duration.ofSeconds(1)).pollInterval(Duration.ofSeconds(30)))
        .deadlines(d -> d.handlerTimeout(Duration.ofMillis(500))).listener(listener("A", heard))
        .build()) {
      a.start();
      InboxFixture.receive(a, "evt_slow", "job.write", "{}");
      Await.until("A's handler has written and waits", () -> gate.entered() == 1);
      try (WebhookRuntime b = builder(db.jdbcUrl(), fast).listener(listener("B", heard)).build()) {
        b.start();
        InboxFixture.awaitStatus(db, "evt_slow", "done");
      }
      gate.open(); // A's handler returns, and A tries to commit
    } // close() waits for A's attempt to end

    assertEquals("B", LedgerRows.first(db.dataSource(), "select string_agg(node, ',') as nodes from effect"
        + " where event_id = 'evt_slow'").orElseThrow().get("nodes"), "A's write is gone, B's stands");
    Map<String, Object> row = event(db, "evt_slow");
    assertEquals("done", row.get("status"));
    assertEquals(2, row.get("attempts"));
    assertEquals(null, row.get("lease_owner"));
    assertEquals(List.of("B processed evt_slow done attempt 2"), heard);
    assertEquals(false, slow.afterCommitRan.get());
    assertEquals(true, fast.afterCommitRan.get());
  }

  private static WebhookListener listener(String node, List<String> heard) {
    return new WebhookListener() {
      @Override
      public void processed(WebhookEvent event, Settlement status, int attempt, Duration elapsed) {
        heard.add(node + " processed " + event.eventId() + " " + status.name().toLowerCase(java.util.Locale.ROOT) + " attempt " + attempt);
      }

      @Override
      public void retried(WebhookEvent event, int attempt, Throwable error, java.time.Instant next) {
        heard.add(node + " retried " + event.eventId());
      }
    };
  }

  /** Writes one {@code effect} row in the processing transaction, then waits at the gate if it has one. */
  static final class Writer {
    final String node;
    final Gate gate;
    final AtomicBoolean afterCommitRan = new AtomicBoolean();

    Writer(String node, Gate gate) {
      this.node = node;
      this.gate = gate;
    }

    @OnEvent("job.write")
    void write(EventContext context, DSLContext tx) {
      tx.execute("insert into effect (event_id, node) values (?, ?)", context.event().eventId(), node);
      context.afterCommit(() -> afterCommitRan.set(true));
      if (gate != null) {
        gate.passIgnoringInterrupts();
      }
    }
  }
}
