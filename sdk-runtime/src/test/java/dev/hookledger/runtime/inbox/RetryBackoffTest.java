package dev.hookledger.runtime.inbox;

import static dev.hookledger.runtime.inbox.InboxFixture.builder;
import static dev.hookledger.runtime.inbox.InboxFixture.event;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hookledger.EventContext;
import dev.hookledger.OnEvent;
import dev.hookledger.WebhookEvent;
import dev.hookledger.runtime.RetryPolicy;
import dev.hookledger.runtime.WebhookListener;
import dev.hookledger.runtime.WebhookRuntime;
import dev.hookledger.runtime.testing.Await;
import dev.hookledger.runtime.testing.MutableClock;
import dev.hookledger.runtime.testing.TestDatabase;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.jooq.DSLContext;
import org.junit.jupiter.api.Test;

/**
 * Failed attempts come back on the policy's schedule and end {@code dead}; so does an event whose
 * worker never finishes, since attempts count claims. Time is a clock the test moves: no waiting.
 */
class RetryBackoffTest {
  static final Instant T0 = Instant.parse("2030-01-01T00:00:00Z");

  @Test
  void failedAttemptsComeBackOnThePolicysScheduleAndTheLastLeavesTheEventDeadWithItsError() {
    TestDatabase.Database db = InboxFixture.database();
    MutableClock clock = new MutableClock(T0);
    List<String> heard = new CopyOnWriteArrayList<>();
    RetryPolicy policy = RetryPolicy.builder().firstDelay(Duration.ofSeconds(10)).factor(2)
        .maxDelay(Duration.ofSeconds(30)).maxAttempts(4).jitter(0).build();
    try (WebhookRuntime runtime = builder(db.jdbcUrl(), new AlwaysFails()).clock(clock).retryPolicy(policy)
        .pollInterval(Duration.ofMillis(20)).listener(listener(heard)).build()) {
      runtime.start();
      InboxFixture.receive(runtime, "evt_backoff", "job.fail", "{}");

      // 10 s, then 20 s, then 30 s (the cap, not 40 s)
      List<Duration> delays = List.of(Duration.ofSeconds(10), Duration.ofSeconds(20), Duration.ofSeconds(30));
      Instant failedAt = T0;
      for (int attempt = 1; attempt <= 3; attempt++) {
        Map<String, Object> row = awaitFailed(db, attempt);
        Instant due = failedAt.plus(delays.get(attempt - 1));
        assertEquals(due, ((Timestamp) row.get("available_at")).toInstant(), "attempt " + attempt);
        assertTrue(((String) row.get("last_error")).contains("IllegalStateException: down on attempt " + attempt),
            (String) row.get("last_error"));
        assertEquals(null, row.get("lease_owner"));
        clock.advance(Duration.between(failedAt, due));
        failedAt = due;
      }
      InboxFixture.awaitStatus(db, "evt_backoff", "dead");
    }
    Map<String, Object> dead = event(db, "evt_backoff");
    assertEquals(4, dead.get("attempts"));
    assertTrue(((String) dead.get("last_error")).contains("down on attempt 4"), (String) dead.get("last_error"));
    assertEquals(null, dead.get("lease_owner"));
    assertEquals(null, dead.get("settled_at"));
    assertEquals(List.of("retried 1, next at 2030-01-01T00:00:10Z", "retried 2, next at 2030-01-01T00:00:30Z",
        "retried 3, next at 2030-01-01T00:01:00Z", "dead after attempt 4: down on attempt 4"), heard);
  }

  @Test
  void eventWhoseWorkerNeverFinishesIsTakenOverEachTimeItsLeaseRunsOutThenSetAsideDead() {
    TestDatabase.Database db = InboxFixture.database();
    MutableClock clock = new MutableClock(T0);
    Gate gate = new Gate();
    List<String> heard = new CopyOnWriteArrayList<>();
    try (WebhookRuntime runtime = builder(db.jdbcUrl(), new Stuck(gate)).clock(clock).workers(3)
        .lease(Duration.ofSeconds(1)).pollInterval(Duration.ofMillis(20)).shutdownTimeout(Duration.ofSeconds(2))
        .retryPolicy(RetryPolicy.builder().maxAttempts(3).build()).listener(listener(heard)).build()) {
      runtime.start();
      try {
        InboxFixture.receive(runtime, "evt_stuck", "job.stuck", "{}");
        Await.until("attempt 1 is stuck", () -> gate.entered() == 1);
        String owner = (String) event(db, "evt_stuck").get("lease_owner");
        for (int attempt = 2; attempt <= 3; attempt++) {
          clock.advance(Duration.ofSeconds(2)); // the lease of the attempt before has run out
          int entered = attempt;
          Await.until("attempt " + attempt + " is stuck too", () -> gate.entered() == entered);
          Map<String, Object> row = event(db, "evt_stuck");
          assertEquals(attempt, row.get("attempts"));
          assertEquals("attempt " + (attempt - 1) + " by " + owner + " was abandoned: its lease ran out at "
              + T0.plusSeconds(2L * attempt - 3) + " (the worker stopped, or ran longer than its lease)",
              row.get("last_error"));
        }
        clock.advance(Duration.ofSeconds(2));
        InboxFixture.awaitStatus(db, "evt_stuck", "dead");

        String reason = "attempt 3 by " + owner + " was abandoned: its lease ran out at " + T0.plusSeconds(5)
            + " (the worker stopped, or ran longer than its lease); no attempt left (3 of 3)";
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

  private static Map<String, Object> awaitFailed(TestDatabase.Database db, int attempt) {
    Await.until("attempt " + attempt + " failed", () -> {
      Map<String, Object> row = event(db, "evt_backoff");
      return "pending".equals(row.get("status")) && row.get("attempts").equals(attempt);
    });
    return event(db, "evt_backoff");
  }

  private static WebhookListener listener(List<String> heard) {
    return new WebhookListener() {
      @Override
      public void retried(WebhookEvent event, int attempt, Throwable error, Instant nextAttemptAt) {
        heard.add("retried " + attempt + ", next at " + nextAttemptAt);
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
