package dev.hookledger.runtime.outbox;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static dev.hookledger.runtime.outbox.OutboxFixture.awaitEffects;
import static dev.hookledger.runtime.outbox.OutboxFixture.builder;
import static dev.hookledger.runtime.outbox.OutboxFixture.number;
import static dev.hookledger.runtime.outbox.OutboxFixture.receive;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.core.WireMockConfiguration;
import dev.hookledger.runtime.WebhookRuntime;
import dev.hookledger.runtime.admin.EffectDetail;
import dev.hookledger.runtime.testing.Await;
import dev.hookledger.runtime.testing.TestDatabase;
import java.net.URI;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Running a settled event's handlers again (an operator's forced retry, the path a replay or backfill
 * of it takes) enqueues its effects under the same keys: nothing new is enqueued or sent.
 */
class OutboxRerunKeysTest {
  private final TestDatabase.Database db = OutboxFixture.database();
  private final WireMockServer destination = new WireMockServer(WireMockConfiguration.options().dynamicPort());

  OutboxRerunKeysTest() {
    destination.start();
  }

  @AfterEach
  void stop() {
    destination.stop();
  }

  @Test
  void aSettledEventRunAgainEnqueuesNothingNew() {
    destination.stubFor(post("/receipts").willReturn(aResponse().withStatus(200)));
    OutboxFixture.Receipts receipts = new OutboxFixture.Receipts(0);
    try (WebhookRuntime runtime = builder(db.jdbcUrl(), URI.create(destination.baseUrl()), receipts).build()) {
      runtime.start();
      receive(runtime, "evt_again");
      awaitEffects(db, 1, "done");

      runtime.admin().retry("testhook", "", "evt_again", true);
      Await.until("the handler ran again", () -> receipts.calls.get() == 2 && number(db,
          "select count(*) from hookledger.event where event_id = 'evt_again' and status = 'done'") == 1);

      assertEquals(receipts.keys.get(0), receipts.keys.get(1), "the same key on the second run");
      List<EffectDetail> effects = runtime.admin().outbox().effectsOf("testhook", "", "evt_again");
      assertEquals(1, effects.size(), effects.toString());
      assertEquals(receipts.keys.get(0), effects.get(0).summary().idempotencyKey());
      assertEquals(1, effects.get(0).attempts().size());
    }
    destination.verify(1, postRequestedFor(urlEqualTo("/receipts")));
  }
}
