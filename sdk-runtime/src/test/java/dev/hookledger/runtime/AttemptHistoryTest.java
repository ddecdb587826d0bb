package dev.hookledger.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hookledger.OnEvent;
import dev.hookledger.Secrets;
import dev.hookledger.WebhookEvent;
import dev.hookledger.runtime.admin.EventAttempt;
import dev.hookledger.runtime.admin.EventDetail;
import dev.hookledger.runtime.admin.InboxAdmin;
import dev.hookledger.runtime.testing.Await;
import dev.hookledger.runtime.testing.TestDatabase;
import dev.hookledger.runtime.testing.TestHookAdapter;
import dev.hookledger.runtime.testing.TestHookSigner;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Every attempt of an event is kept (node, times, one-line cause, whole error), and "attempt k of N"
 * uses the N of the runtime that tried it, whatever the reader's own.
 */
class AttemptHistoryTest {
  static final String SECRET = "whsec-attempt-history";
  static final TestHookSigner SIGNER = new TestHookSigner(SECRET);
  static final Flaky FLAKY = new Flaky();
  static TestDatabase.Database db;
  static WebhookRuntime runtime;

  @BeforeAll
  static void start() {
    db = TestDatabase.create();
    runtime = WebhookRuntime.builder().jdbcUrl(db.jdbcUrl())
        .provider(new TestHookAdapter(), Secrets.of(SECRET))
        .handlers(FLAKY)
        .inbox(i -> i.pollInterval(Duration.ofMillis(50))
            .retryPolicy(RetryPolicy.builder().maxAttempts(3).firstDelay(Duration.ofMillis(10)).jitter(0).build()))
        .build();
    runtime.migrate();
    runtime.start();
  }

  @AfterAll
  static void stop() {
    runtime.close();
  }

  @Test
  void aSuccessAfterTwoFailuresShowsAllThreeAttempts() {
    String id = "evt_" + UUID.randomUUID();
    FLAKY.failures.put(id, 2);

    runtime.receive("testhook", SIGNER.delivery("testhook", id, "flaky", "{}"));
    Await.until(id + " done", () -> status(id).equals(EventStatus.DONE));

    EventDetail d = reader().showExisting("testhook", "", id);
    List<EventAttempt> attempts = d.attempts();
    assertEquals(List.of(1, 2, 3), attempts.stream().map(EventAttempt::attempt).toList());
    assertEquals(List.of("retry", "retry", "done"), attempts.stream().map(EventAttempt::outcome).toList());
    assertEquals("IllegalStateException: failure 1 of " + id, attempts.get(0).cause());
    assertEquals("IllegalStateException: failure 2 of " + id, attempts.get(1).cause());
    assertTrue(attempts.get(0).error().contains("at dev.hookledger.runtime.AttemptHistoryTest$Flaky.handle"),
        attempts.get(0).error());
    assertEquals("", attempts.get(2).cause());
    attempts.forEach(a -> assertTrue(a.node().contains("/"), a.node()));
    attempts.forEach(a -> assertTrue(!a.endedAt().isBefore(a.startedAt()), a.toString()));
    assertEquals(3, d.summary().maxAttempts(), "the runtime's N, not the reader's 12");
  }

  @Test
  void aDeadEventShowsItsAttemptsOfTheRuntimesN() {
    String id = "evt_" + UUID.randomUUID();
    FLAKY.failures.put(id, 100);

    runtime.receive("testhook", SIGNER.delivery("testhook", id, "flaky", "{}"));
    Await.until(id + " dead", () -> status(id).equals(EventStatus.DEAD));

    EventDetail d = reader().showExisting("testhook", "", id);
    assertEquals(List.of("retry", "retry", "dead"), d.attempts().stream().map(EventAttempt::outcome).toList());
    assertEquals("IllegalStateException: failure 3 of " + id, d.attempts().get(2).cause());
    assertEquals(3, d.summary().attempts());
    assertEquals(3, d.summary().maxAttempts(), "3 of 3 everywhere, not 3 of 12");
  }

  @Test
  void aFirstAttemptSuccessRecordsNoAttemptRow() {
    String id = "evt_" + UUID.randomUUID();

    runtime.receive("testhook", SIGNER.delivery("testhook", id, "flaky", "{}"));
    Await.until(id + " done", () -> status(id).equals(EventStatus.DONE));

    EventDetail d = reader().showExisting("testhook", "", id);
    assertEquals(List.of(), d.attempts());
    assertEquals(3, d.summary().maxAttempts());
  }

  @Test
  void anOperatorsRetryAndTheAttemptsAfterItAreRecorded() {
    String id = deadRetriedThenDone(4); // dead after 3; the retry's first attempt fails, its second succeeds

    EventDetail d = reader().showExisting("testhook", "", id);
    assertEquals(List.of("retry", "retry", "dead", "retried by an operator", "retry", "done"),
        d.attempts().stream().map(EventAttempt::outcome).toList());
    assertEquals(List.of(1, 2, 3, 3, 1, 2), d.attempts().stream().map(EventAttempt::attempt).toList(),
        "the retry is numbered with the attempts made before it; the count starts again after it");
    assertEquals("operator", d.attempts().get(3).node());
    assertEquals("IllegalStateException: failure 4 of " + id, d.attempts().get(4).cause());
  }

  @Test
  void theFirstAttemptAfterAnOperatorsRetrySucceedingIsRecorded() {
    String id = deadRetriedThenDone(3);

    EventDetail d = reader().showExisting("testhook", "", id);
    assertEquals(List.of("retry", "retry", "dead", "retried by an operator", "done"),
        d.attempts().stream().map(EventAttempt::outcome).toList(), "the history does not end at dead");
    assertEquals(1, d.attempts().get(4).attempt());
  }

  /** An event that fails {@code failures} times: dead after 3, retried by an operator, then done. */
  private static String deadRetriedThenDone(int failures) {
    String id = "evt_" + UUID.randomUUID();
    FLAKY.failures.put(id, failures);
    runtime.receive("testhook", SIGNER.delivery("testhook", id, "flaky", "{}"));
    Await.until(id + " dead", () -> status(id).equals(EventStatus.DEAD));
    runtime.admin().retry("testhook", "", id);
    Await.until(id + " done after the retry", () -> status(id).equals(EventStatus.DONE));
    return id;
  }

  /** A reader configured with another policy's N, as a CLI without --max-attempts would be. */
  private static InboxAdmin reader() {
    // a minute, not the page's 2 s: on a loaded machine a read may wait, and these tests assert outcomes
    return InboxAdmin.builder(runtime.dataSource()).maxAttempts(12).readTimeout(Duration.ofMinutes(1)).build();
  }

  private static EventStatus status(String id) {
    return reader().show("testhook", "", id).map(d -> d.summary().status()).orElse(EventStatus.PENDING);
  }

  /** Fails each event as many times as it was told to, with a message naming the failure. */
  public static final class Flaky {
    final Map<String, Integer> failures = new ConcurrentHashMap<>();
    final Map<String, AtomicInteger> seen = new ConcurrentHashMap<>();

    @OnEvent("flaky")
    public void handle(WebhookEvent event) {
      int n = seen.computeIfAbsent(event.eventId(), k -> new AtomicInteger()).incrementAndGet();
      if (n <= failures.getOrDefault(event.eventId(), 0)) {
        throw new IllegalStateException("failure " + n + " of " + event.eventId());
      }
    }
  }
}
