package dev.hookledger.runtime.admin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.hookledger.runtime.internal.admin.LedgerMigrator;
import dev.hookledger.runtime.testing.TestDatabase;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.jooq.impl.DSL;
import org.junit.jupiter.api.Test;

class LedgerMigratorTest {

  @Test
  void appliesTheLedgerUnderTheConfiguredSchemaOnly() {
    TestDatabase.Database db = TestDatabase.create();

    new LedgerMigrator(db.dataSource(), "billing_inbox").migrate();

    List<String> tables = DSL.using(db.dataSource(), org.jooq.SQLDialect.POSTGRES).fetch(
        "SELECT table_schema || '.' || table_name FROM information_schema.tables"
            + " WHERE table_schema NOT IN ('pg_catalog', 'information_schema') ORDER BY 1")
        .getValues(0, String.class);
    assertEquals(List.of("billing_inbox.entity_version", "billing_inbox.event"), tables);
    assertFalse(new LedgerMigrator(db.dataSource(), "x").script().contains("hookledger"));
  }

  @Test
  void migratingAgainChangesNothingAndKeepsRows() {
    LedgerFixture ledger = new LedgerFixture();
    ledger.row("stripe", "evt_1").insert();

    ledger.admin().migrate();

    assertEquals(1, ledger.count());
  }

  @Test
  void concurrentMigrationsOfAFreshDatabaseAllSucceed() throws Exception {
    TestDatabase.Database db = TestDatabase.create();
    int n = 6;
    ExecutorService pool = Executors.newFixedThreadPool(n);
    CountDownLatch start = new CountDownLatch(1);
    try {
      List<CompletableFuture<Void>> runs = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        runs.add(CompletableFuture.runAsync(() -> {
          awaitQuietly(start);
          new LedgerMigrator(db.dataSource(), "hookledger").migrate();
        }, pool));
      }
      start.countDown();
      CompletableFuture.allOf(runs.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
    } finally {
      pool.shutdownNow();
    }
    assertEquals(0, InboxAdmin.builder(db.dataSource()).build().status().total());
  }

  @Test
  void rejectsASchemaNameThatIsNotAPlainIdentifier() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> InboxAdmin.builder(TestDatabase.create().dataSource()).schema("x; DROP TABLE y"));
    assertEquals("schema must be a lower-case SQL identifier ([a-z_][a-z0-9_]*, at most 63 characters),"
        + " but was 'x; DROP TABLE y'", e.getMessage());
  }

  private static void awaitQuietly(CountDownLatch latch) {
    try {
      latch.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
