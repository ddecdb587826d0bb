package dev.hookledger.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import dev.hookledger.LedgerUnavailableException;
import dev.hookledger.OnEvent;
import dev.hookledger.Secrets;
import dev.hookledger.WebhookEvent;
import dev.hookledger.runtime.admin.InboxAdmin;
import dev.hookledger.runtime.admin.LedgerFixture;
import dev.hookledger.runtime.internal.ledger.LedgerMigration;
import dev.hookledger.runtime.internal.ledger.SchemaMigrator;
import dev.hookledger.runtime.testing.Await;
import dev.hookledger.runtime.testing.LedgerRows;
import dev.hookledger.runtime.testing.TestDatabase;
import dev.hookledger.runtime.testing.TestHookAdapter;
import dev.hookledger.runtime.testing.TestHookSigner;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.jooq.SQLDialect;
import org.jooq.impl.DSL;
import org.junit.jupiter.api.Test;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * The one migration ({@code SchemaMigrator}) behind {@code WebhookRuntime.migrate()},
 * {@code InboxAdmin.migrate()} and the command line: idempotent, concurrent, in any schema.
 */
class MigrationTest {
  /** The ledger's tables on plain PostgreSQL, V1 to the latest version. */
  private static final List<String> TABLES = List.of("after_commit_failure", "attempt", "backfill",
      "destination_state", "effect", "effect_attempt", "entity_version", "event", "handler_applied", "minute_count",
      "minute_roll_up", "refusal_count", "schema_version", "status_count");

  @Test
  void migrateTwiceCreatesTheLedgerWithItsPartialWaitingIndex() {
    TestDatabase.Database db = TestDatabase.create();
    try (WebhookRuntime runtime = runtime(db, "hookledger")) {
      runtime.migrate();
      runtime.migrate();
    }
    assertEquals("CREATE INDEX event_waiting_idx ON hookledger.event USING btree (available_at) WHERE"
        + " (status = ANY (ARRAY['pending'::text, 'processing'::text]))", indexDefinition(db, "event_waiting_idx"));
    assertEquals(ledgerTables("hookledger"), tablesIn(db, "hookledger"));
  }

  @Test
  void theBackfillCursorHasItsIndexInCursorOrder() {
    // V8 meant to build it, but reused the name of V3's index on received_at and was skipped; V12 builds it
    TestDatabase.Database db = migrated();
    assertEquals(1, LedgerRows.number(db.dataSource(), "select count(*) from pg_indexes where schemaname = 'hookledger'"
        + " and indexdef like '%(received_at, provider, scope, event_id)'"));
    assertEquals("CREATE INDEX event_backfill_cursor_idx ON hookledger.event USING btree"
        + " (received_at, provider, scope, event_id)", indexDefinition(db, "event_backfill_cursor_idx"));
  }

  /**
   * V18 indexes the failing rows only (the admin's WaitingRows.FAILING, clause for clause), so that a
   * bulk retry's million waiting rows, none failing, are not read by the failing list and count.
   */
  @Test
  void theFailingRowsHaveTheirOwnIndex() {
    assertEquals("CREATE INDEX event_failing_idx ON hookledger.event USING btree (received_at) WHERE"
        + " ((status = ANY (ARRAY['pending'::text, 'processing'::text])) AND (last_error IS NOT NULL) AND"
        + " (((status = 'pending'::text) AND (attempts >= 1)) OR ((status = 'processing'::text) AND (attempts >= 2))))",
        indexDefinition(migrated(), "event_failing_idx"));
  }

  /**
   * V19 indexes waiting effects by destination, status and due time, in place of V15's index by
   * destination and status, so that the sender's poll visits each destination, not each due effect.
   */
  @Test
  void waitingEffectsAreIndexedByDestinationStatusAndDueTimeInPlaceOfTheFormerIndex() {
    TestDatabase.Database db = migrated();
    assertEquals("CREATE INDEX effect_destination_due_idx ON hookledger.effect USING btree"
        + " (destination, status, available_at) WHERE (status = ANY (ARRAY['pending'::text, 'sending'::text]))",
        indexDefinition(db, "effect_destination_due_idx"));
    assertEquals(0, LedgerRows.number(db.dataSource(), "select count(*) from pg_indexes where schemaname = 'hookledger'"
        + " and indexname = 'effect_destination_waiting_idx'"));
  }

  @Test
  void appliesTheLedgerUnderTheConfiguredSchemaOnly() {
    TestDatabase.Database db = TestDatabase.create();
    List<String> before = tablesIn(db, null); // Citus's own views (public.citus_tables, ...) are there already

    InboxAdmin.builder(db.dataSource()).schema("billing_inbox").build().migrate();

    List<String> added = new ArrayList<>(tablesIn(db, null));
    added.removeAll(before);
    assertEquals(ledgerTables("billing_inbox"), added);
  }

  @Test
  void scriptAsRunHasNoCommentsAndNamesOnlyTheConfiguredSchema() {
    String ddl = SchemaMigrator.ddl("x");

    assertFalse(ddl.contains("hookledger"), ddl);
    assertFalse(ddl.contains("--"), ddl);
    assertTrue(ddl.contains("CREATE SCHEMA IF NOT EXISTS \"x\";"), ddl);
    assertTrue(ddl.contains("CREATE TABLE IF NOT EXISTS \"x\".event ("), ddl);
    // string literals survive the comment removal
    assertTrue(ddl.contains("headers         jsonb       NOT NULL DEFAULT '{}'::jsonb,"), ddl);
  }

  /**
   * V13 takes a V12 ledger's roll-up, kept by V10's triggers in every writer's stripe, as the counts
   * of its closed minutes (summed into one stripe), leaves the open minute to the pass, and stops
   * the trigger writing the roll-up on the live path.
   */
  @Test
  void aVersion12LedgerKeepsItsMinuteCountsAsClosedMinutesAndTheLivePathStopsWritingThem() {
    assumeFalse(TestDatabase.citus(), "no per-minute roll-up on Citus: distributing the ledger drops V10's and V13's"
        + " tables (a trigger on a shard cannot keep them on every node); CitusLedgerTest upgrades older ledgers there");
    LedgerFixture v12 = new LedgerFixture("ledger_v12", 12);
    for (int w = 0; w < 3; w++) { // three statements, three backends' stripes for the same minutes
      v12.sql.execute("insert into ledger_v12.event (provider, event_id, type, body, status, received_at, available_at,"
          + " settled_at) select 'stripe', 'evt_" + w + "_' || i, 't', '\\x7b7d', 'done',"
          + " now() - i * interval '7 minutes', now() - i * interval '7 minutes', now() - i * interval '7 minutes'"
          + " + interval '30 seconds' from generate_series(0, 40) i");
    }
    v12.sql.execute("insert into ledger_v12.event (provider, event_id, type, body) values ('stripe', 'evt_open', 't', '\\x7b7d')");
    assertEquals(12, v12.admin().schemaVersion());

    assertFalse(v12.admin().migrate(), "the ledger was there");

    assertEquals(LedgerMigration.latest(), v12.admin().schemaVersion());
    String closed = "(select closed_before from ledger_v12.minute_roll_up)";
    List<String> perMinute = v12.sql.fetch("select m || ' ' || sum(r) || ' ' || sum(s) from ("
        + " select date_trunc('minute', received_at) m, 1 r, 0 s from ledger_v12.event union all"
        + " select date_trunc('minute', settled_at), 0, 1 from ledger_v12.event where settled_at is not null) v"
        + " where m < " + closed + " group by m order by m").getValues(0, String.class);
    assertTrue(perMinute.size() >= 40, "closed minutes: " + perMinute);
    assertEquals(perMinute, v12.sql.fetch("select minute::text || ' ' || received || ' ' || settled from ledger_v12.minute_count"
        + " where stripe = 0 order by minute").getValues(0, String.class));
    assertEquals(perMinute.size(), v12.sql.fetchCount(v12.sql.selectOne().from("ledger_v12.minute_count")),
        "one row a closed minute, none for the open one");
    String rollUp = v12.sql.fetch("select minute::text || received || settled || xmin from ledger_v12.minute_count order by 1")
        .getValues(0, String.class).toString();
    v12.sql.execute("insert into ledger_v12.event (provider, event_id, type, body) values ('stripe', 'evt_live', 't', '\\x7b7d')");
    v12.sql.execute("update ledger_v12.event set status = 'done', settled_at = now() where event_id in ('evt_live', 'evt_open')");
    assertEquals(rollUp, v12.sql.fetch("select minute::text || received || settled || xmin from ledger_v12.minute_count order by 1")
        .getValues(0, String.class).toString(), "the live path wrote the roll-up");
  }

  @Test
  void migratingAgainChangesNothingAndKeepsRows() {
    LedgerFixture ledger = new LedgerFixture();
    ledger.row("stripe", "evt_1").insert();

    ledger.admin().migrate();
    try (WebhookRuntime runtime = WebhookRuntime.builder().dataSource(ledger.database.dataSource())
        .provider(new TestHookAdapter(), Secrets.of("s")).build()) {
      runtime.migrate();
    }

    assertEquals(1, ledger.count());
  }

  @Test
  void concurrentMigrationsFromRuntimesAndAdminsAllSucceed() throws Exception {
    TestDatabase.Database db = TestDatabase.create();
    int n = 6;
    ExecutorService threads = Executors.newFixedThreadPool(n);
    List<WebhookRuntime> runtimes = new ArrayList<>();
    try {
      CountDownLatch go = new CountDownLatch(1);
      List<Future<?>> migrations = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        // half through the runtime, half through the admin: one lock serializes both
        Runnable migrate;
        if (i % 2 == 0) {
          WebhookRuntime runtime = runtime(db, "shared_ledger");
          runtimes.add(runtime);
          migrate = runtime::migrate;
        } else {
          migrate = InboxAdmin.builder(db.dataSource()).schema("shared_ledger").build()::migrate;
        }
        migrations.add(threads.submit(() -> {
          go.await();
          migrate.run();
          return null;
        }));
      }
      go.countDown();
      for (Future<?> migration : migrations) {
        migration.get(60, TimeUnit.SECONDS); // throws if any migration failed
      }
    } finally {
      threads.shutdownNow();
      runtimes.forEach(WebhookRuntime::close);
    }
    assertEquals(ledgerTables("shared_ledger"), tablesIn(db, "shared_ledger"));
    assertEquals(0, admin(db, "shared_ledger").status().total());
  }

  @Test
  void ledgerLivesInTheConfiguredSchemaEvenAReservedWord() {
    TestDatabase.Database db = TestDatabase.create();
    List<String> handled = new ArrayList<>();
    try (WebhookRuntime runtime = WebhookRuntime.builder()
        .dataSource(db.dataSource())
        .schema("order")
        .provider(new TestHookAdapter(), Secrets.of("s"))
        .handlers(new Object() {
          @OnEvent("*")
          void any(WebhookEvent event) {
            handled.add(event.eventId());
          }
        })
        .mode(ProcessingMode.INLINE)
        .build()) {
      runtime.migrate();
      runtime.start();
      runtime.receive("testhook", new TestHookSigner("s").delivery("testhook", "evt_schema", "a.b", "{}"));
      assertEquals(1, admin(db, "order").status().count(EventStatus.DONE));
      runtime.admin().migrate();
    }
    assertEquals(List.of("evt_schema"), handled);
    assertEquals("done", LedgerRows.event(db.dataSource(), "\"order\"", "evt_schema").orElseThrow().get("status"));
    assertTrue(LedgerRows.first(db.dataSource(),
        "select 1 from information_schema.schemata where schema_name = 'hookledger'").isEmpty());
  }

  @Test
  void rejectsASchemaNameThatIsNotAPlainIdentifier() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> InboxAdmin.builder(TestDatabase.create().dataSource()).schema("x; DROP TABLE y"));
    assertEquals("schema must be a lower-case SQL identifier ([a-z_][a-z0-9_]*, at most 63 characters),"
        + " but was 'x; DROP TABLE y'", e.getMessage());
  }

  @Test
  void unreachableDatabaseFailsWithTheSchemaAndTheDriversReason() {
    PGSimpleDataSource nowhere = new PGSimpleDataSource();
    nowhere.setUrl("jdbc:postgresql://127.0.0.1:1/ledger?connectTimeout=2");

    LedgerUnavailableException e = assertThrows(LedgerUnavailableException.class,
        () -> InboxAdmin.builder(nowhere).schema("billing").build().migrate());

    assertTrue(e.getMessage().startsWith("cannot migrate ledger schema 'billing': PSQLException (SQL state 08001):"
        + " Connection to 127.0.0.1:1 refused"), e.getMessage());
  }

  /**
   * The tables a migration makes in {@code schema}: {@link #TABLES}, on Citus without the per-minute
   * roll-up ({@code minute_count}, {@code minute_roll_up}), which the distribution script drops.
   */
  /** A new database with the ledger migrated into schema {@code hookledger}. */
  private static TestDatabase.Database migrated() {
    TestDatabase.Database db = TestDatabase.create();
    try (WebhookRuntime runtime = runtime(db, "hookledger")) {
      runtime.migrate();
    }
    return db;
  }

  /** The definition of index {@code name} in schema {@code hookledger}, as PostgreSQL prints it. */
  private static String indexDefinition(TestDatabase.Database db, String name) {
    return (String) LedgerRows.first(db.dataSource(), "select indexdef from pg_indexes where schemaname = 'hookledger'"
        + " and indexname = '" + name + "'").orElseThrow(() -> new AssertionError("no index " + name)).get("indexdef");
  }

  private static List<String> ledgerTables(String schema) {
    return TABLES.stream().filter(t -> !(TestDatabase.citus() && t.startsWith("minute_")))
        .map(t -> schema + "." + t).toList();
  }

  /** The tables and views in {@code schema}, or in every schema but the system's if null, as schema.name. */
  private static List<String> tablesIn(TestDatabase.Database db, String schema) {
    return DSL.using(db.dataSource(), SQLDialect.POSTGRES).fetch(
        "SELECT table_schema || '.' || table_name FROM information_schema.tables"
            + " WHERE table_schema NOT IN ('pg_catalog', 'information_schema')"
            + " AND (?::text IS NULL OR table_schema = ?) ORDER BY 1", schema, schema)
        .getValues(0, String.class);
  }

  /**
   * An admin whose reads wait up to 30 s: these cases assert what a read returns, not how fast (on Citus a
   * status read goes to every shard, and a loaded machine took over the 2 s default; HealthDeadlineTest
   * proves the deadline on its own).
   */
  private static InboxAdmin admin(TestDatabase.Database db, String schema) {
    return InboxAdmin.builder(db.dataSource()).schema(schema).readTimeout(Duration.ofSeconds(30)).build();
  }

  @Test
  void aStepThatWaitsLongerThanThePoolsSocketTimeoutCompletes() throws Exception {
    assumeFalse(TestDatabase.citus(), "the index is built on each shard there, under the workers' locks");
    LedgerFixture ledger = new LedgerFixture("hookledger", 16);
    ExecutorService migrating = Executors.newSingleThreadExecutor();
    try (java.sql.Connection holder = ledger.database.dataSource().getConnection();
        java.sql.Statement s = holder.createStatement();
        WebhookRuntime runtime = WebhookRuntime.builder()
            .jdbcUrl(ledger.database.jdbcUrl())
            .provider(new TestHookAdapter(), Secrets.of("s"))
            .deadlines(d -> d.statementTimeout(Duration.ofMillis(500)).socketTimeout(Duration.ofSeconds(1)))
            .build()) {
      holder.setAutoCommit(false);
      // V17 builds its index CONCURRENTLY, which waits for this lock
      s.execute("lock table hookledger.event in share update exclusive mode");
      Future<?> migrated = migrating.submit(runtime::migrate);
      Await.until("V17 waits for the lock", () -> LedgerRows.number(ledger.database.dataSource(), "select count(*)"
          + " from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'"
          + " and query ilike 'create index concurrently%'") == 1);
      Thread.sleep(2_000); // the step waits twice the pool's socket timeout of 1 s: the driver closed its connection
      holder.commit();

      migrated.get(60, TimeUnit.SECONDS);
    } finally {
      migrating.shutdownNow();
    }
    assertEquals(LedgerMigration.latest(), SchemaMigrator.version(DSL.using(ledger.database.dataSource(),
        SQLDialect.POSTGRES), "hookledger"));
  }

  private static WebhookRuntime runtime(TestDatabase.Database db, String schema) {
    return WebhookRuntime.builder()
        .dataSource(db.dataSource())
        .schema(schema)
        .provider(new TestHookAdapter(), Secrets.of("s"))
        .build();
  }
}
