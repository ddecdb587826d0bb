package dev.hookledger.runtime.inbox;

import static dev.hookledger.runtime.inbox.InboxFixture.builder;
import static dev.hookledger.runtime.inbox.InboxFixture.event;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import dev.hookledger.EventContext;
import dev.hookledger.OnEvent;
import dev.hookledger.WebhookEvent;
import dev.hookledger.runtime.RetryPolicy;
import dev.hookledger.runtime.WebhookListener;
import dev.hookledger.runtime.WebhookRuntime;
import dev.hookledger.runtime.testing.Await;
import dev.hookledger.runtime.testing.LedgerRows;
import dev.hookledger.runtime.testing.TestDatabase;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.jooq.DSLContext;
import org.junit.jupiter.api.Test;

/**
 * Failed attempts come back on the policy's schedule and end {@code dead}; so does an event whose
 * leases run out, since attempts count claims. Due times and leases are the database's, so time is
 * moved there, by the test: no waiting.
 */
class RetryBackoffTest {

  @Test
  void failedAttemptsComeBackOnThePolicysScheduleAndTheLastLeavesTheEventDeadWithItsError() {
    // its fixtures move times by "column - interval", a STABLE function with a column reference,
    // which Citus refuses in any UPDATE; CitusLedgerTest retries and takes over on Citus
    assumeFalse(TestDatabase.citus(), "fixture not runnable on Citus");
    TestDatabase.Database db = InboxFixture.database();
    List<String> heard = new CopyOnWriteArrayList<>();
    List<Instant> nextAttempts = new CopyOnWriteArrayList<>();
    RetryPolicy policy = RetryPolicy.builder().firstDelay(Duration.ofSeconds(10)).factor(2)
        .maxDelay(Duration.ofSeconds(30)).maxAttempts(4).jitter(0).build();
    try (WebhookRuntime runtime = builder(db.jdbcUrl(), new AlwaysFails()).inbox(i -> i.retryPolicy(policy)
            .pollInterval(Duration.ofMillis(20))).listener(listener(heard, nextAttempts)).build()) {
      runtime.start();
      Instant before = databaseNow(db);
      InboxFixture.receive(runtime, "evt_backoff", "job.fail", "{}");

      // 10 s, then 20 s, then 30 s (the cap, not 40 s), after each failure by the database's clock
      List<Duration> delays = List.of(Duration.ofSeconds(10), Duration.ofSeconds(20), Duration.ofSeconds(30));
      for (int attempt = 1; attempt <= 3; attempt++) {
        Map<String, Object> row = awaitFailed(db, attempt);
        Instant after = databaseNow(db);
        Instant due = ((Timestamp) row.get("available_at")).toInstant();
        Instant failedAt = due.minus(delays.get(attempt - 1));
        assertTrue(!failedAt.isBefore(before) && !failedAt.isAfter(after),
            "attempt " + attempt + " failed at " + failedAt + ", between " + before + " and " + after + "?");
        int retried = attempt;
        Await.until("the listener heard of retry " + attempt, () -> nextAttempts.size() == retried);
        assertEquals(due, nextAttempts.get(attempt - 1), "the listener is told the due time the ledger holds");
        assertTrue(((String) row.get("last_error")).contains("IllegalStateException: down on attempt " + attempt),
            (String) row.get("last_error"));
        assertEquals(null, row.get("lease_owner"));
        before = databaseNow(db);
        // the delay passes: the event is due from the time it failed
        db.execute("update hookledger.event set available_at = available_at - interval '"
            + delays.get(attempt - 1).toSeconds() + " seconds' where event_id = 'evt_backoff'");
      }
      InboxFixture.awaitStatus(db, "evt_backoff", "dead");
    }
    Map<String, Object> dead = event(db, "evt_backoff");
    assertEquals(4, dead.get("attempts"));
    assertTrue(((String) dead.get("last_error")).contains("down on attempt 4"), (String) dead.get("last_error"));
    assertEquals(null, dead.get("lease_owner"));
    assertEquals(null, dead.get("settled_at"));
    assertEquals(List.of("retried 1", "retried 2", "retried 3", "dead after attempt 4: down on attempt 4"), heard);
  }

  @Test
  void eventWhoseLeaseRunsOutIsTakenOverEachTimeThenSetAsideDead() {
    // its fixtures move times by "column - interval", a STABLE function with a column reference,
    // which Citus refuses in any UPDATE; CitusLedgerTest retries and takes over on Citus
    assumeFalse(TestDatabase.citus(), "fixture not runnable on Citus");
    TestDatabase.Database db = InboxFixture.database();
    Gate gate = new Gate();
    List<String> heard = new CopyOnWriteArrayList<>();
    try (WebhookRuntime runtime = builder(db.jdbcUrl(), new Stuck(gate)).inbox(i -> i.workers(3)
            .lease(Duration.ofSeconds(1)).pollInterval(Duration.ofMillis(20)).shutdownTimeout(Duration.ofSeconds(2))
            .retryPolicy(RetryPolicy.builder().maxAttempts(3).build())).listener(listener(heard, new ArrayList<>()))
        .build()) {
      runtime.start();
      try {
        InboxFixture.receive(runtime, "evt_stuck", "job.stuck", "{}");
        Await.until("attempt 1 is stuck", () -> gate.entered() == 1);
        String owner = (String) event(db, "evt_stuck").get("lease_owner");
        for (int attempt = 2; attempt <= 3; attempt++) {
          Instant ranOut = runOutLease(db); // as if its node had stopped renewing it an hour ago
          int entered = attempt;
          Await.until("attempt " + attempt + " is stuck too", () -> gate.entered() == entered);
          Map<String, Object> row = event(db, "evt_stuck");
          assertEquals(attempt, row.get("attempts"));
          assertEquals("attempt " + (attempt - 1) + " by " + owner + " was abandoned: its lease ran out at "
              + ranOut + " (its node stopped, or lost the database, for longer than the lease)",
              row.get("last_error"));
        }
        Instant ranOut = runOutLease(db);
        InboxFixture.awaitStatus(db, "evt_stuck", "dead");

        String reason = "attempt 3 by " + owner + " was abandoned: its lease ran out at " + ranOut
            + " (its node stopped, or lost the database, for longer than the lease); no attempt left (3 of 3)";
        Map<String, Object> dead = event(db, "evt_stuck");
        assertEquals(reason, dead.get("last_error"));
        assertEquals(3, dead.get("attempts"));
        assertEquals(null, dead.get("lease_owner"));
        assertEquals(List.of("dead after attempt 3: " + reason), heard);
      } finally {
        gate.open(); // the three stuck attempts end now; their commits must be refused
      }
    }
    assertEquals("dead", event(db, "evt_stuck").get("status"));
    assertEquals(0, InboxFixture.number(db, "select count(*) from effect"));
  }

  /** Moves the running lease of {@code evt_stuck} an hour back, out of reach of renewals; returns its end. */
  private static Instant runOutLease(TestDatabase.Database db) {
    Map<String, Object> row = LedgerRows.first(db.dataSource(), "update hookledger.event"
        + " set lease_until = lease_until - interval '1 hour', available_at = available_at - interval '1 hour'"
        + " where event_id = 'evt_stuck' and status = 'processing' returning lease_until").orElseThrow();
    return ((Timestamp) row.get("lease_until")).toInstant();
  }

  private static Instant databaseNow(TestDatabase.Database db) {
    return ((Timestamp) LedgerRows.first(db.dataSource(), "select now() as now").orElseThrow().get("now")).toInstant();
  }

  private static Map<String, Object> awaitFailed(TestDatabase.Database db, int attempt) {
    Await.until("attempt " + attempt + " failed", () -> {
      Map<String, Object> row = event(db, "evt_backoff");
      return "pending".equals(row.get("status")) && row.get("attempts").equals(attempt);
    });
    return event(db, "evt_backoff");
  }

  private static WebhookListener listener(List<String> heard, List<Instant> nextAttempts) {
    return new WebhookListener() {
      @Override
      public void retried(WebhookEvent event, int attempt, Throwable error, Instant nextAttemptAt) {
        nextAttempts.add(nextAttemptAt);
        heard.add("retried " + attempt);
      }

      @Override
      public void dead(WebhookEvent event, int attempt, Throwable error) {
        heard.add("dead after attempt " + attempt + ": " + error.getMessage());
      }
    };
  }

  static final class AlwaysFails {
    @OnEvent("job.fail")
    void fail(EventContext context) {
      throw new IllegalStateException("down on attempt " + context.attempt());
    }
  }

  /** Writes, then never finishes (until the gate opens at the end of the test). */
  static final class Stuck {
    final Gate gate;

    Stuck(Gate gate) {
      this.gate = gate;
    }

    @OnEvent("job.stuck")
    void stuck(EventContext context, DSLContext tx) {
      tx.execute("insert into effect (event_id, node) values (?, 'stuck')", context.event().eventId());
      gate.pass();
    }
  }
}
