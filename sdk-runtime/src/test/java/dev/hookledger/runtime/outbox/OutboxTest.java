package dev.hookledger.runtime.outbox;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static dev.hookledger.runtime.outbox.OutboxFixture.SECRET;
import static dev.hookledger.runtime.outbox.OutboxFixture.attempts;
import static dev.hookledger.runtime.outbox.OutboxFixture.awaitEffects;
import static dev.hookledger.runtime.outbox.OutboxFixture.builder;
import static dev.hookledger.runtime.outbox.OutboxFixture.effects;
import static dev.hookledger.runtime.outbox.OutboxFixture.number;
import static dev.hookledger.runtime.outbox.OutboxFixture.receive;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.core.WireMockConfiguration;
import com.github.tomakehurst.wiremock.stubbing.Scenario;
import com.github.tomakehurst.wiremock.stubbing.ServeEvent;
import dev.hookledger.EventContext;
import dev.hookledger.HttpEffect;
import dev.hookledger.OnEvent;
import dev.hookledger.Outbox;
import dev.hookledger.PermanentEffectFailure;
import dev.hookledger.Secrets;
import dev.hookledger.WebhookEvent;
import dev.hookledger.runtime.EffectStatus;
import dev.hookledger.runtime.EventStatus;
import dev.hookledger.runtime.RetryPolicy;
import dev.hookledger.runtime.WebhookRuntime;
import dev.hookledger.runtime.admin.InboxAdmin;
import dev.hookledger.runtime.internal.outbox.EffectKeys;
import dev.hookledger.runtime.testing.Await;
import dev.hookledger.runtime.testing.TestDatabase;
import dev.hookledger.runtime.testing.TestHookAdapter;
import java.net.URI;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.jooq.SQLDialect;
import org.jooq.impl.DSL;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The outbox end to end on one node: an effect commits with its event or not at all, is sent after
 * the commit with a key derived from the event (the same on every try, in the destination's
 * header), is never enqueued twice, and is judged by the answer: 2xx done, 4xx dead at once with
 * the answer kept, 429 and 5xx retried honouring {@code Retry-After}. Real PostgreSQL, WireMock as
 * the destination.
 */
class OutboxTest {
  private final TestDatabase.Database db = OutboxFixture.database();
  private final WireMockServer destination = new WireMockServer(WireMockConfiguration.options().dynamicPort());

  OutboxTest() {
    destination.start();
  }

  @AfterEach
  void stop() {
    destination.stop();
  }

  private URI url() {
    return URI.create(destination.baseUrl());
  }

  private List<ServeEvent> requests() {
    return destination.getAllServeEvents().stream()
        .sorted(Comparator.comparing(e -> e.getRequest().getLoggedDate())).toList();
  }

  @Test
  void anEffectCommitsWithItsEventOrNotAtAllAndItsRetryEnqueuesItOnceWithTheSameKey() {
    destination.stubFor(post("/receipts").willReturn(aResponse().withStatus(200)));
    OutboxFixture.Receipts handler = new OutboxFixture.Receipts(1);
    try (WebhookRuntime runtime = builder(db.jdbcUrl(), url(), handler).build()) {
      runtime.start();
      receive(runtime, "evt_1");
      awaitEffects(db, 1, "done");
      Await.until("the event settled", () -> number(db,
          "select count(*) from hookledger.event where event_id = 'evt_1' and status = 'done'") == 1);
    }
    assertEquals(2, handler.calls.get(), "the first call failed after its send and rolled back; the retry ran");
    assertEquals(handler.keys.get(0), handler.keys.get(1), "the same key on both attempts");
    List<Map<String, Object>> rows = effects(db);
    assertEquals(1, rows.size(), "the rolled-back attempt left no effect");
    String handlerName = (String) rows.get(0).get("handler");
    assertEquals(EffectKeys.of("testhook", "", "evt_1", handlerName, "#1"), rows.get(0).get("idempotency_key"));
    assertEquals(1, number(db, "select count(*) from hookledger.handler_applied where handler = ?", handlerName),
        "the effect's handler is named as the ledger records it");
    List<ServeEvent> sent = requests();
    assertEquals(1, sent.size());
    assertEquals(handler.keys.get(0), sent.get(0).getRequest().getHeader("Idempotency-Key"));
    assertEquals("{\"event\":\"evt_1\"}", sent.get(0).getRequest().getBodyAsString());
    assertEquals("application/json", sent.get(0).getRequest().getHeader("Content-Type"));
  }

  @Test
  void theSameKeyGoesInTheDestinationsHeaderOnEveryTry() {
    destination.stubFor(post("/receipts").inScenario("flaky").whenScenarioStateIs(Scenario.STARTED)
        .willReturn(aResponse().withStatus(500).withBody("try again")).willSetStateTo("second"));
    destination.stubFor(post("/receipts").inScenario("flaky").whenScenarioStateIs("second")
        .willReturn(aResponse().withStatus(502)).willSetStateTo("up"));
    destination.stubFor(post("/receipts").inScenario("flaky").whenScenarioStateIs("up")
        .willReturn(aResponse().withStatus(201)));
    OutboxFixture.Receipts handler = new OutboxFixture.Receipts(0);
    try (WebhookRuntime runtime = builder(db.jdbcUrl(), url(), handler)
        .destination(OutboxFixture.receipts(url()).idempotencyHeader("X-Request-Key")).build()) {
      runtime.start();
      receive(runtime, "evt_2");
      awaitEffects(db, 1, "done");
    }
    List<ServeEvent> sent = requests();
    assertEquals(3, sent.size());
    for (ServeEvent e : sent) {
      assertEquals(handler.keys.get(0), e.getRequest().getHeader("X-Request-Key"));
      assertNull(e.getRequest().getHeader("Idempotency-Key"));
    }
    Map<String, Object> row = effects(db).get(0);
    assertEquals(3, ((Number) row.get("attempts")).intValue());
    assertEquals(201, ((Number) row.get("last_status_code")).intValue());
    assertEquals(List.of("retry 500 try again", "retry 502 null", "done 201 null"), attempts(db).stream()
        .map(a -> a.get("outcome") + " " + a.get("status_code") + " " + a.get("response_excerpt")).toList());
  }

  @Test
  void aRedeliveryAndARunOfTheHandlerAgainEnqueueNothingNew() {
    destination.stubFor(post("/receipts").willReturn(aResponse().withStatus(200)));
    OutboxFixture.Receipts handler = new OutboxFixture.Receipts(0);
    try (WebhookRuntime runtime = builder(db.jdbcUrl(), url(), handler).build()) {
      runtime.start();
      receive(runtime, "evt_3");
      awaitEffects(db, 1, "done");
      Await.until("the event settled", () -> number(db,
          "select count(*) from hookledger.event where event_id = 'evt_3' and status = 'done'") == 1);
      // the provider redelivers: a duplicate, nothing runs
      runtime.receive("testhook", OutboxFixture.SIGNER.delivery("testhook", "evt_3", "invoice.paid", "{}"));
      // the handler is run again over the settled event (its record removed, then a forced retry)
      db.execute("delete from hookledger.handler_applied where event_id = 'evt_3'");
      InboxAdmin.builder(db.dataSource()).build().retry("testhook", "", "evt_3", true);
      Await.until("the handler ran again", () -> handler.calls.get() == 2);
      Await.until("the event settled again", () -> number(db,
          "select count(*) from hookledger.event where event_id = 'evt_3' and status = 'done'") == 1);
    }
    assertEquals(handler.keys.get(0), handler.keys.get(1));
    assertEquals(1, effects(db).size(), "its send found its key taken: nothing enqueued twice");
    destination.verify(1, postRequestedFor(urlEqualTo("/receipts")));
  }

  @Test
  void a400IsDeadAtOnceWithItsAnswerKept() {
    destination.stubFor(post("/receipts").willReturn(aResponse().withStatus(400)
        .withBody("{\"error\":\"invoice unknown\"}" + "x".repeat(5000))));
    OutboxFixture.Recorder recorder = new OutboxFixture.Recorder();
    try (WebhookRuntime runtime = builder(db.jdbcUrl(), url(), new OutboxFixture.Receipts(0)).listener(recorder)
        .build()) {
      runtime.start();
      receive(runtime, "evt_4");
      awaitEffects(db, 1, "dead");
    }
    destination.verify(1, postRequestedFor(urlEqualTo("/receipts")));
    Map<String, Object> row = effects(db).get(0);
    assertEquals(1, ((Number) row.get("attempts")).intValue());
    assertEquals(400, ((Number) row.get("last_status_code")).intValue());
    assertEquals("HTTP 400 from POST localhost/receipts", row.get("last_error"));
    Map<String, Object> attempt = attempts(db).get(0);
    assertEquals("dead", attempt.get("outcome"));
    String excerpt = (String) attempt.get("response_excerpt");
    assertTrue(excerpt.startsWith("{\"error\":\"invoice unknown\"}"), excerpt);
    assertEquals(2048, excerpt.length(), "the first 2 KiB of the answer");
    assertEquals(1, recorder.attempts(EffectStatus.DEAD));
  }

  @Test
  void a429IsRetriedNoSoonerThanItsRetryAfter() {
    destination.stubFor(post("/receipts").inScenario("busy").whenScenarioStateIs(Scenario.STARTED)
        .willReturn(aResponse().withStatus(429).withHeader("Retry-After", "2")).willSetStateTo("free"));
    destination.stubFor(post("/receipts").inScenario("busy").whenScenarioStateIs("free")
        .willReturn(aResponse().withStatus(200)));
    try (WebhookRuntime runtime = builder(db.jdbcUrl(), url(), new OutboxFixture.Receipts(0)).build()) {
      runtime.start();
      receive(runtime, "evt_5");
      awaitEffects(db, 1, "done");
    }
    List<ServeEvent> sent = requests();
    assertEquals(2, sent.size());
    long gap = sent.get(1).getRequest().getLoggedDate().getTime() - sent.get(0).getRequest().getLoggedDate().getTime();
    // the destination's backoff alone would have retried after 50 ms
    assertTrue(gap >= 1900, "retried " + gap + " ms after a 429 with Retry-After: 2");
    assertEquals(List.of("retry", "done"), attempts(db).stream().map(a -> a.get("outcome")).toList());
  }

  @Test
  void aTypedEffectReachesItsEffectHandlerWithItsKeyAndAPermanentFailureIsDeadAtOnce() {
    List<OutboxFixture.Delivered> delivered = new CopyOnWriteArrayList<>();
    try (WebhookRuntime runtime = builder(db.jdbcUrl(), url(), new Mailer())
        .effectHandler("mail", ReceiptMail.class, (mail, d) -> {
          delivered.add(OutboxFixture.Delivered.of(mail, d));
          if (mail.to().endsWith("@invalid")) {
            throw new PermanentEffectFailure("address refused: " + mail.to());
          }
        }).build()) {
      runtime.start();
      receive(runtime, "evt_6", "invoice.paid", "{\"email\":\"ada@example.com\"}");
      receive(runtime, "evt_7", "invoice.paid", "{\"email\":\"bob@invalid\"}");
      awaitEffects(db, 1, "done");
      awaitEffects(db, 1, "dead");
    }
    OutboxFixture.Delivered ada = delivered.stream().filter(d -> d.eventId().equals("evt_6")).findFirst().orElseThrow();
    assertEquals(new ReceiptMail("ada@example.com", "evt_6"), ada.effect());
    assertEquals(EffectKeys.of("testhook", "", "evt_6", ada.handler(), "receipt-mail").toString(), ada.key());
    assertEquals(List.of(1, "mail", "receipt-mail", "testhook", ""), List.of(ada.attempt(), ada.destination(),
        ada.name(), ada.provider(), ada.scope()));
    assertEquals(1, delivered.stream().filter(d -> d.eventId().equals("evt_7")).count(), "dead at once");
    Map<String, Object> dead = effects(db).stream().filter(r -> r.get("event_id").equals("evt_7")).findFirst()
        .orElseThrow();
    assertEquals("dev.hookledger.PermanentEffectFailure: address refused: bob@invalid", dead.get("last_error"));
  }

  @Test
  void anEffectToAnUnknownDestinationFailsTheHandlerNamingIt() {
    try (WebhookRuntime runtime = builder(db.jdbcUrl(), url(), new Stray())
        .inbox(i -> i.retryPolicy(RetryPolicy.builder().maxAttempts(1).build())).build()) {
      runtime.start();
      receive(runtime, "evt_8");
      Await.until("the event is dead", () -> number(db,
          "select count(*) from hookledger.event where event_id = 'evt_8' and status = 'dead'") == 1);
    }
    String error = (String) DSL.using(db.dataSource(), SQLDialect.POSTGRES)
        .fetchValue("select last_error from hookledger.event where event_id = 'evt_8'");
    assertTrue(error.contains("java.lang.IllegalArgumentException: HttpEffect to destination 'billing': no such"
        + " destination (register it with WebhookRuntime.builder().destination(Destination.named(\"billing\").url(...)))"),
        error);
    assertEquals(0, effects(db).size());
  }

  @Test
  void afterCommitIsForInProcessNoticesAndItsFailureIsCounted() {
    OutboxFixture.Recorder recorder = new OutboxFixture.Recorder();
    try (WebhookRuntime runtime = builder(db.jdbcUrl(), url(), new Notices()).listener(recorder).build()) {
      runtime.start();
      receive(runtime, "evt_9");
      Await.until("the failing afterCommit action was counted", () -> recorder.afterCommit.size() == 1);
    }
    assertEquals("cache gone", recorder.afterCommit.get(0).getMessage());
    assertEquals(EventStatus.DONE.displayText(), DSL.using(db.dataSource(), SQLDialect.POSTGRES)
        .fetchValue("select status from hookledger.event where event_id = 'evt_9'"));
  }

  @Test
  void anOutboxOutsideItsHandlersCallIsRefused() {
    Keeper keeper = new Keeper();
    try (WebhookRuntime runtime = WebhookRuntime.builder().jdbcUrl(db.jdbcUrl())
        .provider(new TestHookAdapter(), Secrets.of(SECRET)).handlers(keeper).build()) {
      runtime.start();
      receive(runtime, "evt_10");
      Await.until("the handler ran", () -> keeper.kept != null);
      Await.until("the event settled", () -> number(db,
          "select count(*) from hookledger.event where event_id = 'evt_10' and status = 'done'") == 1);
    }
    IllegalStateException e = assertThrows(IllegalStateException.class, () -> keeper.kept.outbox());
    assertTrue(e.getMessage().startsWith("outbox() called after the transaction of "), e.getMessage());
  }

  /** The typed effect of {@link Mailer}. */
  public record ReceiptMail(String to, String invoice) {}

  public static final class Mailer {
    @OnEvent("invoice.paid")
    public void paid(WebhookEvent event, EventContext ctx) {
      ctx.outbox().send("receipt-mail", new ReceiptMail(event.payload().get("email").asText(), event.eventId()));
    }
  }

  public static final class Stray {
    @OnEvent("invoice.paid")
    public void paid(Outbox outbox) {
      outbox.send(HttpEffect.to("billing", "/charge").build());
    }
  }

  public static final class Keeper {
    volatile EventContext kept;

    @OnEvent("invoice.paid")
    public void paid(EventContext ctx) {
      kept = ctx;
    }
  }

  public static final class Notices {
    @OnEvent("invoice.paid")
    public void paid(EventContext ctx) {
      ctx.afterCommit(() -> {
        throw new IllegalStateException("cache gone");
      });
    }
  }
}
