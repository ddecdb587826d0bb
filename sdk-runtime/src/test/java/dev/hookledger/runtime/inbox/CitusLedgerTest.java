package dev.hookledger.runtime.inbox;

import static dev.hookledger.runtime.inbox.InboxFixture.SIGNER;
import static dev.hookledger.runtime.inbox.InboxFixture.event;
import static dev.hookledger.runtime.inbox.InboxFixture.number;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.hookledger.InboundDelivery;
import dev.hookledger.runtime.Receipt;
import dev.hookledger.runtime.WebhookRuntime;
import dev.hookledger.runtime.admin.Backfill;
import dev.hookledger.runtime.admin.BackfillPlan;
import dev.hookledger.runtime.admin.BackfillRequest;
import dev.hookledger.runtime.admin.BackfillStatus;
import dev.hookledger.runtime.admin.InboxAdmin;
import dev.hookledger.runtime.admin.LedgerFixture;
import dev.hookledger.runtime.internal.ledger.CitusLedger;
import dev.hookledger.runtime.internal.ledger.LedgerDsl;
import dev.hookledger.runtime.internal.ledger.LedgerMigration;
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
  /** The operator's reads span every shard: more than the 2 s default on this shared, loaded machine. */
  private static final Duration LOADED = Duration.ofSeconds(30);
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

  @Test
  void aLedgerDistributedAtVersion8TakesVersions9To12InPlaceWithItsIndexesOnEveryShardAndItsEventsAndCountsKept() {
    // as migrate() left a ledger on Citus at version 8: its scripts, then the distribution script
    TestDatabase.Database db = new LedgerFixture("hookledger", 8).database;
    LedgerDsl.on(db.dataSource()).transaction(cfg -> cfg.dsl().execute(CitusLedger.sql("hookledger")));
    assertEquals(PLACEMENT_AT_VERSION_8, placement(db));
    writeHistory(db);

    // V9 and V10 keep V2's row triggers and make no roll-up there; V11 and V12 build their indexes
    // CONCURRENTLY on the distributed events, which Citus builds on each shard
    assertFalse(SchemaMigrator.migrate(LedgerDsl.on(db.dataSource()), "hookledger"), "the ledger was there");

    assertEquals(number(db, "select count(*) from pg_dist_shard where logicalrelid = 'hookledger.event'::regclass"),
        number(db, "select count(*) from run_command_on_shards('hookledger.event', $cmd$"
            + " select count(*) filter (where c.relname like 'event_delivery_id_hash_idx%%' and i.indisvalid)"
            + " || ' ' || count(*) filter (where c.relname like 'event_backfill_cursor_idx%%' and i.indisvalid)"
            + " || ' ' || count(*) filter (where c.relname like 'event_delivery_id_idx%%')"
            + " from pg_index i join pg_class c on c.oid = i.indexrelid where i.indrelid = '%s'::regclass"
            + " $cmd$) where success and result = '1 1 0'"), "V11's and V12's indexes valid on every shard, V3's btree gone");
    assertDistributedWithItsHistoryAndProcessing(db);
  }

  @Test
  void aLedgerMadeBeforeTheExtensionWasInstalledIsDistributedByMigrateWithItsEventsAndCountsKept() {
    // made and used on PostgreSQL without Citus: V9's statement triggers, V10's roll-up
    TestDatabase.Database db = TestDatabase.createWithoutCitus();
    SchemaMigrator.migrate(LedgerDsl.on(db.dataSource()), "hookledger");
    writeHistory(db);
    TestDatabase.addCitus(db);

    // before: "executor could not find named tuplestore new_rows" as the rows were copied into the
    // shards (and before V9, each copied row counted a second time)
    assertFalse(SchemaMigrator.migrate(LedgerDsl.on(db.dataSource()), "hookledger"), "the ledger was there");

    assertDistributedWithItsHistoryAndProcessing(db);
  }

  /** Ten settled events of five scopes, a pending one and one whose first attempt failed, as a V8 ledger takes them. */
  private static void writeHistory(TestDatabase.Database db) {
    db.execute("create table effect_count (event_id text primary key, n int not null, processed_by text not null)");
    db.execute("insert into hookledger.event (provider, scope, event_id, type, body, status, settled_at, duplicates,"
        + " attempts, last_error) select 'testhook', 'acct_' || (i % 5), 'evt_' || i, 'job.count', '\\x7b7d',"
        + " case when i = 11 or i = 12 then 'pending' when i % 3 = 0 then 'ignored' else 'done' end,"
        + " case when i < 11 then now() end, i % 2, case when i = 12 then 1 else 0 end,"
        + " case when i = 12 then 'failed before the upgrade' end from generate_series(1, 12) i");
  }

  /**
   * The ledger distributed as migrate() places it on Citus, counted by V2's row triggers on each shard
   * (no roll-up), its history intact: the waiting events and a new one processed once each, the
   * status counts a count of the rows before and after.
   */
  private static void assertDistributedWithItsHistoryAndProcessing(TestDatabase.Database db) {
    assertEquals(LedgerMigration.latest(), SchemaMigrator.version(LedgerDsl.on(db.dataSource()), "hookledger"));
    assertEquals(PLACEMENT, placement(db));
    // V2's TRUNCATE trigger is not kept: its DELETE of every count is a distributed query, refused on a shard
    assertEquals(List.of("event_status_count_delete", "event_status_count_insert", "event_status_count_update"),
        LedgerDsl.on(db.dataSource()).fetch("select tgname from pg_trigger where tgrelid ="
        + " 'hookledger.event'::regclass and not tgisinternal order by tgname").getValues(0, String.class));
    assertEquals(0, number(db, "select count(*) from pg_class where oid = to_regclass('hookledger.minute_count')"));
    assertEquals(0, number(db, "select count(*) from pg_class where oid = to_regclass('hookledger.minute_roll_up')"),
        "V13's pass mark goes with the roll-up: the pass does nothing on Citus");
    assertEquals(12, number(db, "select count(*) from hookledger.event"));
    assertCountsMatchTheRows(db);

    try (WebhookRuntime node = InboxFixture.node(db.jdbcUrl(), new CountingHandler("B", null)).build()) {
      node.start();
      receive(node, "acct_e", "evt_new", "{}");
      for (String id : List.of("evt_11", "evt_12", "evt_new")) {
        InboxFixture.awaitStatus(db, id, "done");
      }
    }
    assertEquals(2, event(db, "evt_12").get("attempts"));
    assertEquals(3, number(db, "select count(*) from effect_count where n = 1 and processed_by = 'B'"));
    assertCountsMatchTheRows(db);
  }

  private static void assertCountsMatchTheRows(TestDatabase.Database db) {
    List<String> counted = InboxAdmin.builder(db.dataSource()).readTimeout(LOADED).build().status().counts().stream()
        .map(c -> c.provider() + " " + c.status().name().toLowerCase() + " " + c.events() + " " + c.duplicates())
        .sorted().toList();
    List<String> rows = LedgerDsl.on(db.dataSource()).fetch("select provider || ' ' || status || ' ' || count(*)"
        + " || ' ' || sum(duplicates) from hookledger.event group by provider, status")
        .getValues(0, String.class).stream().sorted().toList();
    assertEquals(rows, counted);
  }

  /** The ledger's tables as Citus places them: table, method (h: hash, n: reference), distribution column, co-located with the events. */
  /**
   * Each table and how it is placed: {@code h scope t} distributed by scope beside the events, {@code n - f}
   * a reference table on every node. The outbox's effects and their attempts go with their events; the
   * destinations' shared state is on every node.
   */
  private static final String PLACEMENT = "hookledger.attempt h scope t; hookledger.backfill n - f;"
      + " hookledger.destination_state n - f; hookledger.effect h scope t; hookledger.effect_attempt h scope t;"
      + " hookledger.entity_version h scope t; hookledger.event h scope t; hookledger.handler_applied h scope t;"
      + " hookledger.refusal_count n - f; hookledger.schema_version n - f; hookledger.status_count h scope t";

  /** As the script places a ledger at version 8, which has no outbox yet. */
  private static final String PLACEMENT_AT_VERSION_8 = "hookledger.attempt h scope t; hookledger.backfill n - f;"
      + " hookledger.entity_version h scope t; hookledger.event h scope t; hookledger.handler_applied h scope t;"
      + " hookledger.refusal_count n - f; hookledger.schema_version n - f; hookledger.status_count h scope t";

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
    try (WebhookRuntime receiver = InboxFixture.builder(db.jdbcUrl(), new CountingHandler("A", null))
        .inbox(i -> i.workers(0))
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
    try (WebhookRuntime receiver = InboxFixture.builder(db.jdbcUrl(), new CountingHandler("A", null))
        .inbox(i -> i.workers(0))
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
    InboxAdmin admin = InboxAdmin.builder(db.dataSource()).readTimeout(LOADED).build();
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
