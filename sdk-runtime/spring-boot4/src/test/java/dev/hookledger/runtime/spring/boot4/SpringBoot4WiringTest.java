package dev.hookledger.runtime.spring.boot4;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.hookledger.runtime.spring.testing.FailureAnalyses;
import dev.hookledger.runtime.testing.TestDatabase;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceTransactionManagerAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * The Boot 4 starter's start-up: the ledger's schema applied as Boot's own initializers decide
 * ({@code embedded} by default, which a real PostgreSQL is not; a start without the ledger fails), and
 * the failures a new application
 * meets first explained by hookledger's {@code FailureAnalyzer}, registered as Boot expects.
 */
class SpringBoot4WiringTest {
  private static final String SECRET = "boot4-wiring-secret";

  private static ApplicationContextRunner runner(TestDatabase.Database db) {
    return new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class,
            DataSourceTransactionManagerAutoConfiguration.class, HookledgerAutoConfiguration.class))
        .withPropertyValues("spring.datasource.url=" + db.jdbcUrl(), "hookledger.workers=0");
  }

  private static long ledgerSchemas(TestDatabase.Database db) throws SQLException {
    try (Connection c = db.dataSource().getConnection(); ResultSet r = c.createStatement()
        .executeQuery("select count(*) from information_schema.schemata where schema_name = 'hookledger'")) {
      r.next();
      return r.getLong(1);
    }
  }

  /**
   * The documented properties on a real PostgreSQL, the default {@code hookledger.migrate=embedded}: the
   * ledger is not created, and the start fails saying how (it used to start, stay UP and answer 503 to
   * every delivery, which GitHub does not redeliver).
   */
  @Test
  void realPostgresqlWithoutTheLedgerFailsTheStartNamingMigrateAlwaysAndFlyway() throws SQLException {
    TestDatabase.Database db = TestDatabase.create();
    runner(db).withPropertyValues("hookledger.providers.testhook.secret=" + SECRET)
        .run(context -> assertLedgerAbsentIsExplained(analyze(context.getStartupFailure())));
    assertEquals(0, ledgerSchemas(db));
  }

  /** The analysis of a start without the ledger, whole. */
  static void assertLedgerAbsentIsExplained(FailureAnalysis analysis) {
    assertEquals("the ledger's tables do not exist in schema 'hookledger' of this database, and hookledger.migrate"
        + " did not create them (its default, embedded, applies the ledger's schema only to an embedded database,"
        + " which a PostgreSQL server is not). Started so, the application would answer 503 to every delivery.",
        analysis.getDescription());
    assertEquals("Set hookledger.migrate=always to have the application create and upgrade the ledger as it starts"
        + " (idempotent; several nodes may start at once), or apply the ledger's scripts (classpath:db/hookledger)"
        + " before the application starts with a Flyway of their own or Liquibase (see \"The ledger schema with your"
        + " Flyway or Liquibase\" in hookledger's README) and set hookledger.migrate=never.", analysis.getAction());
  }

  @Test
  void ledgerSchemaIsAppliedOnlyWhenAskedAlways() throws SQLException {
    TestDatabase.Database db = TestDatabase.create();
    runner(db).withPropertyValues("hookledger.providers.testhook.secret=" + SECRET, "hookledger.migrate=always")
        .run(context -> assertThat(context).hasNotFailed());
    assertEquals(1, ledgerSchemas(db));
    TestDatabase.Database untouched = TestDatabase.create();
    runner(untouched).withPropertyValues("hookledger.providers.testhook.secret=" + SECRET, "hookledger.migrate=never")
        .run(context -> assertThat(context).hasFailed());  // never: the ledger is the application's Flyway's
    assertEquals(0, ledgerSchemas(untouched));
  }

  @Test
  void refusedSecretIsExplainedByTheFailureAnalyzerWithoutTheValue() {
    runner(TestDatabase.create()).withPropertyValues("hookledger.providers.testhook.secret=${HOOKLEDGER_UNSET_SECRET}")
        .run(context -> {
          FailureAnalysis analysis = analyze(context.getStartupFailure());
          assertEquals("hookledger.providers.testhook.secret is an unresolved placeholder (${...}): the variable or"
              + " property it names is not set: set it to the provider's webhook signing secret (several,"
              + " comma-separated, during a rotation)", analysis.getDescription());
          assertEquals("Set hookledger.providers.testhook.secret to the provider's webhook signing secret, e.g."
              + " hookledger.providers.testhook.secret=${WEBHOOK_SECRET} with WEBHOOK_SECRET set in the environment"
              + " (several, comma-separated, during a rotation).", analysis.getAction());
        });
  }

  @Test
  void missingDataSourceIsExplainedByTheFailureAnalyzer() {
    new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(HookledgerAutoConfiguration.class))
        .withPropertyValues("hookledger.providers.testhook.secret=" + SECRET)
        .run(context -> {
          FailureAnalysis analysis = analyze(context.getStartupFailure());
          assertEquals("hookledger needs the application's DataSource, and there is none: set spring.datasource.url"
              + " to the PostgreSQL database of the ledger", analysis.getDescription());
          assertThat(analysis.getAction()).startsWith("Set spring.datasource.url (and spring.datasource.username,"
              + " spring.datasource.password) to the PostgreSQL database of the ledger");
        });
  }

  private static FailureAnalysis analyze(Throwable failure) {
    return FailureAnalyses.of(failure);
  }
}
