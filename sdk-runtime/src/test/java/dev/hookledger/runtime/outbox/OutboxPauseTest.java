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
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.core.WireMockConfiguration;
import dev.hookledger.runtime.Destination;
import dev.hookledger.runtime.WebhookRuntime;
import dev.hookledger.runtime.admin.InboxAdmin;
import dev.hookledger.runtime.testing.Await;
import dev.hookledger.runtime.testing.TestDatabase;
import java.net.URI;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * An operator pauses a destination on every node: its effects wait, using no attempts, while the
 * senders claim past it; resumed, they go.
 */
class OutboxPauseTest {
  private final TestDatabase.Database db = OutboxFixture.database();
  private final WireMockServer destination = new WireMockServer(WireMockConfiguration.options().dynamicPort());

  OutboxPauseTest() {
    destination.start();
  }

  @AfterEach
  void stop() {
    destination.stop();
  }

  @Test
  void aPausedDestinationsEffectsWaitUntilItIsResumed() throws InterruptedException {
    destination.stubFor(post("/receipts").willReturn(aResponse().withStatus(200)));
    // the runtime's destinations, as the application configures them: paused before the first send
    InboxAdmin admin = InboxAdmin.builder(db.dataSource())
        .destinations(List.of(Destination.named("receipts").url(URI.create(destination.baseUrl())))).build();
    assertTrue(admin.pauseDestination("receipts"));
    assertFalse(admin.pauseDestination("receipts"), "paused already");
    try (WebhookRuntime runtime = builder(db.jdbcUrl(), URI.create(destination.baseUrl()),
        new OutboxFixture.Receipts(0)).build()) {
      runtime.start();
      receive(runtime, "evt_paused");
      Await.until("the event settled", () -> number(db,
          "select count(*) from hookledger.event where event_id = 'evt_paused' and status = 'done'") == 1);
      // the senders poll every 100 ms: twenty polls find nothing to send
      long until = System.nanoTime() + 2_000_000_000L;
      while (System.nanoTime() < until) {
        assertEquals(1, number(db, "select count(*) from hookledger.effect where status = 'pending' and attempts = 0"));
        Thread.sleep(100);
      }
      destination.verify(0, postRequestedFor(urlEqualTo("/receipts")));
      assertTrue(admin.resumeDestination("receipts"));
      awaitEffects(db, 1, "done");
    }
    assertFalse(admin.resumeDestination("receipts"), "running already");
    destination.verify(1, postRequestedFor(urlEqualTo("/receipts")));
  }
}
