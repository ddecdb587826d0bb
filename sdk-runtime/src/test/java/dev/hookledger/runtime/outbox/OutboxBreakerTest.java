package dev.hookledger.runtime.outbox;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static dev.hookledger.runtime.outbox.OutboxFixture.awaitEffects;
import static dev.hookledger.runtime.outbox.OutboxFixture.builder;
import static dev.hookledger.runtime.outbox.OutboxFixture.number;
import static dev.hookledger.runtime.outbox.OutboxFixture.receive;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.core.WireMockConfiguration;
import dev.hookledger.runtime.Destination;
import dev.hookledger.runtime.RetryPolicy;
import dev.hookledger.runtime.WebhookRuntime;
import dev.hookledger.runtime.testing.Await;
import dev.hookledger.runtime.testing.TestDatabase;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A destination that goes down (503, or refusing connections) and comes back: every effect is
 * delivered, none is dead, and the circuit breaker opened (its effects waited, using no attempts)
 * and closed again. Each effect may be attempted at most 3 times, fewer than the outage's attempts.
 */
class OutboxBreakerTest {
  private static final int EFFECTS = 5;

  private final TestDatabase.Database db = OutboxFixture.database();
  private WireMockServer destination = new WireMockServer(WireMockConfiguration.options().dynamicPort());

  OutboxBreakerTest() {
    destination.start();
  }

  @AfterEach
  void stop() {
    destination.stop();
  }

  /** Opens after 2 failures in a row, probes every 200 ms; 3 attempts an effect, 50 ms apart. */
  private static Destination breaking(URI url) {
    return OutboxFixture.receipts(url).breaker(2, Duration.ofMillis(200))
        .retry(RetryPolicy.builder().firstDelay(Duration.ofMillis(50)).maxDelay(Duration.ofMillis(100)).jitter(0)
            .maxAttempts(3).build());
  }

  @Test
  void aDestinationAnswering503ThenUpGetsEverythingAndNothingDies() {
    destination.stubFor(post("/receipts").willReturn(aResponse().withStatus(503)));
    OutboxFixture.Recorder recorder = new OutboxFixture.Recorder();
    URI url = URI.create(destination.baseUrl());
    try (WebhookRuntime runtime = builder(db.jdbcUrl(), url, new OutboxFixture.Receipts(0))
        .destination(breaking(url)).listener(recorder).build()) {
      runtime.start();
      for (int i = 0; i < EFFECTS; i++) {
        receive(runtime, "evt_down_" + i);
      }
      awaitOpenAndProbed(recorder);
      destination.resetAll();
      destination.stubFor(post("/receipts").willReturn(aResponse().withStatus(200)));
      awaitEffects(db, EFFECTS, "done");
    }
    assertRecovered(recorder);
  }

  @Test
  void aDestinationRefusingConnectionsThenUpGetsEverythingAndNothingDies() throws Exception {
    int port = destination.port();
    URI url = URI.create(destination.baseUrl());
    destination.stop(); // connection refused from here on
    OutboxFixture.Recorder recorder = new OutboxFixture.Recorder();
    try (WebhookRuntime runtime = builder(db.jdbcUrl(), url, new OutboxFixture.Receipts(0))
        .destination(breaking(url)).listener(recorder).build()) {
      runtime.start();
      for (int i = 0; i < EFFECTS; i++) {
        receive(runtime, "evt_refused_" + i);
      }
      awaitOpenAndProbed(recorder);
      destination = new WireMockServer(WireMockConfiguration.options().port(port));
      destination.start();
      destination.stubFor(post("/receipts").willReturn(aResponse().withStatus(200)));
      awaitEffects(db, EFFECTS, "done");
    }
    assertRecovered(recorder);
    assertTrue(number(db, "select count(*) from hookledger.effect_attempt where error like 'cannot connect to localhost:%'")
        >= 2, "the failures were refused connections");
  }

  /**
   * The breaker opened, and more attempts failed while it was open than the effects were allowed in
   * all ({@code EFFECTS × 3}): counted, they would have killed every effect.
   */
  private void awaitOpenAndProbed(OutboxFixture.Recorder recorder) {
    Await.until("the breaker opened", Duration.ofSeconds(30), () -> recorder.breaker.contains("receipts opened"));
    Await.until("probes failed while it was open", Duration.ofSeconds(60), () -> number(db,
        "select count(*) from hookledger.effect_attempt where outcome = 'waiting'") > EFFECTS * 3L);
  }

  private void assertRecovered(OutboxFixture.Recorder recorder) {
    assertEquals(List.of("receipts opened", "receipts closed"), recorder.breaker);
    assertEquals(0, number(db, "select count(*) from hookledger.effect where status = 'dead'"));
    assertTrue(number(db, "select max(attempts) from hookledger.effect") <= 3, "no effect used more than its attempts");
    assertEquals(1, number(db, "select count(*) from hookledger.destination_state where destination = 'receipts'"
        + " and breaker = 'closed' and consecutive_failures = 0"));
  }
}
