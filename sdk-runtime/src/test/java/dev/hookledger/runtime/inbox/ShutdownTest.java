package dev.hookledger.runtime.inbox;

import static dev.hookledger.runtime.inbox.InboxFixture.builder;
import static dev.hookledger.runtime.inbox.InboxFixture.event;
import static dev.hookledger.runtime.inbox.InboxFixture.number;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hookledger.runtime.WebhookRuntime;
import dev.hookledger.runtime.testing.Await;
import dev.hookledger.runtime.testing.TestDatabase;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * {@code close()} stops claiming, gives back what it claimed but did not start, so that another
 * runtime takes it at once, and waits a bounded time for what is in flight. Nothing is lost, and
 * nothing stays {@code processing} beyond its lease.
 */
class ShutdownTest {

  @Test
  void closeFinishesWhatIsInFlightAndGivesBackWhatItClaimedToAnotherRuntimeAtOnce() throws Exception {
    TestDatabase.Database db = InboxFixture.database();
    try (WebhookRuntime recorder = builder(db.jdbcUrl()).inbox(i -> i.workers(0)).build()) {
      recorder.start();
      for (int i = 0; i < 40; i++) {
        InboxFixture.receive(recorder, String.format("evt_%02d", i), "job.write", "{}");
      }
    }
    Gate gate = new Gate();
    WebhookRuntime a = builder(db.jdbcUrl(), new LeaseTakeoverTest.Writer("A", gate))
        .inbox(i -> i.workers(2).batchSize(8)
            .lease(Duration.ofSeconds(10))).build();
    // B polls rarely: what A gives back reaches it through a notification
    try (WebhookRuntime b = builder(db.jdbcUrl(), new LeaseTakeoverTest.Writer("B", null)).inbox(i -> i.workers(4)
            .pollInterval(Duration.ofSeconds(30))).build()) {
      a.start();
      // one batch of 8: while both workers have events queued, A waits for room for half a batch before it claims again
      Await.until("A holds 2 events in flight and 6 more claimed", () -> gate.entered() == 2
          && number(db, "select count(*) from hookledger.event where status = 'processing'") == 8);
      b.start(); // takes the 32 events nobody claimed
      Await.until("B has done the 32", () -> number(db, "select count(*) from effect where node = 'B'") == 32);
      InboxFixture.awaitListeners(db, 2);

      long start = System.nanoTime();
      CompletableFuture<Void> closing = CompletableFuture.runAsync(a::close);
      Await.until("B has done the 6 that A gave back, while A's 2 are still in flight",
          () -> number(db, "select count(*) from effect where node = 'B'") == 38);
      assertEquals(2, number(db, "select count(*) from hookledger.event where status = 'processing'"));
      gate.open();
      closing.get(10, TimeUnit.SECONDS);
      assertTrue(System.nanoTime() - start < TimeUnit.SECONDS.toNanos(10), "close() waited within its bound");
    }

    assertEquals(40, number(db, "select count(*) from hookledger.event where status = 'done'"));
    assertEquals(40, number(db, "select count(distinct event_id) from effect"));
    assertEquals(40, number(db, "select count(*) from effect"), "each effect once");
    assertEquals(2, number(db, "select count(*) from effect where node = 'A'"));
    assertEquals(40, number(db, "select count(*) from hookledger.event where attempts = 1"),
        "a lease given back does not count as an attempt");
  }

  @Test
  void closeOfAnIdleRuntimeDoesNotWaitForItsNextPoll() {
    TestDatabase.Database db = InboxFixture.database();
    // every thread that waits between polls (the poller, the backfill worker) must wake at close:
    // with a 10-minute poll interval, a close that slept it out would wait for its bound (30 s)
    WebhookRuntime a = builder(db.jdbcUrl(), new LeaseTakeoverTest.Writer("A", null)).inbox(i -> i.workers(1)
            .pollInterval(Duration.ofMinutes(10))).build();
    a.start();
    InboxFixture.receive(a, "evt_idle", "job.write", "{}");
    InboxFixture.awaitStatus(db, "evt_idle", "done");
    long start = System.nanoTime();
    a.close();
    long waited = System.nanoTime() - start;
    assertTrue(waited < TimeUnit.SECONDS.toNanos(20), "close() waited " + waited / 1_000_000 + " ms for the next poll");
  }

  @Test
  void eventStillRunningAtTheShutdownTimeoutKeepsItsLeaseAndIsTakenOverWhenItRunsOut() {
    TestDatabase.Database db = InboxFixture.database();
    Gate gate = new Gate();
    WebhookRuntime a = builder(db.jdbcUrl(), new LeaseTakeoverTest.Writer("A", gate)).inbox(i -> i.workers(1)
            .lease(Duration.ofSeconds(1)).shutdownTimeout(Duration.ofMillis(300))).build();
    try {
      a.start();
      InboxFixture.receive(a, "evt_long", "job.write", "{}");
      Await.until("A's handler runs", () -> gate.entered() == 1);
      long start = System.nanoTime();
      a.close();
      assertTrue(System.nanoTime() - start < TimeUnit.SECONDS.toNanos(3), "close() gave up after its timeout");
      assertEquals("processing", event(db, "evt_long").get("status"));

      try (WebhookRuntime b = builder(db.jdbcUrl(), new LeaseTakeoverTest.Writer("B", null)).build()) {
        b.start();
        InboxFixture.awaitStatus(db, "evt_long", "done");
      }
    } finally {
      gate.open();
    }
    assertEquals(1, number(db, "select count(*) from effect where node = 'B'"));
    assertEquals(1, number(db, "select count(*) from effect"), "A's write is gone");
    assertEquals(2, event(db, "evt_long").get("attempts"));
  }
}
