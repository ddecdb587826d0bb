package dev.hookledger.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hookledger.OnEvent;
import dev.hookledger.Payload;
import dev.hookledger.Secrets;
import dev.hookledger.runtime.testing.LedgerRows;
import dev.hookledger.runtime.testing.TestDatabase;
import dev.hookledger.runtime.testing.TestHookAdapter;
import dev.hookledger.runtime.testing.TestHookSigner;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.FlywayException;
import org.jooq.DSLContext;
import org.junit.jupiter.api.Test;

/**
 * The ledger DDL ({@code classpath:db/hookledger/V1__ledger.sql}) applied by an application's own
 * Flyway, as the README documents: a second Flyway whose history lives in the {@code hookledger}
 * schema, so its {@code V1} never meets the application's {@code V1}; and the runtime then works
 * on it without {@code migrate()}. The documented mistake, one Flyway over both locations, is shown
 * to fail.
 */
class FlywayMigrationTest {
  static final TestHookSigner SIGNER = new TestHookSigner("flyway-secret");

  @Test
  void aSecondFlywayWithItsOwnHistoryAppliesTheLedgerBesideTheApplicationsV1() {
    TestDatabase.Database db = TestDatabase.create();
    Flyway.configure().dataSource(db.dataSource()).locations("classpath:db/acme").load().migrate();
    Flyway ledger = Flyway.configure().dataSource(db.dataSource())
        .locations("classpath:db/hookledger").schemas("hookledger").load();
    assertEquals(1, ledger.migrate().migrationsExecuted);
    assertEquals(0, ledger.migrate().migrationsExecuted, "applied once, then up to date");

    assertEquals(1, LedgerRows.number(db.dataSource(),
        "select count(*) from public.flyway_schema_history where version = '1'"), "the application's own V1");
    assertEquals(1, LedgerRows.number(db.dataSource(),
        "select count(*) from hookledger.flyway_schema_history where version = '1' and success"), "hookledger's V1");

    try (WebhookRuntime runtime = WebhookRuntime.builder().dataSource(db.dataSource())
        .provider(new TestHookAdapter(), Secrets.of("flyway-secret")).handlers(new Billing())
        .mode(ProcessingMode.INLINE).build()) {
      runtime.start();
      assertEquals(Receipt.Outcome.PROCESSED, runtime.receive("testhook", SIGNER.delivery("testhook", "evt_fw_1",
          "invoice.paid", "{\"data\":{\"object\":{\"customer\":\"cus_ada\",\"amount_paid\":4200}}}")).outcome());
      runtime.migrate(); // what a user without Flyway calls: harmless on a Flyway-made ledger
    }
    assertEquals(4200, LedgerRows.number(db.dataSource(), "select paid from account where customer = 'cus_ada'"));
    assertEquals(0, ledger.validateWithResult().invalidMigrations.size(), "migrate() changed nothing Flyway tracks");
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
