package dev.hookledger.runtime.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hookledger.LedgerUnavailableException;
import dev.hookledger.OnEvent;
import dev.hookledger.Secrets;
import dev.hookledger.runtime.EventStatus;
import dev.hookledger.runtime.Receipt;
import dev.hookledger.runtime.RetryPolicy;
import dev.hookledger.runtime.WebhookFilter;
import dev.hookledger.runtime.WebhookRuntime;
import dev.hookledger.runtime.admin.EventSummary;
import dev.hookledger.runtime.testing.Await;
import dev.hookledger.runtime.testing.LedgerRows;
import dev.hookledger.runtime.testing.TestDatabase;
import dev.hookledger.runtime.testing.TestHookAdapter;
import dev.hookledger.runtime.testing.TestHookSigner;
import dev.hookledger.runtime.testing.TestServer;
import jakarta.servlet.DispatcherType;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.EnumSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.jetty.ee10.servlet.FilterHolder;
import org.junit.jupiter.api.Test;

/** The published test helper delivers, waits for settlement, and posts over HTTP to a running filter. */
class SignedDeliveriesTest {
  static final TestHookSigner SIGNER = new TestHookSigner("testkit-secret");

  @Test
  void aDeliveryIsSettledDoneWithItsEffectCommittedAndADuplicateRunsNothing() {
    Counter counter = new Counter();
    try (WebhookRuntime runtime = start("tk_done", counter)) {
      SignedDeliveries deliveries = SignedDeliveries.to(runtime);

      EventSummary settled = deliveries.deliverAndSettle("testhook",
          SIGNER.delivery("testhook", "evt_tk_1", "thing.happened", "{}"));
      assertEquals(EventStatus.DONE, settled.status());
      assertEquals(1, counter.calls.get());

      Receipt again = deliveries.deliver("testhook", SIGNER.delivery("testhook", "evt_tk_1", "thing.happened", "{}"));
      assertEquals(Receipt.Outcome.DUPLICATE, again.outcome());
      assertEquals(EventStatus.DONE, deliveries.awaitSettled(again.event()).status());
      assertEquals(1, counter.calls.get());
    }
  }

  @Test
  void anEventThatDoesNotSettleInTimeIsReportedWithItsLastError() {
    try (WebhookRuntime runtime = start("tk_pending", new Failing())) {
      SignedDeliveries deliveries = SignedDeliveries.to(runtime).timeout(Duration.ofMillis(500));
      Receipt received = deliveries.deliver("testhook", SIGNER.delivery("testhook", "evt_tk_2", "thing.happened", "{}"));
      // its first attempt failed (retried in 5 minutes), however long the attempt took on a loaded machine
      Await.until("the first attempt fails", () -> firstAttemptFailed(runtime, received));

      IllegalStateException e = assertThrows(IllegalStateException.class, () -> deliveries.awaitSettled(received.event()));
      assertTrue(e.getMessage().startsWith("testhook event evt_tk_2 thing.happened is not settled after 500 ms:"
          + " status pending, 1 attempts, last error: @OnEvent method"), e.getMessage());
    }
  }

  @Test
  void postSendsTheSignedBytesThroughTheFilterOverHttp() throws Exception {
    Counter counter = new Counter();
    try (WebhookRuntime runtime = start("tk_http", counter);
        TestServer server = TestServer.start(context -> context.addFilter(new FilterHolder(new WebhookFilter(runtime)),
            "/*", EnumSet.of(DispatcherType.REQUEST)))) {
      SignedDeliveries.Answer answer = SignedDeliveries.post(server.uri(""),
          SIGNER.delivery("testhook", "evt_tk_3", "thing.happened", "{\"n\":1}"));
      assertEquals(new SignedDeliveries.Answer(200, "accepted"), new SignedDeliveries.Answer(answer.status(),
          answer.body().strip()));

      SignedDeliveries.Answer forged = SignedDeliveries.post(server.uri(""),
          new TestHookSigner("another-secret").delivery("testhook", "evt_tk_4", "thing.happened", "{}"));
      assertEquals(401, forged.status());
    }
  }

  @Test
  void aReadPastTheAdminsDeadlineIsReadAgainWithinTheTimeout() throws Exception {
    TestDatabase.Database db = TestDatabase.create();
    SignedDeliveries deliveries;
    Receipt received;
    try (WebhookRuntime runtime = start(db, "tk_slow", new Counter())) {
      deliveries = SignedDeliveries.to(runtime).timeout(Duration.ofMinutes(2));
      received = deliveries.deliver("testhook", SIGNER.delivery("testhook", "evt_tk_5", "thing.happened", "{}"));
      deliveries.awaitSettled(received.event());
    }
    // the runtime is closed (its admin reads on): now only the helper's reads touch the ledger, and for
    // longer than the admin's 2 s read deadline the database answers none of them
    try (Connection holder = db.dataSource().getConnection(); Statement s = holder.createStatement()) {
      holder.setAutoCommit(false);
      s.execute("lock table tk_slow.event in access exclusive mode");
      CompletableFuture<EventSummary> settled = CompletableFuture.supplyAsync(() -> deliveries.awaitSettled(received.event()));
      int holding = pid(holder);
      // a second read waits beside the first: the first ran past its deadline, and was not the end
      Await.until("two reads wait for the ledger", Duration.ofSeconds(60), () -> settled.isDone()
          || LedgerRows.number(db.dataSource(), "select count(*) from pg_stat_activity where datname = current_database()"
              + " and wait_event_type = 'Lock' and pid <> ?", holding) >= 2);
      holder.commit();
      assertEquals(EventStatus.DONE, settled.get(2, TimeUnit.MINUTES).status());
    }
  }

  private static int pid(Connection c) throws java.sql.SQLException {
    try (Statement s = c.createStatement(); var r = s.executeQuery("select pg_backend_pid()")) {
      r.next();
      return r.getInt(1);
    }
  }

  private static boolean firstAttemptFailed(WebhookRuntime runtime, Receipt received) {
    try {
      return runtime.admin().show("testhook", received.event().scope(), "evt_tk_2")
          .map(d -> d.summary().status() == EventStatus.PENDING && d.summary().attempts() == 1).orElse(false);
    } catch (LedgerUnavailableException e) {
      return false; // a read past the admin's 2 s deadline on a loaded machine: read again
    }
  }

  private static WebhookRuntime start(String schema, Object handler) {
    return start(TestDatabase.create(), schema, handler);
  }

  private static WebhookRuntime start(TestDatabase.Database db, String schema, Object handler) {
    WebhookRuntime runtime = WebhookRuntime.builder()
        .dataSource(db.forRuntime())
        .schema(schema)
        .provider(new TestHookAdapter(), Secrets.of("testkit-secret"))
        .handlers(handler)
        .inbox(i -> i.retryPolicy(RetryPolicy.builder().firstDelay(Duration.ofMinutes(5)).build()))
        .build();
    runtime.migrate();
    runtime.start();
    return runtime;
  }

  static final class Counter {
    final AtomicInteger calls = new AtomicInteger();

    @OnEvent("thing.happened")
    void happened() {
      calls.incrementAndGet();
    }
  }

  static final class Failing {
    @OnEvent("thing.happened")
    void happened() {
      throw new IllegalStateException("not today");
    }
  }
}
