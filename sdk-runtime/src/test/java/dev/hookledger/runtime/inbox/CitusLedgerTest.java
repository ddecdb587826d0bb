package dev.hookledger.runtime.inbox;

import static dev.hookledger.runtime.inbox.InboxFixture.SIGNER;
import static dev.hookledger.runtime.inbox.InboxFixture.event;
import static dev.hookledger.runtime.inbox.InboxFixture.number;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.hookledger.InboundDelivery;
import dev.hookledger.runtime.Receipt;
import dev.hookledger.runtime.WebhookRuntime;
import dev.hookledger.runtime.admin.Backfill;
import dev.hookledger.runtime.admin.BackfillPlan;
import dev.hookledger.runtime.admin.BackfillRequest;
import dev.hookledger.runtime.admin.BackfillStatus;
import dev.hookledger.runtime.admin.InboxAdmin;
import dev.hookledger.runtime.internal.ledger.LedgerDsl;
import dev.hookledger.runtime.internal.ledger.SchemaMigrator;
import dev.hookledger.runtime.testing.Await;
import dev.hookledger.runtime.testing.LedgerRows;
import dev.hookledger.runtime.testing.TestDatabase;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * The ledger on a Citus coordinator (the {@code citus} Maven profile: README, "Running on Citus"):
 * distributed by scope, its claims and lease renewals router queries. Before claims went scope by
 * scope, every poll failed with "could not run distributed query with FOR UPDATE/SHARE commands":
 * what the local hand-off did not process (retries, takeovers, events another node received) stayed
 * pending for good.
 */
@Tag("citus")
@EnabledIfSystemProperty(named = TestDatabase.CITUS, matches = "true")
class CitusLedgerTest {
  private static final List<String> SCOPES = List.of("acct_a", "acct_b", "acct_c", "acct_d", "acct_e");

  @Test
  void migrateDistributesTheEventsByScopeWithTheirAttemptsAndAppliedHandlersAndKeepsTheSharedTablesOnEveryNode() {
    TestDatabase.Database db = InboxFixture.database();

    assertEquals(PLACEMENT, placement(db));
  }

  @Test
  void aLedgerDistributedBeforeVersion8TakesItWithItsNewTablesPlacedAndItsEventsKept() {
    TestDatabase.Database db = InboxFixture.database();
    try (WebhookRuntime node = InboxFixture.node(db.jdbcUrl(), new CountingHandler("A", null)).build()) {
      node.start();
      for (int i = 0; i < 5; i++) {
        receive(node, SCOPES.get(i), "evt_" + i, "{}");
      }
      for (int i = 0; i < 5; i++) {
        InboxFixture.awaitStatus(db, "evt_" + i, "done");
      }
    }
    // as a ledger distributed at version 5 is: V8's tables and index do not exist yet
    db.execute("drop table hookledger.handler_applied");
    db.execute("drop table hookledger.backfill");
    db.execute("drop index hookledger.event_received_idx");
    db.execute("delete from hookledger.schema_version where version = 8");

    // V8 builds its index CONCURRENTLY on the distributed events, then the script places its tables
    SchemaMigrator.migrate(LedgerDsl.on(db.dataSource()), "hookledger");

    assertEquals(PLACEMENT, placement(db));
    assertEquals(1, number(db, "select count(*) from hookledger.schema_version where version = 8"));
    assertEquals(1, number(db, "select count(*) from pg_indexes where schemaname = 'hookledger'"
        + " and indexname = 'event_received_idx'"));
    assertEquals(5, number(db, "select count(*) from hookledger.event where status = 'done'"));
  }

  /** The ledger's tables as Citus places them: table, method (h: hash, n: reference), distribution column, co-located with the events. */
  private static final String PLACEMENT = "hookledger.attempt h scope t; hookledger.backfill n - f;"
      + " hookledger.entity_version n - f; hookledger.event h scope t; hookledger.handler_applied h scope t;"
      + " hookledger.refusal_count n - f; hookledger.schema_version n - f; hookledger.status_count n - f";

  private static Object placement(TestDatabase.Database db) {
    return LedgerRows.first(db.dataSource(), "select string_agg(concat_ws(' ', logicalrelid::text, partmethod,"
        + " coalesce(column_to_column_name(logicalrelid, partkey), '-'), colocationid = (select colocationid"
        + " from pg_dist_partition where logicalrelid = 'hookledger.event'::regclass)), '; '"
        + " order by logicalrelid::text) as tables from pg_dist_partition"
        + " where logicalrelid::text like 'hookledger.%'").orElseThrow().get("tables");
  }

  @Test
  void eventsOfManyScopesReceivedByANodeWithoutWorkersAreProcessedOnceEachByAnotherNode() {
    TestDatabase.Database db = InboxFixture.database();
    try (WebhookRuntime receiver = InboxFixture.builder(db.jdbcUrl(), new CountingHandler("A", null)).workers(0)
        .build()) {
      receiver.start();
      for (int i = 0; i < 20; i++) {
        receive(receiver, SCOPES.get(i % SCOPES.size()), "evt_" + i, "{}");
      }
      try (WebhookRuntime worker = InboxFixture.node(db.jdbcUrl(), new CountingHandler("B", null)).build()) {
        worker.start();
        for (int i = 0; i < 20; i++) {
          InboxFixture.awaitStatus(db, "evt_" + i, "done");
        }
      }
    }
    assertEquals(20, number(db, "select count(*) from effect_count where n = 1 and processed_by = 'B'"));
  }

  @Test
  void aFailedAttemptIsRetriedByAPollAndItsEffectHappensOnce() {
    TestDatabase.Database db = InboxFixture.database();
    try (WebhookRuntime node = InboxFixture.node(db.jdbcUrl(), new CountingHandler("A", null)).build()) {
      node.start();
      receive(node, "acct_eur", "in_eur", "{\"failFirst\": true}");
      InboxFixture.awaitStatus(db, "in_eur", "done");
    }
    assertEquals(2, event(db, "in_eur").get("attempts"));
    assertEquals(1, number(db, "select n from effect_count where event_id = 'in_eur'"));
  }

  @Test
  void aLeaseWhoseNodeDiedIsTakenOverAndTheEventProcessedOnce() {
    TestDatabase.Database db = InboxFixture.database();
    try (WebhookRuntime receiver = InboxFixture.builder(db.jdbcUrl(), new CountingHandler("A", null)).workers(0)
        .build()) {
      receiver.start();
      receive(receiver, "acct_b", "evt_orphan", "{}");
    }
    // as a node leaves it that died after its claim: processing, its lease run out
    db.execute("update hookledger.event set status = 'processing', attempts = 1, lease_owner = 'dead-node',"
        + " lease_until = now() - interval '1 second', available_at = now() - interval '1 second'"
        + " where scope = 'acct_b' and event_id = 'evt_orphan'");
    try (WebhookRuntime worker = InboxFixture.node(db.jdbcUrl(), new CountingHandler("B", null)).build()) {
      worker.start();
      InboxFixture.awaitStatus(db, "evt_orphan", "done");
    }
    assertEquals(2, event(db, "evt_orphan").get("attempts"));
    assertEquals(1, number(db, "select n from effect_count where event_id = 'evt_orphan' and processed_by = 'B'"));
  }

  @Test
  void aBackfillOverEventsOfManyScopesAppliesItsHandlerOnceToEachEventOnItsShard() {
    TestDatabase.Database db = InboxFixture.database();
    db.execute("create table backfilled (event_id text not null, node text not null)");
    try (WebhookRuntime old = InboxFixture.node(db.jdbcUrl(), new CountingHandler("A", null)).build()) {
      old.start();
      for (int i = 0; i < 20; i++) {
        receive(old, SCOPES.get(i % SCOPES.size()), "evt_" + i, "{}");
      }
      for (int i = 0; i < 20; i++) {
        InboxFixture.awaitStatus(db, "evt_" + i, "done");
      }
    }
    InboxAdmin admin = InboxAdmin.builder(db.dataSource()).build();
    BackfillRequest request = BackfillRequest.builder(BackfillAudit.NAME).build();
    // the plan joins the events to their handler_applied rows: refused while that table was local
    assertEquals(new BackfillPlan(20, 0, 0, 20), admin.planBackfill(request));
    try (WebhookRuntime node = InboxFixture.node(db.jdbcUrl(), new CountingHandler("B", null), new BackfillAudit("B"))
        .build()) {
      node.start();
      long id = admin.startBackfill(request).id();
      Await.until("backfill " + id + " done", Duration.ofSeconds(60),
          () -> admin.backfill(id).orElseThrow().status() == BackfillStatus.DONE);
      Backfill done = admin.backfill(id).orElseThrow();
      assertEquals(List.of(20L, 20L, 0L, 0L), List.of(done.selected(), done.applied(), done.skipped(), done.failed()));
    }
    assertEquals(20, number(db, "select count(distinct event_id) from backfilled"));
    assertEquals(20, number(db, "select count(*) from backfilled"), "each event once");
    assertEquals(0, number(db, "select count(*) from effect_count where n <> 1"), "the old handler did not run again");
    assertEquals(SCOPES.size(), number(db, "select count(distinct scope) from hookledger.handler_applied"
        + " where handler = ?", BackfillAudit.NAME));
    assertEquals(new BackfillPlan(20, 20, 0, 0), admin.planBackfill(request));
  }

  private static void receive(WebhookRuntime runtime, String scope, String id, String body) {
    InboundDelivery signed = SIGNER.delivery("testhook", id, "job.count", body);
    InboundDelivery toScope = InboundDelivery.post("/webhooks/testhook/" + scope, signed.headers(), body);
    assertEquals(Receipt.Outcome.ACCEPTED, runtime.receive("testhook", toScope).outcome());
  }
}
