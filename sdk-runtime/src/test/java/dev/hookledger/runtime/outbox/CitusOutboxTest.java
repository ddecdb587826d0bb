package dev.hookledger.runtime.outbox;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.containing;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static dev.hookledger.runtime.outbox.OutboxFixture.SIGNER;
import static dev.hookledger.runtime.outbox.OutboxFixture.builder;
import static dev.hookledger.runtime.outbox.OutboxFixture.number;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.core.WireMockConfiguration;
import com.github.tomakehurst.wiremock.stubbing.ServeEvent;
import dev.hookledger.InboundDelivery;
import dev.hookledger.runtime.Receipt;
import dev.hookledger.runtime.WebhookRuntime;
import dev.hookledger.runtime.admin.EffectSelection;
import dev.hookledger.runtime.admin.InboxAdmin;
import dev.hookledger.runtime.internal.ledger.LedgerDsl;
import dev.hookledger.runtime.testing.Await;
import dev.hookledger.runtime.testing.TestDatabase;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIf;

/**
 * The outbox on a Citus cluster with its shards on two workers ({@code src/test/citus/citus-cluster.sh}):
 * effects distributed by scope beside their events, claimed by the senders scope by scope. Before,
 * the senders claimed a destination's due effects with one {@code FOR UPDATE SKIP LOCKED} across
 * scopes, which Citus refuses ("could not run distributed query with FOR UPDATE/SHARE commands"):
 * every effect was kept and none was ever sent.
 */
@Tag("citus")
@EnabledIf("onWorkers")
class CitusOutboxTest {
  /** This shared machine runs several builds at once: outcomes are awaited, never timed. */
  private static final Duration LOADED = Duration.ofSeconds(120);
  private static final int SCOPES = 8;

  private final TestDatabase.Database db = OutboxFixture.database();
  private final WireMockServer destination = new WireMockServer(WireMockConfiguration.options().dynamicPort());

  CitusOutboxTest() {
    destination.start();
  }

  static boolean onWorkers() {
    return TestDatabase.citus() && !TestDatabase.citusWorkers().isEmpty();
  }

  @AfterEach
  void stop() {
    destination.stop();
  }

  @Test
  void effectsOfScopesOnBothWorkersAreSentOnceEachAndDeadOnesComeBackByBulkRetry() {
    assertEquals(TestDatabase.citusWorkers().size(), workersHolding("hookledger.effect"), "effect shards on the workers");
    Set<String> workers = IntStream.range(0, SCOPES).mapToObj(i -> workerOf(scope(i)))
        .collect(Collectors.toCollection(TreeSet::new));
    assertEquals(TestDatabase.citusWorkers().size(), workers.size(), "the scopes' effects are on every worker");
    destination.stubFor(post("/receipts").willReturn(aResponse().withStatus(200)));
    destination.stubFor(post("/receipts").withRequestBody(containing("\"bad_"))
        .willReturn(aResponse().withStatus(400).withBody("no such account")));

    OutboxFixture.Receipts handler = new OutboxFixture.Receipts(0);
    try (WebhookRuntime node = builder(db.jdbcUrl(), URI.create(destination.baseUrl()), handler).build()) {
      node.start();
      for (int i = 0; i < 2 * SCOPES; i++) {
        receive(node, scope(i), "evt_" + i);
      }
      receive(node, scope(0), "bad_0");
      receive(node, scope(1), "bad_1");
      Await.until("16 effects done and 2 dead", LOADED, () -> count("done") == 2 * SCOPES && count("dead") == 2);

      List<String> keys = requests().stream().filter(e -> e.getRequest().getBodyAsString().contains("evt_"))
          .map(e -> e.getRequest().getHeader("Idempotency-Key")).toList();
      assertEquals(2 * SCOPES, keys.size(), "each effect sent once: " + keys);
      assertEquals(2 * SCOPES, new TreeSet<>(keys).size(), "each with its own key");
      assertEquals(2 * SCOPES + 2, number(db, "select count(*) from hookledger.effect_attempt"), "every attempt kept");
      assertEquals(400L, number(db, "select min(last_status_code) from hookledger.effect where status = 'dead'"));

      // the destination takes them now: an operator retries the dead, bound to the count confirmed
      destination.resetAll();
      destination.stubFor(post("/receipts").willReturn(aResponse().withStatus(200)));
      InboxAdmin admin = InboxAdmin.builder(db.dataSource()).readTimeout(LOADED).build();
      EffectSelection dead = EffectSelection.dead().destination("receipts");
      assertEquals(2, admin.outbox().retryCount(dead));
      assertEquals(2, admin.outbox().retry(dead, 2));
      Await.until("all 18 effects done", LOADED, () -> count("done") == 2 * SCOPES + 2);
    }
    assertEquals(2, requests().size(), "only the two retried were sent again");
  }

  private static String scope(int i) {
    return "acct_" + i % SCOPES;
  }

  private long count(String status) {
    return number(db, "select count(*) from hookledger.effect where status = ?", status);
  }

  private List<ServeEvent> requests() {
    return destination.getAllServeEvents();
  }

  private static void receive(WebhookRuntime runtime, String scope, String id) {
    String body = "{\"id\":\"" + id + "\"}";
    InboundDelivery signed = SIGNER.delivery("testhook", id, "invoice.paid", body);
    InboundDelivery toScope = InboundDelivery.post("/webhooks/testhook/" + scope, signed.headers(), body);
    assertEquals(Receipt.Outcome.ACCEPTED, runtime.receive("testhook", toScope).outcome());
  }

  private long workersHolding(String table) {
    return number(db, "select count(distinct n.nodeport) from pg_dist_placement p join pg_dist_node n"
        + " on n.groupid = p.groupid join pg_dist_shard s on s.shardid = p.shardid"
        + " where s.logicalrelid = ?::regclass and p.groupid <> 0", table);
  }

  private String workerOf(String scope) {
    return LedgerDsl.on(db.dataSource()).fetchValue("select n.nodename || ':' || n.nodeport from pg_dist_placement p"
        + " join pg_dist_node n on n.groupid = p.groupid where p.shardid"
        + " = get_shard_id_for_distribution_column('hookledger.effect', ?)", scope).toString();
  }
}
