package dev.hookledger.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hookledger.EventContext;
import dev.hookledger.OnEvent;
import dev.hookledger.Secrets;
import dev.hookledger.WebhookEvent;
import dev.hookledger.runtime.testing.Await;
import dev.hookledger.runtime.testing.LedgerRows;
import dev.hookledger.runtime.testing.TestDatabase;
import dev.hookledger.runtime.testing.TestHookAdapter;
import dev.hookledger.runtime.testing.TestHookSigner;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/** Nothing stored is lost across a restart: a started runtime processes what was left pending once it is due. */
class PendingEventsResumeTest {
  static final TestHookSigner SIGNER = new TestHookSigner("resume-secret");

  @Test
  void eventLeftPendingByAFailureIsProcessedByTheNextRuntimeOnceDueWithTheSameIdempotencyKey() {
    TestDatabase.Database db = TestDatabase.create();
    Flaky flaky = new Flaky();
    flaky.failing.set(true);
    try (WebhookRuntime first = runtime(db, flaky)) {
      first.migrate();
      first.start();
      first.receive("testhook", SIGNER.delivery("testhook", "evt_flaky", "job.run", "{}"));
      Await.until("the first attempt fails", () -> LedgerRows.event(db.dataSource(), "hookledger", "evt_flaky")
          .map(r -> r.get("attempts").equals(1) && "pending".equals(r.get("status"))).orElse(false));
    }
    assertEquals("pending", LedgerRows.event(db.dataSource(), "hookledger", "evt_flaky").orElseThrow().get("status"));

    flaky.failing.set(false);
    // the next runtime starts after the first retry delay (10 s by default) has passed, by the database's clock
    assertTrue(LedgerRows.number(db.dataSource(), "select extract(epoch from e.available_at - a.ended_at)"
        + " from hookledger.event e join hookledger.attempt a using (provider, scope, event_id)"
        + " where e.event_id = 'evt_flaky' and a.attempt = 1") > 5, "not due before the retry delay");
    // due now (not "available_at - interval": Citus refuses a STABLE function of a column in an UPDATE)
    db.execute("update hookledger.event set available_at = now() - interval '1 second' where event_id = 'evt_flaky'");
    try (WebhookRuntime second = runtime(db, flaky)) {
      second.start();
      Await.until("the event settles", () -> "done".equals(
          LedgerRows.event(db.dataSource(), "hookledger", "evt_flaky").orElseThrow().get("status")));
    }

    Map<String, Object> row = LedgerRows.event(db.dataSource(), "hookledger", "evt_flaky").orElseThrow();
    assertEquals(2, row.get("attempts"));
    assertEquals(null, row.get("last_error"));
    assertEquals(List.of(1, 2), flaky.attempts);
    assertEquals(1, flaky.keys.stream().distinct().count(), "one idempotency key across attempts: " + flaky.keys);
  }

  @Test
  void replayedEventsRecordedBeforeStartAreProcessedOnceStartedAndDuplicatesAreSkipped() {
    TestDatabase.Database db = TestDatabase.create();
    Flaky handler = new Flaky();
    WebhookEvent event = WebhookEvent.builder().provider("testhook").eventId("evt_replayed").type("job.run")
        .body("{}".getBytes(StandardCharsets.UTF_8)).build();
    try (WebhookRuntime runtime = runtime(db, handler)) {
      runtime.migrate();

      assertTrue(runtime.replaySink().offer(event));
      assertEquals(false, runtime.replaySink().offer(event));
      Map<String, Object> stored = LedgerRows.event(db.dataSource(), "hookledger", "evt_replayed").orElseThrow();
      assertEquals("pending", stored.get("status"));
      assertEquals("replay", stored.get("source"));
      assertEquals(null, stored.get("secret_id"));
      assertEquals(0, stored.get("duplicates"), "a replay meeting a stored event is not a duplicate delivery");

      runtime.start();
      Await.until("the replayed event settles", () -> "done".equals(
          LedgerRows.event(db.dataSource(), "hookledger", "evt_replayed").orElseThrow().get("status")));
    }
    assertEquals(List.of(1), handler.attempts);
  }

  private static WebhookRuntime runtime(TestDatabase.Database db, Object handler) {
    return WebhookRuntime.builder()
        .dataSource(db.dataSource())
        .provider(new TestHookAdapter(), Secrets.of("resume-secret"))
        .handlers(handler)
        .build();
  }

  static final class Flaky {
    final AtomicBoolean failing = new AtomicBoolean();
    final List<Integer> attempts = new CopyOnWriteArrayList<>();
    final List<String> keys = new CopyOnWriteArrayList<>();

    @OnEvent("job.run")
    void run(EventContext context) {
      attempts.add(context.attempt());
      keys.add(context.idempotencyKey());
      if (failing.get()) {
        throw new IllegalStateException("dependency down");
      }
    }
  }
}
