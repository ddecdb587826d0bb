package dev.hookledger.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hookledger.OnEvent;
import dev.hookledger.Payload;
import dev.hookledger.Secrets;
import dev.hookledger.runtime.admin.InboxAdmin;
import dev.hookledger.runtime.internal.ledger.LedgerMigration;
import dev.hookledger.runtime.testing.LedgerRows;
import dev.hookledger.runtime.testing.TestDatabase;
import dev.hookledger.runtime.testing.TestHookAdapter;
import dev.hookledger.runtime.testing.TestHookSigner;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.FlywayException;
import org.flywaydb.core.api.configuration.FluentConfiguration;
import org.flywaydb.database.postgresql.PostgreSQLConfigurationExtension;
import org.jooq.DSLContext;
import org.jooq.SQLDialect;
import org.jooq.impl.DSL;
import org.junit.jupiter.api.Test;

/**
 * The ledger's versioned scripts ({@code classpath:db/hookledger/V1__ledger.sql}, {@code V2__...})
 * applied by an application's own Flyway, as docs/ledger-schema.md documents: a second Flyway whose history
 * lives in the {@code hookledger} schema, so its {@code V1} never meets the application's {@code V1},
 * from V1 up, and with {@code baselineOnMigrate} over a ledger that {@code migrate()} made; the
 * runtime then works on it without {@code migrate()}. The documented mistake, one Flyway over both
 * locations, is shown to fail.
 */
class FlywayMigrationTest {
  static final TestHookSigner SIGNER = new TestHookSigner("flyway-secret");

  @Test
  void aSecondFlywayWithItsOwnHistoryAppliesTheLedgerBesideTheApplicationsV1() {
    TestDatabase.Database db = TestDatabase.create();
    Flyway.configure().dataSource(db.dataSource()).locations("classpath:db/acme").load().migrate();
    Flyway ledger = ledgerFlyway(db);
    assertEquals(LedgerMigration.ALL.size(), ledger.migrate().migrationsExecuted, "every version, from V1 up");
    assertEquals(0, ledger.migrate().migrationsExecuted, "applied once, then up to date");

    assertEquals(1, LedgerRows.number(db.dataSource(),
        "select count(*) from public.flyway_schema_history where version = '1'"), "the application's own V1");
    assertEquals(1, LedgerRows.number(db.dataSource(),
        "select count(*) from hookledger.flyway_schema_history where version = '1' and success"), "hookledger's V1");

    try (WebhookRuntime runtime = started(db)) {
      assertEquals(Receipt.Outcome.PROCESSED, paid(runtime, "evt_fw_1", 4200));
      runtime.migrate(); // what a user without Flyway calls: harmless on a Flyway-made ledger
    }
    assertEquals(4200, LedgerRows.number(db.dataSource(), "select paid from account where customer = 'cus_ada'"));
    assertEquals(0, ledger.validateWithResult().invalidMigrations.size(), "migrate() changed nothing Flyway tracks");
    assertEquals(LedgerMigration.latest(), InboxAdmin.builder(db.dataSource()).build().schemaVersion(),
        "the scripts record their versions for the runtime, whoever runs them");
  }

  @Test
  void flywayWithBaselineOnMigrateTakesOverALedgerThatMigrateMadeAndAppliesTheLaterVersions() {
    TestDatabase.Database db = TestDatabase.create();
    // a ledger made by the migrate() of a build that knew V1 only, with an event in it
    DSL.using(db.dataSource(), SQLDialect.POSTGRES).execute(LedgerMigration.ALL.get(0).sql("hookledger"));
    DSL.using(db.dataSource(), SQLDialect.POSTGRES).execute("insert into hookledger.event"
        + " (provider, event_id, type, body, status, settled_at) values ('testhook', 'evt_old', 't', '\\x7b7d', 'done', now())");
    Flyway.configure().dataSource(db.dataSource()).locations("classpath:db/acme").load().migrate();

    assertEquals(LedgerMigration.ALL.size() - 1, ledgerFlyway(db).migrate().migrationsExecuted,
        "V1 taken as the baseline");

    InboxAdmin admin = InboxAdmin.builder(db.dataSource()).build();
    assertEquals(LedgerMigration.latest(), admin.schemaVersion());
    assertEquals(1, admin.status().count(EventStatus.DONE), "the event made before Flyway, counted");
    try (WebhookRuntime runtime = started(db)) {
      assertEquals(Receipt.Outcome.PROCESSED, paid(runtime, "evt_fw_2", 100));
    }
    assertEquals(2, LedgerRows.number(db.dataSource(), "select count(*) from hookledger.event"));
  }

  /** A runtime of this build on the Flyway-made ledger, started: start() checks the schema's version. */
  private static WebhookRuntime started(TestDatabase.Database db) {
    WebhookRuntime runtime = WebhookRuntime.builder().dataSource(db.forRuntime())
        .provider(new TestHookAdapter(), Secrets.of("flyway-secret")).handlers(new Billing())
        .mode(ProcessingMode.INLINE).build();
    runtime.start();
    return runtime;
  }

  private static Receipt.Outcome paid(WebhookRuntime runtime, String id, long amount) {
    return runtime.receive("testhook", SIGNER.delivery("testhook", id, "invoice.paid",
        "{\"data\":{\"object\":{\"customer\":\"cus_ada\",\"amount_paid\":" + amount + "}}}")).outcome();
  }

  /**
   * The manual's recipe: a Flyway of the ledger's own, its history in the ledger's schema, taking a
   * ledger made by {@code migrate()} as its baseline, and holding its lock outside a transaction: a
   * transaction open during {@code CREATE INDEX CONCURRENTLY} (V3) makes the build wait for it forever.
   */
  static Flyway ledgerFlyway(TestDatabase.Database db) {
    DataSource dataSource = db.dataSource();
    // as docs/ledger-schema.md writes it (DocSnippetsTest in samples checks the page against these lines)
    FluentConfiguration ledger = Flyway.configure().dataSource(dataSource)
        .locations("classpath:db/hookledger")
        .schemas("hookledger")                 // history in hookledger.flyway_schema_history
        .baselineOnMigrate(true);              // a ledger that migrate() made is taken as V1, then V2.. applied
    // V3 builds its indexes CONCURRENTLY: Flyway's default lock, held in an open transaction, would make
    // that build wait for Flyway itself, forever. Its session-level lock does not:
    ledger.getConfigurationExtension(PostgreSQLConfigurationExtension.class).setTransactionalLock(false);
    return ledger.load();
  }

  @Test
  void oneFlywayOverBothLocationsClashesOnV1() {
    TestDatabase.Database db = TestDatabase.create();
    Flyway both = Flyway.configure().dataSource(db.dataSource())
        .locations("classpath:db/acme", "classpath:db/hookledger").load();
    FlywayException e = org.junit.jupiter.api.Assertions.assertThrows(FlywayException.class, both::migrate);
    assertTrue(e.getMessage().contains("more than one migration with version 1"), e.getMessage());
  }

  record Invoice(String customer, long amount_paid) {}

  static final class Billing {
    @OnEvent("invoice.paid")
    void paid(@Payload("/data/object") Invoice invoice, DSLContext tx) {
      tx.execute("update account set paid = paid + ? where customer = ?", invoice.amount_paid(), invoice.customer());
    }
  }
}
