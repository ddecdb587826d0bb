package dev.hookledger.samples.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.hookledger.EventContext;
import dev.hookledger.WebhookEvent;
import dev.hookledger.internal.Json;
import dev.hookledger.runtime.testing.TestDatabase;
import dev.hookledger.samples.traffic.SampleEvents;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.jooq.DSLContext;
import org.jooq.ExecuteListener;
import org.jooq.SQLDialect;
import org.jooq.impl.DSL;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Each sample handler's effect on its own, payloads mapped from provider-shaped JSON by the mapper
 * the runtime uses. Run twice, the non-idempotent ones double their effect: that is what the
 * ledger is there to prevent (see {@code ServeProtectionsTest}).
 */
class SampleHandlersTest {
  private DSLContext db;
  private TestDatabase.Database database;

  @BeforeEach
  void freshDatabase() {
    database = TestDatabase.create();
    SampleSchema.migrate(database.dataSource());
    SampleSchema.migrate(database.dataSource()); // idempotent: every start runs it
    db = DSL.using(database.dataSource(), SQLDialect.POSTGRES);
  }

  @Test
  void invoicePaidAddsTheAmountPaidToTheCustomersBalanceEveryTimeItRuns() throws Exception {
    Billing.Invoice paid = read("""
        {"id":"in_1","object":"invoice","customer":"cus_ada","amount_paid":4200,"currency":"usd"}""",
        Billing.Invoice.class);
    new Billing().book(paid, db);
    assertEquals(Map.of("cus_ada", 4200L), state().balances());
    new Billing().book(paid, db);
    assertEquals(Map.of("cus_ada", 8400L), state().balances());
  }

  @Test
  void invoiceInAnotherCurrencyFailsAndBooksNothing() throws Exception {
    Billing.Invoice paid = read("""
        {"id":"in_eur","customer":"cus_ada","amount_paid":100,"currency":"eur"}""", Billing.Invoice.class);
    IllegalStateException e =
        assertThrows(IllegalStateException.class, () -> new Billing().book(paid, db));
    assertEquals("invoice in_eur is in EUR; this sample keeps balances in USD only", e.getMessage());
    assertEquals(Map.of(), state().balances());
  }

  @Test
  void subscriptionEventOverwritesStatusAndPlan() throws Exception {
    new Subscriptions().changed(subscription("trialing", "basic"), db);
    new Subscriptions().changed(subscription("active", "pro"), db);
    assertEquals(Map.of("sub_1", new SampleState.Subscription("active", "pro")),
        state().subscriptions());
  }

  @Test
  void subscriptionOfSeveralPricesRecordsEachByLookupKeyElseId() throws Exception {
    new Subscriptions().changed(read("""
        {"type":"customer.subscription.created","data":{"object":{"id":"sub_2","object":"subscription",
         "customer":"cus_bo","status":"active","items":{"object":"list","data":[
           {"id":"si_a","object":"subscription_item","price":{"id":"price_1Pz","lookup_key":"team"}},
           {"id":"si_b","object":"subscription_item","price":{"id":"price_1Qx","lookup_key":null}}]}}}}""",
        Subscriptions.SubscriptionChanged.class), db);
    assertEquals(Map.of("sub_2", new SampleState.Subscription("active", "team+price_1Qx")), state().subscriptions());
  }

  @Test
  void subscriptionsOfApiVersionsBeforePricesRecordTheirItemsPlansElseTheTopLevelPlan() throws Exception {
    new Subscriptions().changed(read("""
        {"type":"customer.subscription.updated","data":{"object":{"id":"sub_3","object":"subscription",
         "customer":"cus_cy","status":"active","plan":{"id":"gold"}}}}""", Subscriptions.SubscriptionChanged.class), db);
    new Subscriptions().changed(read("""
        {"type":"customer.subscription.created","data":{"object":{"id":"sub_4","object":"subscription",
         "customer":"cus_cy","status":"active","plan":null,"items":{"object":"list","data":[
           {"id":"si_a","object":"subscription_item","plan":{"id":"silver"}},
           {"id":"si_b","object":"subscription_item","plan":{"id":"addon"}}]}}}}""",
        Subscriptions.SubscriptionChanged.class), db);
    assertEquals(Map.of("sub_3", new SampleState.Subscription("active", "gold"),
        "sub_4", new SampleState.Subscription("active", "silver+addon")), state().subscriptions());
  }

  @Test
  void subscriptionsTheSampleCannotKeepAreRefusedWithItsOwnOneLineReason() throws Exception {
    Subscriptions.SubscriptionChanged noId = read("""
        {"type":"customer.subscription.updated","data":{"object":{"object":"subscription",
         "customer":"cus_2013","status":"trialing","plan":{"id":"gold"}}}}""", Subscriptions.SubscriptionChanged.class);
    assertEquals("the subscription of customer cus_2013 has no id (an API version before 2014-01-31, one subscription"
        + " per customer); this sample keeps subscriptions by id",
        assertThrows(IllegalStateException.class, () -> new Subscriptions().changed(noId, db)).getMessage());
    Subscriptions.SubscriptionChanged noPlan = read("""
        {"type":"customer.subscription.updated","data":{"object":{"id":"sub_5","customer":"cus_cy",
         "status":"active","items":{"data":[]},"plan":null}}}""", Subscriptions.SubscriptionChanged.class);
    assertEquals("subscription sub_5 names no price or plan; this sample records a plan for every subscription",
        assertThrows(IllegalStateException.class, () -> new Subscriptions().changed(noPlan, db)).getMessage());
    assertEquals(Map.of(), state().subscriptions());
  }

  @Test
  void invoicesTheSampleCannotBookAreRefusedWithItsOwnOneLineReason() throws Exception {
    Billing.Invoice noCustomer = read("""
        {"id":"in_n","customer":null,"amount_paid":100,"currency":"usd"}""", Billing.Invoice.class);
    assertEquals("invoice in_n has no customer; this sample keeps balances per customer only",
        assertThrows(IllegalStateException.class, () -> new Billing().book(noCustomer, db)).getMessage());
    Billing.Invoice before2018 = read("""
        {"id":"in_o","customer":"cus_ada","total":100,"currency":"usd"}""", Billing.Invoice.class);
    assertEquals("invoice in_o has no amount_paid (an API version before it existed); this sample books amount_paid"
        + " only", assertThrows(IllegalStateException.class, () -> new Billing().book(before2018, db)).getMessage());
    assertEquals(Map.of(), state().balances());
  }

  @Test
  void issueOpenedOpensOneTicketEachTimeItRuns() throws Exception {
    Tickets.IssueOpened opened = read("""
        {"action":"opened","issue":{"id":1,"number":1347,"title":"Found a bug"},
         "repository":{"id":1296269,"full_name":"octocat/Hello-World"}}""", Tickets.IssueOpened.class);
    RecordingContext ctx = new RecordingContext();
    new Tickets().opened(opened, db, ctx);
    new Tickets().opened(opened, db, ctx);
    assertEquals(2, state().tickets());
    assertEquals(2, ctx.afterCommit.size());
  }

  @Test
  void pushAddsItsCommitsToTheRepositorysCounter() throws Exception {
    Commits.Push push = read("""
        {"ref":"refs/heads/main","commits":[{"id":"a1"},{"id":"b2"},{"id":"c3"}],
         "repository":{"full_name":"octocat/Hello-World"}}""", Commits.Push.class);
    new Commits().pushed(push, db);
    new Commits().pushed(push, db);
    assertEquals(Map.of("octocat/Hello-World", 6L), state().commits());
  }

  @Test
  void orderEventKeepsTotalAndFinancialStatusOfLargeOrderIds() throws Exception {
    Orders.Order created = read("""
        {"id":820982911946154508,"name":"#1001","total_price":"199.00","financial_status":"pending",
         "updated_at":"2024-09-10T11:14:00-04:00"}""", Orders.Order.class);
    Orders.Order paid = read("""
        {"id":820982911946154508,"name":"#1001","total_price":"189.5","financial_status":"paid"}""",
        Orders.Order.class);
    new Orders().changed(created, db);
    new Orders().changed(paid, db);
    assertEquals(Map.of("820982911946154508", new SampleState.Order("189.50", "paid")),
        state().orders());
  }

  @Test
  void everyHandlerRunsItsStatementPreparedOnTheTransactionsConnectionNotThroughJooqsPlainSqlPath()
      throws Exception {
    // jOOQ's plain-SQL path rendered and classified each statement per call: 57 % of bench's worker CPU
    List<String> renderedByJooq = new ArrayList<>();
    DSLContext watched = DSL.using(database.dataSource(), SQLDialect.POSTGRES);
    watched.configuration().set(ExecuteListener.onRenderEnd(ctx -> renderedByJooq.add(ctx.sql())));
    new Billing().book(read("""
        {"id":"in_1","customer":"cus_ada","amount_paid":4200,"currency":"usd"}""", Billing.Invoice.class), watched);
    new Commits().pushed(read("""
        {"ref":"refs/heads/main","commits":[{"id":"a1"}],"repository":{"full_name":"o/r"}}""", Commits.Push.class),
        watched);
    new Orders().changed(read("""
        {"id":7,"name":"#7","total_price":"1.50","financial_status":"paid"}""", Orders.Order.class), watched);
    new Subscriptions().changed(subscription("active", "pro"), watched);
    new Tickets().opened(read("""
        {"issue":{"number":1,"title":"t"},"repository":{"full_name":"o/r"}}""", Tickets.IssueOpened.class), watched,
        new RecordingContext());
    assertEquals(List.of(), renderedByJooq);
    SampleState state = state();
    assertEquals(List.of(), new SampleState(new TreeMap<>(Map.of("cus_ada", 4200L)),
        new TreeMap<>(Map.of("sub_1", new SampleState.Subscription("active", "pro"))), 1,
        new TreeMap<>(Map.of("o/r", 1L)), new TreeMap<>(Map.of("7", new SampleState.Order("1.50", "paid"))))
        .differencesFrom(state));
  }

  @Test
  void differencesNameEachEntryThatDiffers() {
    SampleState expected = new SampleState(new TreeMap<>(Map.of("cus_ada", 4200L)), new TreeMap<>(),
        1, new TreeMap<>(), new TreeMap<>());
    SampleState actual = new SampleState(new TreeMap<>(Map.of("cus_ada", 8400L)), new TreeMap<>(),
        2, new TreeMap<>(Map.of("o/r", 3L)), new TreeMap<>());
    assertEquals(List.of("balances[cus_ada]: expected 4200, was 8400", "tickets: expected 1, was 2",
        "commits[o/r]: expected nothing, was 3"), expected.differencesFrom(actual));
    assertEquals(List.of(), expected.differencesFrom(expected));
  }

  private SampleState state() {
    return SampleState.read(db);
  }

  /** A current-version event (items.data[].price, no top-level plan), as SampleEvents builds it. */
  private static Subscriptions.SubscriptionChanged subscription(String status, String plan)
      throws Exception {
    return read(SampleEvents.subscription("evt_1", "updated", "sub_1", "cus_ada", status, plan, Instant.now()),
        Subscriptions.SubscriptionChanged.class);
  }

  private static <T> T read(String json, Class<T> type) throws Exception {
    return Json.MAPPER.readValue(json, type);
  }

  /** Collects afterCommit actions; the handler must not run them itself. */
  private static final class RecordingContext implements EventContext {
    final List<Runnable> afterCommit = new ArrayList<>();

    @Override
    public WebhookEvent event() {
      throw new AssertionError("not used by the handler");
    }

    @Override
    public int attempt() {
      return 1;
    }

    @Override
    public String idempotencyKey() {
      return "key";
    }

    @Override
    public void afterCommit(Runnable action) {
      afterCommit.add(action);
    }
  }
}
