package dev.hookledger.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hookledger.LedgerUnavailableException;
import dev.hookledger.OnEvent;
import dev.hookledger.Secrets;
import dev.hookledger.WebhookEvent;
import dev.hookledger.runtime.admin.InboxAdmin;
import dev.hookledger.runtime.admin.LedgerFixture;
import dev.hookledger.runtime.internal.ledger.SchemaMigrator;
import dev.hookledger.runtime.testing.LedgerRows;
import dev.hookledger.runtime.testing.TestDatabase;
import dev.hookledger.runtime.testing.TestHookAdapter;
import dev.hookledger.runtime.testing.TestHookSigner;
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

  @Test
  void migrateTwiceCreatesTheLedgerWithItsPartialWaitingIndex() {
    TestDatabase.Database db = TestDatabase.create();
    try (WebhookRuntime runtime = runtime(db, "hookledger")) {
      runtime.migrate();
      runtime.migrate();
    }
    String index = (String) LedgerRows.first(db.dataSource(),
        "select indexdef from pg_indexes where schemaname = 'hookledger' and indexname = 'event_waiting_idx'")
        .orElseThrow().get("indexdef");
    assertEquals("CREATE INDEX event_waiting_idx ON hookledger.event USING btree (available_at) WHERE"
        + " (status = ANY (ARRAY['pending'::text, 'processing'::text]))", index);
    assertEquals(9, LedgerRows.number(db.dataSource(),
        "select count(*) from information_schema.tables where table_schema = 'hookledger'"));
  }

  @Test
  void theBackfillCursorHasItsIndexInCursorOrder() {
    // V8 meant to build it, but reused the name of V3's index on received_at and was skipped; V12 builds it
    TestDatabase.Database db = TestDatabase.create();
    try (WebhookRuntime runtime = runtime(db, "hookledger")) {
      runtime.migrate();
    }
    assertEquals(1, LedgerRows.number(db.dataSource(), "select count(*) from pg_indexes where schemaname = 'hookledger'"
        + " and indexdef like '%(received_at, provider, scope, event_id)'"));
    assertEquals("CREATE INDEX event_backfill_cursor_idx ON hookledger.event USING btree"
        + " (received_at, provider, scope, event_id)", LedgerRows.first(db.dataSource(),
        "select indexdef from pg_indexes where schemaname = 'hookledger' and indexname = 'event_backfill_cursor_idx'")
        .orElseThrow().get("indexdef"));
  }

  @Test
  void appliesTheLedgerUnderTheConfiguredSchemaOnly() {
    TestDatabase.Database db = TestDatabase.create();

    InboxAdmin.builder(db.dataSource()).schema("billing_inbox").build().migrate();

    List<String> tables = DSL.using(db.dataSource(), SQLDialect.POSTGRES).fetch(
        "SELECT table_schema || '.' || table_name FROM information_schema.tables"
            + " WHERE table_schema NOT IN ('pg_catalog', 'information_schema') ORDER BY 1")
        .getValues(0, String.class);
    assertEquals(List.of("billing_inbox.attempt", "billing_inbox.backfill", "billing_inbox.entity_version",
        "billing_inbox.event", "billing_inbox.handler_applied", "billing_inbox.minute_count",
        "billing_inbox.refusal_count",
        "billing_inbox.schema_version", "billing_inbox.status_count"), tables);
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
    assertEquals(9, LedgerRows.number(db.dataSource(),
        "select count(*) from information_schema.tables where table_schema = 'shared_ledger'"));
    assertEquals(0, InboxAdmin.builder(db.dataSource()).schema("shared_ledger").build().status().total());
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
      assertEquals(1, runtime.admin().status().count(EventStatus.DONE));
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

  private static WebhookRuntime runtime(TestDatabase.Database db, String schema) {
    return WebhookRuntime.builder()
        .dataSource(db.dataSource())
        .schema(schema)
        .provider(new TestHookAdapter(), Secrets.of("s"))
        .build();
  }
}
