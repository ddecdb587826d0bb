package dev.hookledger.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import dev.hookledger.OnEvent;
import dev.hookledger.Secrets;
import dev.hookledger.runtime.testing.Await;
import dev.hookledger.runtime.testing.LedgerRows;
import dev.hookledger.runtime.testing.ServedRuntime;
import dev.hookledger.runtime.testing.TestDatabase;
import dev.hookledger.runtime.testing.TestHookAdapter;
import dev.hookledger.runtime.testing.TestHookSigner;
import dev.hookledger.runtime.testing.TestHttp;
import java.net.http.HttpResponse;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jooq.DSLContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** INLINE: the row, the handlers' writes and the settlement commit together before the answer, or not at all. */
class InlineModeTest {
  static final TestHookSigner SIGNER = new TestHookSigner("inline-secret");
  final Orders orders = new Orders();
  TestDatabase.Database db;
  ServedRuntime served;

  @AfterEach
  void stop() throws Exception {
    served.close();
  }

  @Test
  void successCommitsTheRowAndTheEffectBeforeTheAnswer() {
    start(WebhookRuntime.builder().mode(ProcessingMode.INLINE));

    HttpResponse<String> response = post("evt_ok", "order.paid", "{\"cents\":300}");

    assertEquals(200, response.statusCode());
    assertEquals("processed\n", response.body());
    // no waiting: both are committed when the answer arrives
    Map<String, Object> row = LedgerRows.event(db.dataSource(), "hookledger", "evt_ok").orElseThrow();
    assertEquals("done", row.get("status"));
    assertEquals(1, row.get("attempts"));
    assertEquals(300, balance());
  }

  @Test
  void doneEventIsWrittenOnceByItsInsertWithNoSettlingUpdate() {
    start(WebhookRuntime.builder().mode(ProcessingMode.INLINE)
        .retryPolicy(RetryPolicy.builder().maxAttempts(7).build()));
    countUpdatesOfEventRows();

    assertEquals("processed\n", post("evt_once", "order.paid", "{\"cents\":5}").body());

    Map<String, Object> row = LedgerRows.event(db.dataSource(), "hookledger", "evt_once").orElseThrow();
    assertEquals("done", row.get("status"));
    assertEquals(1, row.get("attempts"));
    assertEquals(7, row.get("max_attempts"));
    assertTrue(row.get("settled_at") != null, "settled_at is set by the insert");
    // the settling update could not be HOT: a new entry in every index of the event table, per event
    assertEquals(0, LedgerRows.number(db.dataSource(), "select count(*) from public.event_updates"));
  }

  @Test
  void eventNoHandlerWantsIsSettledIgnoredInTheSameTransaction() {
    start(WebhookRuntime.builder().mode(ProcessingMode.INLINE));
    countUpdatesOfEventRows();

    assertEquals("processed\n", post("evt_nobody", "nobody.listens", "{\"cents\":5}").body());

    Map<String, Object> row = LedgerRows.event(db.dataSource(), "hookledger", "evt_nobody").orElseThrow();
    assertEquals("ignored", row.get("status"));
    assertEquals(1, row.get("attempts"));
    assertEquals(1, LedgerRows.number(db.dataSource(), "select count(*) from public.event_updates"));
    assertEquals(0, balance());
  }

  @Test
  void handlerFailureAnswers500AndRecordsNothingSoTheRedeliveryIsProcessed() {
    start(WebhookRuntime.builder().mode(ProcessingMode.INLINE));
    orders.failing.set(true);

    HttpResponse<String> failed = post("evt_fail", "order.paid", "{\"cents\":300}");

    assertEquals(500, failed.statusCode());
    assertEquals("handler failed: nothing was recorded; redeliver to retry\n", failed.body());
    assertTrue(LedgerRows.event(db.dataSource(), "hookledger", "evt_fail").isEmpty(), "no row after a failed INLINE handler");
    assertEquals(0, balance(), "the handler's write was rolled back");

    orders.failing.set(false);
    HttpResponse<String> redelivered = post("evt_fail", "order.paid", "{\"cents\":300}");

    assertEquals("processed\n", redelivered.body());
    assertEquals(300, balance());
  }

  @Test
  void duplicateOfAnInlineEventIsAcknowledgedAndNotReprocessed() {
    start(WebhookRuntime.builder().mode(ProcessingMode.INLINE));
    assertEquals("processed\n", post("evt_dup", "order.paid", "{\"cents\":100}").body());

    HttpResponse<String> again = post("evt_dup", "order.paid", "{\"cents\":100}");

    assertEquals(200, again.statusCode());
    assertEquals("duplicate\n", again.body());
    assertEquals(100, balance());
  }

  @Test
  void inlinePatternsRunOnlyTheirTypesInline() {
    start(WebhookRuntime.builder().inline("order.*"));

    assertEquals("processed\n", post("evt_inline", "order.paid", "{\"cents\":1}").body());
    assertEquals(1, balance());
    assertEquals("accepted\n", post("evt_stored", "refund.created", "{\"cents\":2}").body());

    Await.until("the stored event settles", () -> "done".equals(
        LedgerRows.event(db.dataSource(), "hookledger", "evt_stored").orElseThrow().get("status")));
    assertEquals(3, balance());
  }

  private void start(WebhookRuntimeBuilder builder) {
    db = TestDatabase.create();
    db.execute("create table balance (cents bigint not null); insert into balance values (0)");
    served = ServedRuntime.serve(builder.dataSource(db.dataSource())
        .provider(new TestHookAdapter(), Secrets.of("inline-secret"))
        .handlers(orders));
  }

  /** A trigger of the test's own that counts each update of an event row, committed with it. */
  private void countUpdatesOfEventRows() {
    assumeFalse(TestDatabase.citus(), "Citus runs a trigger on the shards, which cannot write a coordinator's table");
    db.execute("create table public.event_updates (n int);"
        + " create function public.count_event_update() returns trigger language plpgsql as"
        + " $$ begin insert into public.event_updates values (1); return null; end $$;"
        + " create trigger count_event_update after update on hookledger.event"
        + " for each row execute function public.count_event_update()");
  }

  private HttpResponse<String> post(String id, String type, String body) {
    return TestHttp.send(SIGNER.request(served.uri("/webhooks/testhook"), id, type, body));
  }

  private long balance() {
    return LedgerRows.number(db.dataSource(), "select cents from balance");
  }

  record Amount(long cents) {}

  static final class Orders {
    final AtomicBoolean failing = new AtomicBoolean();

    @OnEvent({"order.paid", "refund.created"})
    void add(Amount amount, DSLContext tx) {
      tx.execute("update balance set cents = cents + ?", amount.cents());
      if (failing.get()) {
        throw new IllegalStateException("downstream system refused the order");
      }
    }
  }
}
