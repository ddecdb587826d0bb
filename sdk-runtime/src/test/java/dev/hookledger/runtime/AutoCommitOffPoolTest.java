package dev.hookledger.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.hookledger.EventContext;
import dev.hookledger.OnEvent;
import dev.hookledger.Secrets;
import dev.hookledger.WebhookEvent;
import dev.hookledger.runtime.admin.InboxAdmin;
import dev.hookledger.runtime.admin.PruneReport;
import dev.hookledger.runtime.testing.Await;
import dev.hookledger.runtime.testing.LedgerRows;
import dev.hookledger.runtime.testing.ServedRuntime;
import dev.hookledger.runtime.testing.TestDatabase;
import dev.hookledger.runtime.testing.TestHookAdapter;
import dev.hookledger.runtime.testing.TestHookSigner;
import dev.hookledger.runtime.testing.TestHttp;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Every state transition the runtime writes outside a handler's transaction holds on a HikariCP pool
 * with {@code autoCommit=false} (a common Hibernate tuning), on which a bare statement is rolled back
 * when its connection goes back to the pool: lease renewal, reschedule, bury, an operator's retry and
 * prune, SHADOW's take-back. Each test asserts the final state, never timing.
 */
class AutoCommitOffPoolTest {
  static final String SECRET = "autocommit-off-secret";
  static final TestHookSigner SIGNER = new TestHookSigner(SECRET);

  final TestDatabase.Database db = TestDatabase.create();
  final HikariDataSource pool = autoCommitOff(db.jdbcUrl());

  @AfterEach
  void closePool() {
    pool.close();
  }

  @Test
  void failedAttemptsAreRescheduledThenBuried() {
    Handler handler = new Handler();
    try (WebhookRuntime runtime = builder(handler)
        .inbox(i -> i.retryPolicy(RetryPolicy.builder().maxAttempts(3).firstDelay(Duration.ofMillis(50)).jitter(0).build()))
        .build()) {
      runtime.migrate();
      runtime.start();
      receive(runtime, "evt_dies");
      awaitStatus("evt_dies", "dead");
    }
    Map<String, Object> row = row("evt_dies").orElseThrow();
    assertEquals(3, ((Number) row.get("attempts")).intValue());
    assertEquals(3, handler.attempts.size(), "each attempt ran once: none was lost and run again");
  }

  @Test
  void operatorRetryOfADeadEventIsCommitted() {
    Handler handler = new Handler();
    try (WebhookRuntime runtime = builder(handler)
        .inbox(i -> i.retryPolicy(RetryPolicy.builder().maxAttempts(1).build())).build()) {
      runtime.migrate();
      runtime.start();
      receive(runtime, "evt_retried");
      awaitStatus("evt_retried", "dead");

      handler.failing.set(false);
      runtime.admin().retry("testhook", "", "evt_retried");
      awaitStatus("evt_retried", "done");
    }
  }

  @Test
  void leaseOfASlowHandlerIsRenewedWhileItRuns() throws Exception {
    Slow slow = new Slow();
    try (WebhookRuntime runtime = builder(slow).inbox(i -> i.lease(Duration.ofSeconds(3))).build()) {
      runtime.migrate();
      runtime.start();
      receive(runtime, "evt_slow");
      assertEquals(true, slow.started.await(15, TimeUnit.SECONDS));
      Instant first = leaseUntil("evt_slow");
      // a renewal that is rolled back leaves lease_until where the claim put it
      Await.until("the lease is renewed", () -> leaseUntil("evt_slow").isAfter(first));
      slow.release.countDown();
      awaitStatus("evt_slow", "done");
    }
    assertEquals(List.of("evt_slow"), slow.ran, "run once: the lease was never taken over");
  }

  @Test
  void claimedEventsNotStartedAreGivenBackAtClose() throws Exception {
    Slow slow = new Slow();
    try {
      try (WebhookRuntime runtime = builder(slow)
          .inbox(i -> i.batchSize(4).shutdownTimeout(Duration.ofMillis(500))).build()) {
        runtime.migrate();
        for (int i = 0; i < 4; i++) {
          db.execute("insert into hookledger.event (provider, scope, event_id, type, body)"
              + " values ('testhook', '', 'evt_queued_" + i + "', 'order.paid', '\\x7b7d')");
        }
        runtime.start(); // claims the four at once: one runs (and blocks), three wait in the pool
        assertEquals(true, slow.started.await(15, TimeUnit.SECONDS));
        Await.until("four claimed", () -> LedgerRows.number(db.dataSource(),
            "select count(*) from hookledger.event where status = 'processing'") == 4);
      }
      // bare, the give-back was rolled back: three rows stuck 'processing' until their leases ran out
      assertEquals(3, LedgerRows.number(db.dataSource(),
          "select count(*) from hookledger.event where status = 'pending' and attempts = 0"));
    } finally {
      slow.release.countDown();
    }
  }

  @Test
  void notificationWakesTheWorkersOfAnotherRuntime() {
    Handler handler = new Handler();
    handler.failing.set(false);
    // polls once a minute: only the notification can bring the event to it within the wait
    try (WebhookRuntime worker = builder(handler).inbox(i -> i.pollInterval(Duration.ofMinutes(1))).build();
        WebhookRuntime receiver = builder(new Handler()).inbox(i -> i.workers(0)).build()) {
      worker.migrate();
      worker.start();
      receiver.start();
      Await.until("the worker listens", () -> LedgerRows.number(db.dataSource(), "select count(*) from"
          + " pg_stat_activity where datname = current_database() and application_name = 'hookledger-listener'") == 1);
      receive(receiver, "evt_notified");
      awaitStatus("evt_notified", "done");
    }
    assertEquals(1, handler.attempts.size());
  }

  /**
   * The chart reads in a read-only transaction of its own (one snapshot): on this pool too it is
   * begun before its first statement and ended, so that each read finds its connection clean.
   */
  @Test
  void theChartIsReadInATransactionOfItsOwnEachTime() {
    try (WebhookRuntime runtime = builder(new Handler()).build()) {
      runtime.migrate();
      db.execute("insert into hookledger.event (provider, scope, event_id, type, body, status, received_at, settled_at)"
          + " select 'testhook', '', 'evt_' || i, 't', '\\x7b7d', 'done', now() - i * interval '1 minute',"
          + " now() - i * interval '1 minute' from generate_series(1, 5) i");
      InboxAdmin admin = InboxAdmin.builder(pool).build();
      for (int read = 0; read < 3; read++) { // each on a connection a read before gave back
        assertEquals(5, admin.throughput().minutes().stream().mapToLong(m -> m.received()).sum());
      }
    }
  }

  @Test
  void pruneDeletesSettledRowsAndEnds() {
    try (WebhookRuntime runtime = builder(new Handler()).build()) {
      runtime.migrate();
      for (int i = 0; i < 5; i++) {
        db.execute("insert into hookledger.event (provider, scope, event_id, type, body, status, settled_at)"
            + " values ('testhook', '', 'evt_old_" + i + "', 't', '\\x7b7d', 'done', now() - interval '40 days')");
      }
      InboxAdmin admin = InboxAdmin.builder(pool).pruneBatchSize(2).build();
      // bare, each batch was rolled back and the loop deleted the same rows for ever
      PruneReport report = assertTimeoutPreemptively(Duration.ofSeconds(60),
          () -> admin.prune(Duration.ofDays(30), false));
      assertEquals(5, report.deleted());
      assertEquals(0, LedgerRows.events(db.dataSource(), "hookledger"));
    }
  }

  @Test
  void shadowTakesBackTheRowOfADeliveryTheExistingEndpointFailed() throws Exception {
    try (ServedRuntime shadow = ServedRuntime.serve(builder(new Handler()).mode(ProcessingMode.SHADOW),
        context -> context.addServlet(new ServletHolder(new Failing()), "/webhooks/*"))) {
      shadow.runtime().migrate();
      assertEquals(500, TestHttp.send(SIGNER.request(shadow.uri("/webhooks/testhook"), "evt_failed", "order.paid", "{}"))
          .statusCode());
      Await.until("the failed one's row is taken back", () -> row("evt_failed").isEmpty());
    }
  }

  private WebhookRuntimeBuilder builder(Object handler) {
    return WebhookRuntime.builder()
        .dataSource(pool)
        .provider(new TestHookAdapter(), Secrets.of(SECRET))
        .handlers(handler)
        .inbox(i -> i.workers(1)
            .pollInterval(Duration.ofMillis(100)));
  }

  private static HikariDataSource autoCommitOff(String jdbcUrl) {
    HikariConfig c = new HikariConfig();
    c.setJdbcUrl(jdbcUrl);
    c.setAutoCommit(false);
    c.setMaximumPoolSize(6);
    c.setPoolName("autocommit-off");
    return new HikariDataSource(c);
  }

  private static void receive(WebhookRuntime runtime, String id) {
    assertEquals(Receipt.Outcome.ACCEPTED,
        runtime.receive("testhook", SIGNER.delivery("testhook", id, "order.paid", "{}")).outcome());
  }

  private Optional<Map<String, Object>> row(String id) {
    return LedgerRows.event(db.dataSource(), "hookledger", id);
  }

  private void awaitStatus(String id, String status) {
    Await.until(id + " is " + status, () -> row(id).map(r -> status.equals(r.get("status"))).orElse(false));
  }

  private Instant leaseUntil(String id) {
    return LedgerRows.first(db.dataSource(), "select lease_until from hookledger.event where event_id = ?", id)
        .map(r -> ((java.sql.Timestamp) r.get("lease_until")).toInstant()).orElseThrow();
  }

  /** Fails while {@link #failing}, recording each attempt. */
  static final class Handler {
    final AtomicBoolean failing = new AtomicBoolean(true);
    final List<Integer> attempts = new CopyOnWriteArrayList<>();

    @OnEvent("*")
    void any(WebhookEvent event, EventContext context) {
      attempts.add(context.attempt());
      if (failing.get()) {
        throw new IllegalStateException("downstream is down");
      }
    }
  }

  /** Runs until released. */
  static final class Slow {
    final CountDownLatch started = new CountDownLatch(1);
    final CountDownLatch release = new CountDownLatch(1);
    final List<String> ran = new CopyOnWriteArrayList<>();

    @OnEvent("*")
    void any(WebhookEvent event) throws InterruptedException {
      ran.add(event.eventId());
      started.countDown();
      release.await(60, TimeUnit.SECONDS);
    }
  }

  /** The application's endpoint from before hookledger, failing every delivery. */
  static final class Failing extends HttpServlet {
    private static final long serialVersionUID = 1L;

    @Override
    protected void doPost(HttpServletRequest req, HttpServletResponse resp) throws IOException {
      req.getInputStream().readAllBytes();
      resp.setStatus(500);
    }
  }
}
