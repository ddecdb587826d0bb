package dev.hookledger.runtime.outbox;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static dev.hookledger.runtime.outbox.OutboxFixture.SECRET;
import static dev.hookledger.runtime.outbox.OutboxFixture.attempts;
import static dev.hookledger.runtime.outbox.OutboxFixture.awaitEffects;
import static dev.hookledger.runtime.outbox.OutboxFixture.effects;
import static dev.hookledger.runtime.outbox.OutboxFixture.number;
import static dev.hookledger.runtime.outbox.OutboxFixture.receive;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.core.WireMockConfiguration;
import com.github.tomakehurst.wiremock.stubbing.Scenario;
import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.hookledger.Secrets;
import dev.hookledger.runtime.WebhookRuntime;
import dev.hookledger.runtime.testing.TestDatabase;
import dev.hookledger.runtime.testing.TestHookAdapter;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The outbox's own statements (claim, settle, attempt rows, the destination's state) hold on a pool
 * handing out {@code autoCommit=false} connections, where a bare statement is rolled back when its
 * connection goes back: the effect ends {@code done} after a retry, with both attempts recorded.
 */
class OutboxAutoCommitOffTest {
  private final TestDatabase.Database db = OutboxFixture.database();
  private final WireMockServer destination = new WireMockServer(WireMockConfiguration.options().dynamicPort());
  private final HikariDataSource pool;

  OutboxAutoCommitOffTest() {
    destination.start();
    HikariConfig c = new HikariConfig();
    c.setJdbcUrl(db.jdbcUrl());
    c.setAutoCommit(false);
    c.setMaximumPoolSize(8);
    c.setPoolName("outbox-autocommit-off");
    pool = new HikariDataSource(c);
  }

  @AfterEach
  void stop() {
    pool.close();
    destination.stop();
  }

  @Test
  void anEffectIsRetriedAndSettledOnAnAutoCommitOffPool() {
    destination.stubFor(post("/receipts").inScenario("once").whenScenarioStateIs(Scenario.STARTED)
        .willReturn(aResponse().withStatus(500)).willSetStateTo("up"));
    destination.stubFor(post("/receipts").inScenario("once").whenScenarioStateIs("up")
        .willReturn(aResponse().withStatus(200)));
    try (WebhookRuntime runtime = WebhookRuntime.builder().dataSource(pool)
        .provider(new TestHookAdapter(), Secrets.of(SECRET))
        .handlers(new OutboxFixture.Receipts(0))
        .inbox(i -> i.workers(1)
            .pollInterval(Duration.ofMillis(100))).outbox(o -> o.pollInterval(Duration.ofMillis(100)))
        .destination(OutboxFixture.receipts(URI.create(destination.baseUrl())))
        .build()) {
      runtime.start();
      receive(runtime, "evt_ac");
      awaitEffects(db, 1, "done");
    }
    assertEquals(2, ((Number) effects(db).get(0).get("attempts")).intValue());
    assertEquals(List.of("retry", "done"), attempts(db).stream().map(a -> a.get("outcome")).toList());
    assertEquals(1, number(db, "select count(*) from hookledger.destination_state where destination = 'receipts'"));
  }
}
