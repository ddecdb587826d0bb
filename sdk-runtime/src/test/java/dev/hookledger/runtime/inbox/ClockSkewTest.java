package dev.hookledger.runtime.inbox;

import static dev.hookledger.runtime.inbox.InboxFixture.builder;
import static dev.hookledger.runtime.inbox.InboxFixture.event;
import static dev.hookledger.runtime.inbox.InboxFixture.number;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.hookledger.EventContext;
import dev.hookledger.OnEvent;
import dev.hookledger.runtime.WebhookRuntime;
import dev.hookledger.runtime.testing.Await;
import dev.hookledger.runtime.testing.TestDatabase;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.jooq.DSLContext;
import org.junit.jupiter.api.Test;

/**
 * Leases and due times are judged by the database's clock: a node whose own clock runs ahead does
 * not see the live leases of the others as run out.
 */
class ClockSkewTest {

  @Test
  void nodeWhoseClockRuns40SecondsFastDoesNotTakeOverAnotherNodesLiveEvent() throws InterruptedException {
    TestDatabase.Database db = InboxFixture.database();
    Slow slowA = new Slow("A");
    Slow slowB = new Slow("B");
    // B polls every 50 ms with a clock 40 s ahead: were leases judged by each node's clock, A's 5 s lease
    // (renewed by A's heartbeat while the 7 s handler runs) would look 35 s past to B, at every poll
    // A polls only when woken: its pool has room to queue claimed events behind the slow one, and an
    // evt_due claimed by A would wait out the slow handler instead of showing that B keeps working
    try (WebhookRuntime a = builder(db.jdbcUrl(), slowA).inbox(i -> i.workers(1).lease(Duration.ofSeconds(5))
            .pollInterval(Duration.ofHours(1))).build();
        WebhookRuntime b = builder(db.jdbcUrl(), slowB).inbox(i -> i.workers(2).lease(Duration.ofSeconds(5))
                .pollInterval(Duration.ofMillis(50))).clock(Clock.offset(Clock.systemUTC(), Duration.ofSeconds(40)))
            .build()) {
      a.start();
      b.start();
      InboxFixture.receive(a, "evt_live", "job.slow", "{}");
      Await.until("A runs the slow handler", () -> slowA.runs.size() == 1);
      Thread.sleep(300); // the notification of evt_live's insert wakes A's poller once; let that pass

      // B claims what is due meanwhile (A's one worker is busy): it polls, and would see a lease run out
      db.execute("insert into hookledger.event (provider, event_id, type, body, headers, available_at)"
          + " values ('testhook', 'evt_due', 'job.quick', '\\x7b7d'::bytea, '{}'::jsonb, now())");
      InboxFixture.awaitStatus(db, "evt_due", "done");
      assertEquals("processing", event(db, "evt_live").get("status"), "the slow handler still runs");

      InboxFixture.awaitStatus(db, "evt_live", "done");
    }
    assertEquals(List.of("evt_live attempt 1"), slowA.runs, "the slow handler ran once, on its first attempt");
    assertEquals(List.of(), slowB.runs, "B never took it over");
    assertEquals(1, number(db, "select count(*) from effect where event_id = 'evt_due' and node = 'B'"));
    Map<String, Object> row = event(db, "evt_live");
    assertEquals(1, row.get("attempts"));
    assertEquals(null, row.get("last_error"));
    assertEquals(1, number(db, "select count(*) from effect where event_id = 'evt_live'"));
  }

  static final class Slow {
    final String node;
    final List<String> runs = new CopyOnWriteArrayList<>();

    Slow(String node) {
      this.node = node;
    }

    @OnEvent("job.slow")
    void slow(EventContext context, DSLContext tx) throws InterruptedException {
      runs.add(context.event().eventId() + " attempt " + context.attempt());
      tx.execute("insert into effect (event_id, node) values (?, ?)", context.event().eventId(), node);
      Thread.sleep(7_000); // longer than the lease: a slow call to a healthy API
    }

    @OnEvent("job.quick")
    void quick(EventContext context, DSLContext tx) {
      tx.execute("insert into effect (event_id, node) values (?, ?)", context.event().eventId(), node);
    }
  }
}
