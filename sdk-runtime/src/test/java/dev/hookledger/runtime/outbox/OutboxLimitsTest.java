package dev.hookledger.runtime.outbox;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.containing;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static dev.hookledger.runtime.outbox.OutboxFixture.awaitEffects;
import static dev.hookledger.runtime.outbox.OutboxFixture.builder;
import static dev.hookledger.runtime.outbox.OutboxFixture.number;
import static dev.hookledger.runtime.outbox.OutboxFixture.receive;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.core.WireMockConfiguration;
import com.github.tomakehurst.wiremock.stubbing.Scenario;
import com.github.tomakehurst.wiremock.stubbing.ServeEvent;
import dev.hookledger.HttpEffect;
import dev.hookledger.OnEvent;
import dev.hookledger.Outbox;
import dev.hookledger.WebhookEvent;
import dev.hookledger.runtime.WebhookRuntime;
import dev.hookledger.runtime.testing.Await;
import dev.hookledger.runtime.testing.TestDatabase;
import java.net.URI;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * What the nodes of one ledger hold together through PostgreSQL: a destination's rate across two
 * runtimes, and on one node whose senders are all busy, judged by the destination's own receive
 * times (never the test's clock) once nodes and destination are warm; and the order of effects that
 * share an ordering key, through retries, while a stuck head holds only its key.
 */
class OutboxLimitsTest {
  private static final double RATE = 4;
  private static final int BURST = 2;

  private final TestDatabase.Database db = OutboxFixture.database();
  private final WireMockServer destination = new WireMockServer(WireMockConfiguration.options().dynamicPort());

  OutboxLimitsTest() {
    destination.start();
  }

  @AfterEach
  void stop() {
    destination.stop();
  }

  private List<ServeEvent> received() {
    return destination.getAllServeEvents().stream()
        .sorted(Comparator.comparing(e -> e.getRequest().getLoggedDate())).toList();
  }

  @Test
  void aDestinationsRateHoldsAcrossTwoNodes() {
    int effects = 16;
    destination.stubFor(post("/receipts").willReturn(aResponse().withStatus(200)));
    URI url = URI.create(destination.baseUrl());
    try (WebhookRuntime a = builder(db.jdbcUrl(), url, new OutboxFixture.Receipts(0))
            .destination(OutboxFixture.receipts(url).ratePerSecond(RATE).burst(BURST)).build();
        WebhookRuntime b = builder(db.jdbcUrl(), url, new OutboxFixture.Receipts(0))
            .destination(OutboxFixture.receipts(url).ratePerSecond(RATE).burst(BURST)).build()) {
      a.start();
      b.start();
      long warm = warmUp(a, b);
      for (int i = 0; i < effects; i++) {
        receive(i % 2 == 0 ? a : b, "evt_rate_" + i);
      }
      awaitEffects(db, warm + effects, "done");
    }
    assertTrue(number(db, "select count(distinct a.node) from hookledger.effect_attempt a join hookledger.effect e"
        + " using (scope, idempotency_key) where e.event_id like 'evt_rate_%'") == 2, "both nodes sent");
    assertRateHeld(effects);
  }

  @Test
  void aDestinationsRateHoldsOnOneNodeWhileItsSendersAreBusy() {
    // the first 4 effects are answered after 3 s and hold all 4 senders; a claim that took tokens
    // for effects no sender could start would queue them, and they would leave together with the
    // tokens refilled meanwhile when the senders come free
    int slow = 4;
    int effects = 16;
    destination.stubFor(post("/receipts").willReturn(aResponse().withStatus(200)));
    destination.stubFor(post("/receipts").withRequestBody(containing("evt_slow_"))
        .willReturn(aResponse().withStatus(200).withFixedDelay(3000)));
    URI url = URI.create(destination.baseUrl());
    try (WebhookRuntime runtime = builder(db.jdbcUrl(), url, new OutboxFixture.Receipts(0)).outboxWorkers(slow)
        .destination(OutboxFixture.receipts(url).ratePerSecond(RATE).burst(BURST)).build()) {
      runtime.start();
      long warm = warmUp(runtime);
      // committed first, so that they are claimed first
      for (int i = 0; i < slow; i++) {
        receive(runtime, "evt_slow_" + i);
      }
      Await.until("the slow effects committed", () -> number(db, "select count(*) from hookledger.effect"
          + " where event_id like 'evt_slow_%'") == slow);
      for (int i = slow; i < effects; i++) {
        receive(runtime, "evt_fast_" + i);
      }
      awaitEffects(db, warm + effects, "done");
    }
    assertRateHeld(effects);
  }

  /**
   * Sends warm-up effects through the runtimes until each has sent one, then clears the
   * destination's log: a node's first send starts its sender threads and makes its HTTP client, and
   * the destination's first request loads its classes, each holding requests the limiter issued
   * apart (on a quiet 2-core machine, seven requests issued 250 ms apart reached a cold destination
   * within 6 ms). The limiter governs when requests start; a rate is judged where that is what the
   * destination sees.
   *
   * @return the warm-up effects sent
   */
  private long warmUp(WebhookRuntime... nodes) {
    int i = 0;
    while (number(db, "select count(distinct node) from hookledger.effect_attempt") < nodes.length) {
      assertTrue(i < 10, "every node sent one of 10 warm-up effects");
      receive(nodes[i % nodes.length], "evt_warm_" + i);
      long sent = ++i;
      // a cold start is what this waits out, and it grows with the machine's load (one at a load
      // average of 60 outlasted the 30 s every other effect is given)
      Await.until(sent + " warm-up effects done", Duration.ofSeconds(120), () -> number(db,
          "select count(*) from hookledger.effect where status = 'done'") == sent);
    }
    destination.resetRequests();
    return i;
  }

  /**
   * In any 2 s the destination saw at most rate × 2 s + burst requests, and 1 more for a request
   * claimed at a window's edge and received late; unlimited, all arrive within a second.
   */
  private void assertRateHeld(int effects) {
    List<Long> at = received().stream().map(e -> e.getRequest().getLoggedDate().getTime()).toList();
    assertEquals(effects, at.size());
    long window = 2000;
    int most = (int) (RATE * window / 1000) + BURST + 1;
    for (int i = 0; i < at.size(); i++) {
      long from = at.get(i);
      long within = at.stream().filter(t -> t >= from && t < from + window).count();
      assertTrue(within <= most, within + " requests within 2 s from the " + (i + 1) + "th; at most " + most
          + "; received at " + at.stream().map(t -> "+" + (t - at.get(0))).toList() + " ms");
    }
    long span = at.get(at.size() - 1) - at.get(0);
    assertTrue(span >= (long) ((effects - BURST - 1) / RATE * 1000) - 500, effects + " sent over " + span + " ms");
  }

  @Test
  void effectsOfOneOrderingKeyGoInCommitOrderThroughRetriesAndAStuckHeadHoldsOnlyItsKey() {
    // the head of key A fails twice, asking for 2 s each time; B's effect is committed after it
    destination.stubFor(post("/orders").withRequestBody(containing("A1")).inScenario("head")
        .whenScenarioStateIs(Scenario.STARTED).willReturn(aResponse().withStatus(503).withHeader("Retry-After", "1"))
        .willSetStateTo("failed once"));
    destination.stubFor(post("/orders").withRequestBody(containing("A1")).inScenario("head")
        .whenScenarioStateIs("failed once").willReturn(aResponse().withStatus(503).withHeader("Retry-After", "1"))
        .willSetStateTo("up"));
    destination.stubFor(post("/orders").withRequestBody(containing("A1")).inScenario("head")
        .whenScenarioStateIs("up").willReturn(aResponse().withStatus(200)));
    destination.stubFor(post("/orders").withRequestBody(containing("A2")).willReturn(aResponse().withStatus(200)));
    destination.stubFor(post("/orders").withRequestBody(containing("A3")).willReturn(aResponse().withStatus(200)));
    destination.stubFor(post("/orders").withRequestBody(containing("B1")).willReturn(aResponse().withStatus(200)));
    URI url = URI.create(destination.baseUrl());
    try (WebhookRuntime runtime = builder(db.jdbcUrl(), url, new Orders()).build()) {
      runtime.start();
      // one at a time, so that the commit order is the order received
      for (String id : List.of("A1", "B1", "A2", "A3")) {
        receive(runtime, "evt_" + id, "order.updated", "{\"order\":\"" + id + "\"}");
        Await.until(id + " committed", () -> number(db, "select count(*) from hookledger.effect where event_id = ?",
            "evt_" + id) == 1);
      }
      awaitEffects(db, 4, "done");
    }
    List<String> order = received().stream().map(e -> e.getRequest().getBodyAsString() + " "
        + e.getResponse().getStatus()).toList();
    assertEquals(List.of("A1 503", "A1 503", "A1 200", "A2 200", "A3 200"),
        order.stream().filter(o -> o.startsWith("A")).toList(), "A's effects one at a time, in commit order");
    assertTrue(order.indexOf("B1 200") < order.indexOf("A1 200"), "B was sent while A's head waited: " + order);
  }

  /** Sends one effect per {@code order.updated} event, ordered by the order's first letter. */
  public static final class Orders {
    @OnEvent("order.updated")
    public void updated(WebhookEvent event, Outbox outbox) {
      String order = event.payload().get("order").asText();
      outbox.send(HttpEffect.to("receipts", "/orders").body(order.getBytes(), "text/plain")
          .orderingKey(order.substring(0, 1)).build());
    }
  }
}
