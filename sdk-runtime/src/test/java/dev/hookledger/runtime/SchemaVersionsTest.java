package dev.hookledger.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hookledger.Secrets;
import dev.hookledger.runtime.admin.InboxAdmin;
import dev.hookledger.runtime.admin.InboxStatus;
import dev.hookledger.runtime.admin.SchemaMigration;
import dev.hookledger.runtime.internal.ledger.LedgerMigration;
import dev.hookledger.runtime.testing.Await;
import dev.hookledger.runtime.testing.LedgerRows;
import dev.hookledger.runtime.testing.TestDatabase;
import dev.hookledger.runtime.testing.TestHookAdapter;
import dev.hookledger.runtime.testing.TestHookSigner;
import java.util.List;
import org.jooq.DSLContext;
import org.jooq.SQLDialect;
import org.jooq.impl.DSL;
import org.junit.jupiter.api.Test;

/**
 * Versioned migrations: a ledger made by the {@code migrate()} of earlier builds (V1 only, no
 * recorded version) is recognised as version 1 and brought up in place, its events intact; each
 * version is applied once; the runtime refuses to start on a ledger of another version than it needs.
 */
class SchemaVersionsTest {
  private final TestDatabase.Database db = TestDatabase.create();
  private final DSLContext sql = DSL.using(db.dataSource(), SQLDialect.POSTGRES);

  /** Exactly what {@code migrate()} did before versions were recorded: the V1 script, nothing else. */
  private void v1Ledger() {
    sql.execute(LedgerMigration.ALL.get(0).sql("hookledger"));
  }

  private void v1Event(String id, String status, int duplicates) {
    sql.execute("insert into hookledger.event (provider, event_id, type, body, status, duplicates, settled_at)"
        + " values ('testhook', ?, 'invoice.paid', convert_to(?, 'UTF8'), ?, ?,"
        + " case when ? in ('done', 'ignored', 'stale') then now() end)",
        id, "{\"id\":\"" + id + "\"}", status, duplicates, status);
  }

  @Test
  void aV1LedgerWithEventsMigratesInPlaceToTheNewestVersionWithItsEventsIntact() {
    v1Ledger();
    v1Event("evt_done", "done", 2);
    v1Event("evt_dead", "dead", 0);
    v1Event("evt_waiting", "pending", 0);
    String before = sql.fetchSingle("select string_agg(event_id || ':' || status || ':' || encode(body, 'escape'),"
        + " ',' order by event_id) from hookledger.event").get(0, String.class);
    InboxAdmin admin = InboxAdmin.builder(db.forRuntime()).build();
    assertEquals(1, admin.schemaVersion(), "recognised as version 1 without a version table");

    assertEquals(false, admin.migrate(), "the event table was there: nothing created anew");

    assertEquals(LedgerMigration.latest(), admin.schemaVersion());
    assertEquals(before, sql.fetchSingle("select string_agg(event_id || ':' || status || ':' || encode(body, 'escape'),"
        + " ',' order by event_id) from hookledger.event").get(0, String.class));
    assertEquals(LedgerMigration.ALL.stream().map(LedgerMigration::version).toList(),
        sql.fetch("select version from hookledger.schema_version order by version")
        .getValues(0, Integer.class));
    InboxStatus status = Await.read("status", admin::status);
    assertEquals(1, status.count(EventStatus.DONE));
    assertEquals(1, status.count(EventStatus.DEAD));
    assertEquals(1, status.count(EventStatus.PENDING));
    assertEquals(2, status.duplicates(), "the duplicates counted before the migration");

    // and a runtime of this build starts on it and processes
    try (WebhookRuntime runtime = runtime().mode(ProcessingMode.INLINE).build()) {
      runtime.start();
      assertEquals(Receipt.Outcome.PROCESSED, runtime.receive("testhook",
          new TestHookSigner("s").delivery("testhook", "evt_after", "invoice.paid", "{}")).outcome());
    }
    assertEquals(4, LedgerRows.number(db.dataSource(), "select count(*) from hookledger.event"));
    assertEquals(List.of(), admin.pendingMigrations(), "nothing left to apply");
  }

  @Test
  void eachVersionIsAppliedOnceAndMigratingAgainRunsNothing() {
    InboxAdmin admin = InboxAdmin.builder(db.forRuntime()).build();
    assertEquals(0, admin.schemaVersion());
    assertEquals(LedgerMigration.ALL.stream().map(LedgerMigration::version).toList(),
        admin.pendingMigrations().stream().map(SchemaMigration::version).toList());

    assertTrue(admin.migrate());
    String installed = sql.fetchSingle("select string_agg(version || '@' || installed_at, ',' order by version)"
        + " from hookledger.schema_version").get(0, String.class);
    assertEquals(false, admin.migrate());

    assertEquals(installed, sql.fetchSingle("select string_agg(version || '@' || installed_at, ',' order by version)"
        + " from hookledger.schema_version").get(0, String.class), "no version recorded twice or again");
  }

  @Test
  void versionsMayLeaveGapsAndAVersionBelowTheNewestThatArrivesLaterIsAppliedThen() {
    InboxAdmin admin = InboxAdmin.builder(db.forRuntime()).build();
    admin.migrate();
    // the scripts skip a number (V7 belongs to another change), as Flyway allows
    assertEquals(List.of(1, 2, 3, 4, 5, 6, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22), sql.fetch("select version from hookledger.schema_version order by version")
        .getValues(0, Integer.class));
    // a ledger that took V8 before V5 existed: V5 arrives with an upgrade, below the newest recorded
    sql.execute("delete from hookledger.schema_version where version = 5");
    sql.execute("drop index hookledger.event_event_id_idx");
    assertEquals(List.of(5), admin.pendingMigrations().stream().map(SchemaMigration::version).toList());
    try (WebhookRuntime runtime = runtime().build()) {
      assertEquals("ledger schema 'hookledger' is at version 22 but lacks V5 (search indexes): run migrate first"
          + " (WebhookRuntime.migrate(), 'hookledger migrate', or your Flyway over classpath:db/hookledger)",
          assertThrows(IllegalStateException.class, runtime::start).getMessage());
      runtime.migrate();
      runtime.start();
    }
    assertEquals(List.of(), admin.pendingMigrations());
    assertEquals(1, LedgerRows.number(db.dataSource(),
        "select count(*) from pg_indexes where schemaname = 'hookledger' and indexname = 'event_event_id_idx'"));
  }

  @Test
  void theRuntimeRefusesToStartOnALedgerOlderThanItNeedsAndSaysMigrate() {
    v1Ledger();
    try (WebhookRuntime runtime = runtime().build()) {
      IllegalStateException e = assertThrows(IllegalStateException.class, runtime::start);
      assertEquals("ledger schema 'hookledger' is at version 1, this hookledger needs version "
          + LedgerMigration.latest() + ": run migrate first (WebhookRuntime.migrate(), 'hookledger migrate',"
          + " or your Flyway over classpath:db/hookledger)", e.getMessage());
      runtime.migrate();
      runtime.start();
    }
  }

  @Test
  void theRuntimeRefusesToStartWithoutTheLedgerAndSaysMigrate() {
    // else it started, and answered 503 to every delivery until someone migrated: GitHub does not redeliver those
    try (WebhookRuntime runtime = runtime().build()) {
      IllegalStateException e = assertThrows(IllegalStateException.class, runtime::start);
      assertEquals("the ledger's tables do not exist in schema 'hookledger' of this database: run migrate first"
          + " (WebhookRuntime.migrate(), 'hookledger migrate', or your Flyway over classpath:db/hookledger)",
          e.getMessage());
      runtime.migrate();
      runtime.start();
    }
  }

  @Test
  void theRuntimeAndMigrateRefuseALedgerNewerThanTheyKnow() {
    InboxAdmin admin = InboxAdmin.builder(db.forRuntime()).build();
    admin.migrate();
    int newer = LedgerMigration.latest() + 1;
    sql.execute("insert into hookledger.schema_version (version, description) values (?, 'from the future')", newer);
    String expected = "ledger schema 'hookledger' is at version " + newer + ", newer than this hookledger knows ("
        + LedgerMigration.latest() + "): a newer hookledger migrated it; upgrade hookledger here too";

    try (WebhookRuntime runtime = runtime().build()) {
      assertEquals(expected, assertThrows(IllegalStateException.class, runtime::start).getMessage());
      assertEquals(expected, assertThrows(IllegalStateException.class, runtime::migrate).getMessage());
    }
    assertEquals(expected, assertThrows(IllegalStateException.class, admin::pendingMigrations).getMessage());
  }

  @Test
  void anIndexLeftInvalidByAFailedConcurrentBuildIsBuiltAgain() {
    v1Ledger();
    v1Event("evt_a", "done", 0);
    v1Event("evt_b", "done", 0);
    // what a CREATE INDEX CONCURRENTLY that failed half-way leaves: an invalid index of the same name
    assertThrows(Exception.class, () -> sql.execute(
        "create unique index concurrently event_received_idx on hookledger.event (provider)"));
    assertEquals(false, LedgerRows.first(db.dataSource(), "select indisvalid from pg_index"
        + " where indexrelid = 'hookledger.event_received_idx'::regclass").orElseThrow().get("indisvalid"));

    InboxAdmin.builder(db.forRuntime()).build().migrate();

    assertEquals("CREATE INDEX event_received_idx ON hookledger.event USING btree (received_at)",
        LedgerRows.first(db.dataSource(), "select pg_get_indexdef('hookledger.event_received_idx'::regclass) as d"
            + " from pg_index i where i.indexrelid = 'hookledger.event_received_idx'::regclass and i.indisvalid")
            .orElseThrow().get("d"));
  }

  private WebhookRuntimeBuilder runtime() {
    return WebhookRuntime.builder().dataSource(db.forRuntime()).provider(new TestHookAdapter(), Secrets.of("s"));
  }
}
