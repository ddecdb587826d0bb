package dev.hookledger.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.hookledger.OnEvent;
import dev.hookledger.Secrets;
import dev.hookledger.runtime.testing.Await;
import dev.hookledger.runtime.testing.LedgerRows;
import dev.hookledger.runtime.testing.ServedRuntime;
import dev.hookledger.runtime.testing.TestDatabase;
import dev.hookledger.runtime.testing.TestHookAdapter;
import dev.hookledger.runtime.testing.TestHookSigner;
import dev.hookledger.runtime.testing.TestHttp;
import java.net.http.HttpRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.jooq.DSLContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Twenty copies of one delivery sent at the same instant over HTTP: the ledger decides, and the
 * effect (deliberately not idempotent: it adds to a balance) happens once.
 */
class ConcurrentDuplicateDeliveriesTest {
  static final int COPIES = 20;
  static final TestHookSigner SIGNER = new TestHookSigner("concurrent-secret");

  TestDatabase.Database db;
  ServedRuntime served;

  @AfterEach
  void stop() throws Exception {
    served.close();
  }

  @ParameterizedTest
  @EnumSource(value = ProcessingMode.class, names = {"STORE_FIRST", "INLINE"})
  void twentyConcurrentCopiesMakeOneRowAndOneEffect(ProcessingMode mode) throws Exception {
    Credits credits = new Credits();
    start(mode, credits);
    String body = "{\"account\":\"acme\",\"cents\":500}";
    HttpRequest request = SIGNER.request(served.uri("/webhooks/testhook"), "evt_concurrent", "credit.granted", body);

    Map<String, Integer> answers = sendAtOnce(request);

    String first = mode == ProcessingMode.INLINE ? "200 processed\n" : "200 accepted\n";
    assertEquals(new TreeMap<>(Map.of(first, 1, "200 duplicate\n", COPIES - 1)), answers);
    Await.until("the event settles", () -> "done".equals(
        LedgerRows.event(db.dataSource(), "hookledger", "evt_concurrent").orElseThrow().get("status")));
    assertEquals(1, LedgerRows.events(db.dataSource(), "hookledger"));
    assertEquals(500, LedgerRows.number(db.dataSource(), "select cents from balance where account = 'acme'"));
    assertEquals(1, credits.calls.get());
  }

  /** Sends {@code request} from {@link #COPIES} threads released by one latch; counts "status body" answers. */
  private Map<String, Integer> sendAtOnce(HttpRequest request) throws Exception {
    ExecutorService threads = Executors.newFixedThreadPool(COPIES);
    try {
      CountDownLatch ready = new CountDownLatch(COPIES);
      CountDownLatch go = new CountDownLatch(1);
      List<Future<String>> answers = new ArrayList<>();
      for (int i = 0; i < COPIES; i++) {
        answers.add(threads.submit(() -> {
          ready.countDown();
          go.await();
          var response = TestHttp.send(request);
          return response.statusCode() + " " + response.body();
        }));
      }
      ready.await();
      go.countDown();
      Map<String, Integer> counts = new TreeMap<>();
      for (Future<String> answer : answers) {
        counts.merge(answer.get(), 1, Integer::sum);
      }
      return counts;
    } finally {
      threads.shutdownNow();
    }
  }

  private void start(ProcessingMode mode, Object handler) {
    db = TestDatabase.create();
    db.execute("create table balance (account text primary key, cents bigint not null);"
        + " insert into balance values ('acme', 0)");
    served = ServedRuntime.serve(WebhookRuntime.builder()
        .jdbcUrl(db.jdbcUrl())
        .provider(new TestHookAdapter(), Secrets.of("concurrent-secret"))
        .handlers(handler)
        .mode(mode)
        .inbox(i -> i.workers(4)));
  }

  static final class Credits {
    final AtomicInteger calls = new AtomicInteger();

    @OnEvent("credit.granted")
    void grant(Credit credit, DSLContext tx) {
      tx.execute("update balance set cents = cents + ? where account = ?", credit.cents(), credit.account());
      calls.incrementAndGet();
    }
  }

  record Credit(String account, long cents) {}

  @Test
  void copiesAreCountedAsDuplicatesOnceTheEventIsSettled() throws Exception {
    start(ProcessingMode.STORE_FIRST, new Credits());
    HttpRequest request = SIGNER.request(served.uri("/webhooks/testhook"), "evt_counted", "credit.granted",
        "{\"account\":\"acme\",\"cents\":1}");
    assertEquals("accepted\n", TestHttp.send(request).body());
    Await.until("the event settles", () -> "done".equals(
        LedgerRows.event(db.dataSource(), "hookledger", "evt_counted").orElseThrow().get("status")));

    assertEquals(Map.of("200 duplicate\n", COPIES), sendAtOnce(request));

    assertEquals(COPIES, LedgerRows.event(db.dataSource(), "hookledger", "evt_counted").orElseThrow().get("duplicates"));
  }
}
