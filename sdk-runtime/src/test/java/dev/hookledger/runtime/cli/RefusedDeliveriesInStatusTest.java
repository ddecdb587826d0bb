package dev.hookledger.runtime.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.hookledger.Secrets;
import dev.hookledger.internal.Json;
import dev.hookledger.runtime.RefusalReason;
import dev.hookledger.runtime.WebhookRuntime;
import dev.hookledger.runtime.WebhookRuntimeBuilder;
import dev.hookledger.runtime.admin.InboxAdmin;
import dev.hookledger.runtime.admin.RefusedCount;
import dev.hookledger.runtime.testing.LedgerRows;
import dev.hookledger.runtime.testing.ServedRuntime;
import dev.hookledger.runtime.testing.TestDatabase;
import dev.hookledger.runtime.testing.TestHookAdapter;
import dev.hookledger.runtime.testing.TestHookSigner;
import dev.hookledger.runtime.testing.TestHttp;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

/**
 * Refused deliveries reach {@code hookledger status}, another process that cannot see a node's
 * memory: each node writes its counts to the ledger every 2 s, one statement for all of them, so a
 * forgery shows within seconds and a flood of forgeries leaves a few rows, not one per request.
 */
class RefusedDeliveriesInStatusTest {
  static final String SECRET = "whsec-status-refused-test";
  private final TestDatabase.Database db = TestDatabase.create();

  @Test
  void aForgedDeliveryAndAWrongSecretShowInStatusWithTheirProvider() throws Exception {
    try (ServedRuntime served = ServedRuntime.serve(runtime().jdbcUrl(db.jdbcUrl()))) {
      sendWrongSecret(served);
      sendForged(served);

      List<RefusedCount> counts = awaitRefused(c -> c.size() == 2);
      assertEquals(List.of(RefusalReason.SIGNATURE_MISMATCH, RefusalReason.SIGNATURE_MISSING),
          counts.stream().map(RefusedCount::reason).toList());

      CliProcess.Result text = CliProcess.run(Map.of(), "status", "--database-url", db.jdbcUrl());
      assertEquals(0, text.exitCode(), text.err());
      List<String> lines = text.out().lines().toList();
      int block = lines.indexOf("refused deliveries (all nodes, last 24 h):");
      assertTrue(block > 0, text.out());
      assertEquals("PROVIDER  REASON              HTTP  REFUSED  LAST (UTC)", lines.get(block + 1));
      assertTrue(lines.get(block + 2).matches(
          "testhook  signature_mismatch   401        1  \\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ"), lines.get(block + 2));
      assertTrue(lines.get(block + 3).matches(
          "testhook  signature_missing    401        1  \\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ"), lines.get(block + 3));

      CliProcess.Result json = CliProcess.run(Map.of(), "--json", "status", "--database-url", db.jdbcUrl());
      assertEquals(0, json.exitCode(), json.err());
      JsonNode refused = Json.MAPPER.readTree(json.out()).get("refused");
      assertEquals(2, refused.size(), json.out());
      assertEquals("testhook", refused.get(0).get("provider").asText());
      assertEquals("signature_mismatch", refused.get(0).get("reason").asText());
      assertEquals(401, refused.get(0).get("httpStatus").asInt());
      assertEquals(1, refused.get(0).get("count").asLong());
      assertEquals("signature_missing", refused.get(1).get("reason").asText());
    }
  }

  @Test
  void statusWithoutRefusalsPrintsNoRefusedBlock() throws Exception {
    InboxAdmin.builder(db.dataSource()).build().migrate();

    CliProcess.Result text = CliProcess.run(Map.of(), "status", "--database-url", db.jdbcUrl());

    assertEquals(0, text.exitCode(), text.err());
    assertTrue(!text.out().contains("refused deliveries"), text.out());
  }

  @Test
  void countsArePersistedThroughAPoolWhoseConnectionsDoNotAutoCommit() throws Exception {
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(db.jdbcUrl());
    config.setAutoCommit(false);
    config.setMaximumPoolSize(4);
    try (HikariDataSource pool = new HikariDataSource(config);
        ServedRuntime served = ServedRuntime.serve(runtime().dataSource(pool))) {
      sendForged(served);

      List<RefusedCount> counts = awaitRefused(c -> !c.isEmpty());

      assertEquals("testhook", counts.get(0).provider());
      assertEquals(RefusalReason.SIGNATURE_MISSING, counts.get(0).reason());
      assertEquals(1, counts.get(0).count());
    }
  }

  /**
   * Thousands of forged requests (more than one flush of the node's counts apart) leave one row per node,
   * provider and reason, not one per request: the row count does not depend on how many were sent.
   */
  @Test
  void thousandsOfForgeriesLeaveAHandfulOfRowsAndAreAllCounted() throws Exception {
    int forgeries = 2_000;
    try (ServedRuntime served = ServedRuntime.serve(runtime().jdbcUrl(db.jdbcUrl()))) {
      ExecutorService senders = Executors.newFixedThreadPool(8);
      try {
        List<Future<?>> sent = new ArrayList<>();
        for (int t = 0; t < 8; t++) {
          sent.add(senders.submit(() -> {
            for (int i = 0; i < forgeries / 8; i++) {
              sendForged(served);
            }
          }));
        }
        for (Future<?> f : sent) {
          f.get();
        }
      } finally {
        senders.shutdownNow();
      }
      sendNowhere(served);

      List<RefusedCount> counts = awaitRefused(c -> c.stream().mapToLong(RefusedCount::count).sum() == forgeries + 1);

      assertEquals(List.of(new RefusedCount("testhook", RefusalReason.SIGNATURE_MISSING, forgeries, counts.get(0).lastAt()),
          new RefusedCount("(unknown)", RefusalReason.UNKNOWN_PROVIDER, 1, counts.get(1).lastAt())), counts);
      assertEquals(2, LedgerRows.number(db.dataSource(), "select count(*) from hookledger.refusal_count"),
          "one row per node, provider and reason: the unknown path's text is not stored");
      assertEquals(0, LedgerRows.number(db.dataSource(), "select count(*) from hookledger.event"));
    }
  }

  private static WebhookRuntimeBuilder runtime() {
    return WebhookRuntime.builder().provider(new TestHookAdapter(), Secrets.of(SECRET)).inbox(i -> i.workers(0));
  }

  /** Polls the ledger (not this node's memory) until {@code done}, for at most 30 s on a loaded machine. */
  private List<RefusedCount> awaitRefused(Predicate<List<RefusedCount>> done) throws InterruptedException {
    InboxAdmin admin = InboxAdmin.builder(db.dataSource()).build();
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    List<RefusedCount> counts = admin.refusedCounts();
    while (!done.test(counts)) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("refusal counts in the ledger after 30 s: " + counts);
      }
      Thread.sleep(100);
      counts = admin.refusedCounts();
    }
    return counts;
  }

  private static void sendWrongSecret(ServedRuntime served) {
    assertEquals(401, TestHttp.send(new TestHookSigner("a-secret-rotated-on-one-side")
        .request(served.uri("/webhooks/testhook"), "evt_" + UUID.randomUUID(), "payment.succeeded", "{}"))
        .statusCode());
  }

  private static void sendForged(ServedRuntime served) {
    assertEquals(401, TestHttp.send(HttpRequest.newBuilder(served.uri("/webhooks/testhook"))
        .header(TestHookAdapter.EVENT_ID, "evt_" + UUID.randomUUID()).header(TestHookAdapter.EVENT_TYPE, "payment.succeeded")
        .POST(HttpRequest.BodyPublishers.ofString("{}")).build()).statusCode());
  }

  private static void sendNowhere(ServedRuntime served) {
    assertEquals(404, TestHttp.send(HttpRequest.newBuilder(served.uri("/webhooks/" + "x".repeat(200)))
        .POST(HttpRequest.BodyPublishers.ofString("{}")).build()).statusCode());
  }
}
