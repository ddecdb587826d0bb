package dev.hookledger.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hookledger.OnEvent;
import dev.hookledger.Secrets;
import dev.hookledger.WebhookEvent;
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
import org.junit.jupiter.api.Test;

/** {@code migrate()} applies the DDL idempotently, concurrently, in any schema. */
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
    assertEquals(2, LedgerRows.number(db.dataSource(),
        "select count(*) from information_schema.tables where table_schema = 'hookledger'"));
  }

  @Test
  void concurrentMigrationsFromSeveralRuntimesAllSucceed() throws Exception {
    TestDatabase.Database db = TestDatabase.create();
    int n = 6;
    ExecutorService threads = Executors.newFixedThreadPool(n);
    List<WebhookRuntime> runtimes = new ArrayList<>();
    try {
      CountDownLatch go = new CountDownLatch(1);
      List<Future<?>> migrations = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        WebhookRuntime runtime = runtime(db, "shared_ledger");
        runtimes.add(runtime);
        migrations.add(threads.submit(() -> {
          go.await();
          runtime.migrate();
          return null;
        }));
      }
      go.countDown();
      for (Future<?> migration : migrations) {
        migration.get(); // throws if any migration failed
      }
    } finally {
      threads.shutdownNow();
      runtimes.forEach(WebhookRuntime::close);
    }
    assertEquals(2, LedgerRows.number(db.dataSource(),
        "select count(*) from information_schema.tables where table_schema = 'shared_ledger'"));
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
    }
    assertEquals(List.of("evt_schema"), handled);
    assertEquals("done", LedgerRows.event(db.dataSource(), "\"order\"", "evt_schema").orElseThrow().get("status"));
    assertTrue(LedgerRows.first(db.dataSource(),
        "select 1 from information_schema.schemata where schema_name = 'hookledger'").isEmpty());
  }

  private static WebhookRuntime runtime(TestDatabase.Database db, String schema) {
    return WebhookRuntime.builder()
        .dataSource(db.dataSource())
        .schema(schema)
        .provider(new TestHookAdapter(), Secrets.of("s"))
        .build();
  }
}
