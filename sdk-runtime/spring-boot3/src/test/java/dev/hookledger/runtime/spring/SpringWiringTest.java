package dev.hookledger.runtime.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hookledger.InboundDelivery;
import dev.hookledger.OnEvent;
import dev.hookledger.runtime.EventStatus;
import dev.hookledger.runtime.HandlerFailedException;
import dev.hookledger.runtime.Receipt;
import dev.hookledger.runtime.WebhookRuntime;
import dev.hookledger.runtime.admin.EventDetail;
import dev.hookledger.runtime.spring.boot3.HookledgerAutoConfiguration;
import dev.hookledger.runtime.spring.boot3.HookledgerHealthAutoConfiguration;
import dev.hookledger.runtime.spring.testing.FailureAnalyses;
import dev.hookledger.runtime.testing.Await;
import dev.hookledger.runtime.testing.TestDatabase;
import dev.hookledger.runtime.testing.TestHookAdapter;
import dev.hookledger.runtime.testing.TestHookSigner;
import dev.hookledger.runtime.testkit.SignedDeliveries;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.postgresql.ds.PGSimpleDataSource;
import org.springframework.boot.actuate.health.HealthIndicator;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.jdbc.DataSourceAutoConfiguration;
import org.springframework.boot.autoconfigure.jdbc.DataSourceTransactionManagerAutoConfiguration;
import org.springframework.boot.autoconfigure.jdbc.JdbcTemplateAutoConfiguration;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.PlatformTransactionManager;

/**
 * What the auto-configuration sets up under which conditions, and how it refuses a bad
 * configuration at start-up: each message names the property at fault.
 */
class SpringWiringTest {
  private static final String SECRET = "wiring-secret";
  private static final TestDatabase.Database DB = TestDatabase.create();

  static {
    DB.execute("create table shipped (id text primary key)");
  }

  private final ApplicationContextRunner runner = new ApplicationContextRunner()
      .withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class,
          DataSourceTransactionManagerAutoConfiguration.class, JdbcTemplateAutoConfiguration.class,
          HookledgerAutoConfiguration.class, HookledgerHealthAutoConfiguration.class))
      .withPropertyValues("spring.datasource.url=" + DB.jdbcUrl(), "hookledger.workers=1",
          "hookledger.migrate=always");

  @Test
  void unsetSecretFailsTheStartNamingTheProperty() {
    runner.withPropertyValues("hookledger.providers.testhook.max-body-size=1MB").run(context ->
        assertThat(context).getFailure().rootCause().hasMessage("hookledger.providers.testhook.secret is not set: set it"
            + " to the provider's webhook signing secret (several, comma-separated, during a rotation)"));
  }

  @Test
  void unresolvedPlaceholderSecretFailsTheStartNamingTheProperty() {
    // Boot leaves ${...} as the value when the variable is unset: that public string must never sign
    runner.withPropertyValues("hookledger.providers.testhook.secret=${HOOKLEDGER_TEST_UNSET_WEBHOOK_SECRET}")
        .run(context -> assertThat(context).getFailure().rootCause().hasMessage("hookledger.providers.testhook.secret"
            + " is an unresolved placeholder (${...}): the variable or property it names is not set: set it to the"
            + " provider's webhook signing secret (several, comma-separated, during a rotation)"));
    runner.withPropertyValues("hookledger.providers.testhook.secret=It's a Secret to Everybody")
        .run(context -> assertThat(context).getFailure().rootCause().hasMessageStartingWith(
            "hookledger.providers.testhook.secret is a value published as an example"));
  }

  @Test
  void unresolvedPlaceholderAdminTokenFailsTheStartNamingTheProperty() {
    new WebApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class,
            DataSourceTransactionManagerAutoConfiguration.class, HookledgerAutoConfiguration.class))
        .withPropertyValues("spring.datasource.url=" + DB.jdbcUrl(), "hookledger.providers.testhook.secret=" + SECRET,
            "hookledger.admin.path=/hookledger", "hookledger.admin.token=${HOOKLEDGER_TEST_UNSET_ADMIN_TOKEN}")
        .run(context -> assertThat(context).getFailure().rootCause().hasMessage("hookledger.admin.token: admin token"
            + " is an unresolved placeholder (${...}): the variable or property it names is not set"));
  }

  /**
   * The documented properties on a real PostgreSQL, the default {@code hookledger.migrate=embedded}: the
   * start fails through the failure analyzer, saying how to create the ledger.
   */
  @Test
  void realPostgresqlWithoutTheLedgerFailsTheStartNamingMigrateAlwaysAndFlyway() {
    new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class,
            DataSourceTransactionManagerAutoConfiguration.class, HookledgerAutoConfiguration.class))
        .withPropertyValues("spring.datasource.url=" + TestDatabase.create().jdbcUrl(),
            "hookledger.providers.testhook.secret=" + SECRET, "hookledger.workers=0")
        .run(context -> {
          FailureAnalysis analysis = FailureAnalyses.of(context.getStartupFailure());
          assertEquals("the ledger's tables do not exist in schema 'hookledger' of this database, and"
              + " hookledger.migrate did not create them (its default, embedded, applies the ledger's schema only to"
              + " an embedded database, which a PostgreSQL server is not). Started so, the application would answer"
              + " 503 to every delivery.", analysis.getDescription());
          assertThat(analysis.getAction()).startsWith("Set hookledger.migrate=always to have the application create"
              + " and upgrade the ledger as it starts").contains("Flyway", "Liquibase", "hookledger.migrate=never");
        });
  }


  @Test
  void noProviderFailsTheStartNamingTheProperty() {
    runner.run(context -> assertThat(context).getFailure().rootCause().hasMessage("hookledger: no provider is"
        + " configured: set hookledger.providers.<id>.secret for each provider whose webhooks this application"
        + " receives (its adapter is found on the class path by its id), or declare a ProviderAdapter bean"));
  }

  @Test
  void badValueFailsTheStartNamingTheProperty() {
    runner.withPropertyValues("hookledger.providers.testhook.secret=" + SECRET, "hookledger.workers=300").run(context ->
        assertThat(context).getFailure().rootCause().hasMessage("Property hookledger.workers with value '300' is"
            + " invalid: workers must be between 0 and 256, but was 300"));
    runner.withPropertyValues("hookledger.providers.testhook.secret=" + SECRET, "hookledger.body-read-timeout=0s")
        .run(context -> assertThat(context).getFailure().rootCause().hasMessage("Property hookledger.body-read-timeout"
            + " with value 'PT0S' is invalid: bodyReadTimeout must be positive, but was PT0S"));
  }

  @Test
  void badRetryPropertyFailsTheStartNamingTheProperty() {
    runner.withPropertyValues("hookledger.providers.testhook.secret=" + SECRET, "hookledger.retry.max-attempts=0")
        .run(context -> assertThat(context).getFailure().rootCause().hasMessageStartingWith("Property"
            + " hookledger.retry.max-attempts with value '0' is invalid: maxAttempts must be"));
  }

  @Test
  void unknownProviderFailsTheStartNamingTheProperty() {
    runner.withPropertyValues("hookledger.providers.nosuch.secret=" + SECRET).run(context ->
        assertThat(context).getFailure().rootCause().hasMessage("hookledger.providers.nosuch: no ProviderAdapter with"
            + " id 'nosuch' on the class path (found: standard, testhook); add the provider's module, e.g."
            + " dev.hookledger:hookledger-nosuch, or pass the adapter itself"));
  }

  @Test
  void badPathPrefixFailsTheStartNamingTheProperty() {
    new WebApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class,
            DataSourceTransactionManagerAutoConfiguration.class, HookledgerAutoConfiguration.class))
        .withPropertyValues("spring.datasource.url=" + DB.jdbcUrl(), "hookledger.providers.testhook.secret=" + SECRET,
            "hookledger.path-prefix=hooks")
        .run(context -> assertThat(context).getFailure().rootCause().hasMessage("Property hookledger.path-prefix with"
            + " value 'hooks' is invalid: path prefix must start with '/' and hold no '?' or '*', but was 'hooks'"));
  }

  @Test
  void adminServletOnlyWithAPathAndAToken() {
    WebApplicationContextRunner web = new WebApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class,
            DataSourceTransactionManagerAutoConfiguration.class, HookledgerAutoConfiguration.class))
        .withPropertyValues("spring.datasource.url=" + DB.jdbcUrl(), "hookledger.providers.testhook.secret=" + SECRET,
            "hookledger.migrate=always");
    web.run(context -> assertThat(context).hasBean("hookledgerFilter").doesNotHaveBean("hookledgerAdminServlet"));
    web.withPropertyValues("hookledger.admin.path=/hookledger", "hookledger.admin.token=an-operator-token-1234")
        .run(context -> assertThat(context).hasBean("hookledgerAdminServlet"));
    web.withPropertyValues("hookledger.admin.path=/hookledger", "hookledger.admin.token=short")
        .run(context -> assertThat(context).getFailure().rootCause().hasMessage("hookledger.admin.token: admin token"
            + " must be at least 16 characters, but was 5"));
  }

  @Test
  void transactionManagerOfAnotherDataSourceIsRefused() {
    runner.withPropertyValues("hookledger.providers.testhook.secret=" + SECRET)
        .withBean(PlatformTransactionManager.class, () -> new DataSourceTransactionManager(new PGSimpleDataSource()))
        .run(context -> assertThat(context).getFailure().rootCause().hasMessage("hookledger: the transaction manager"
            + " org.springframework.jdbc.datasource.DataSourceTransactionManager manages another DataSource than the"
            + " application's, so a handler's JdbcTemplate, JPA and @Transactional writes would not join the"
            + " transaction that settles the ledger row: give it the application's DataSource"));
  }

  @Test
  void disabledConfiguresNothing() {
    runner.withPropertyValues("hookledger.enabled=false").run(context ->
        assertThat(context).hasNotFailed().doesNotHaveBean(WebhookRuntime.class));
  }

  @Test
  void healthIndicatorOnlyWithTheActuator() {
    runner.withPropertyValues("hookledger.providers.testhook.secret=" + SECRET).run(context ->
        assertThat(context).hasSingleBean(WebhookRuntime.class).hasBean("hookledgerHealthIndicator"));
    runner.withPropertyValues("hookledger.providers.testhook.secret=" + SECRET)
        .withClassLoader(new FilteredClassLoader(HealthIndicator.class))
        .run(context -> assertThat(context).hasSingleBean(WebhookRuntime.class)
            .doesNotHaveBean("hookledgerHealthIndicator"));
  }

  @Test
  void noFilterOutsideAServletApplication() {
    runner.withPropertyValues("hookledger.providers.testhook.secret=" + SECRET).run(context ->
        assertThat(context).hasSingleBean(WebhookRuntime.class).doesNotHaveBean("hookledgerFilter"));
  }

  @Test
  void applicationsOwnRuntimeIsKeptAndStarted() {
    runner.withUserConfiguration(OwnRuntime.class)
        .run(context -> {
          assertThat(context).hasNotFailed().hasSingleBean(WebhookRuntime.class);
          WebhookRuntime runtime = context.getBean(WebhookRuntime.class);
          assertEquals("own", runtime.receive("own", new TestHookSigner(SECRET).delivery("own", "own-1", "anything",
              "{}")).event().provider(), "not started by the lifecycle");
        });
  }

  @Test
  void applicationsOwnRuntimeOutsideSpringsTransactionsFailsTheStartSayingHow() {
    runner.withBean(WebhookRuntime.class, () -> WebhookRuntime.builder().dataSource(DB.dataSource())
            .provider(new TestHookAdapter("own"), dev.hookledger.Secrets.of(SECRET)).inbox(i -> i.workers(0)).build())
        .run(context -> assertThat(context).getFailure().rootCause().hasMessage("hookledger: the application's"
            + " WebhookRuntime bean runs its handlers outside Spring's transactions, so their JdbcTemplate, JPA and"
            + " @Transactional writes would commit apart from the ledger row: build it with"
            + " SpringTransactions.wire(WebhookRuntime.builder(), dataSource, transactionManager), or remove it and"
            + " customize the auto-configured one with hookledger.* properties or a WebhookRuntimeCustomizer bean"));
  }

  /** An application's own runtime, on Spring's transactions by the public helper. */
  @org.springframework.context.annotation.Configuration(proxyBeanMethods = false)
  static class OwnRuntime {
    @org.springframework.context.annotation.Bean
    WebhookRuntime webhookRuntime(javax.sql.DataSource dataSource, PlatformTransactionManager transactions) {
      return SpringTransactions.wire(WebhookRuntime.builder(), dataSource, transactions)
          .provider(new TestHookAdapter("own"), dev.hookledger.Secrets.of(SECRET)).inbox(i -> i.workers(0)).build();
    }
  }

  @Test
  void providerAdapterBeanIsRegisteredWithTheSecretOfItsId() {
    runner.withPropertyValues("hookledger.providers.beanhook.secret=" + SECRET)
        .withBean(TestHookAdapter.class, () -> new TestHookAdapter("beanhook"))
        .run(context -> {
          WebhookRuntime runtime = context.getBean(WebhookRuntime.class);
          assertEquals(EventStatus.IGNORED, SignedDeliveries.to(runtime).deliverAndSettle("beanhook",
              new TestHookSigner(SECRET).delivery("beanhook", "bean-1", "nobody.listens", "{}")).status());
        });
  }

  @Test
  void jdbcTemplateWriteRollsBackWithTheLedgerRowUnderADataSourceTransactionManager() {
    runner.withPropertyValues("hookledger.providers.testhook.secret=" + SECRET)
        .withBean(Shipments.class)
        .run(context -> {
          WebhookRuntime runtime = context.getBean(WebhookRuntime.class);
          JdbcTemplate jdbc = context.getBean(JdbcTemplate.class);
          context.getBean(Shipments.class).failures.set(1);

          runtime.receive("testhook", new TestHookSigner(SECRET).delivery("testhook", "ship-1", "order.shipped",
              "{\"id\":\"ship-1\"}"));
          Await.until("the first attempt failed", () -> runtime.admin().show("testhook", "", "ship-1")
              .map(EventDetail::summary).filter(s -> s.attempts() == 1 && s.status() == EventStatus.PENDING).isPresent());
          assertEquals(0, jdbc.queryForObject("select count(*) from shipped where id = 'ship-1'", Integer.class));

          jdbc.update("update hookledger.event set available_at = now() where event_id = 'ship-1'");
          Await.until("the retry settled", () -> runtime.admin().show("testhook", "", "ship-1")
              .map(EventDetail::summary).filter(s -> s.status() == EventStatus.DONE).isPresent());
          assertEquals(1, jdbc.queryForObject("select count(*) from shipped where id = 'ship-1'", Integer.class));
        });
  }

  @Test
  void inlineHandlerFailureRollsBackItsJdbcTemplateWriteWithTheRow() {
    runner.withPropertyValues("hookledger.providers.testhook.secret=" + SECRET, "hookledger.mode=inline")
        .withBean(Shipments.class)
        .run(context -> {
          WebhookRuntime runtime = context.getBean(WebhookRuntime.class);
          JdbcTemplate jdbc = context.getBean(JdbcTemplate.class);
          context.getBean(Shipments.class).failures.set(1);
          InboundDelivery delivery = new TestHookSigner(SECRET).delivery("testhook", "inline-1", "order.shipped",
              "{\"id\":\"inline-1\"}");

          assertThrows(HandlerFailedException.class, () -> runtime.receive("testhook", delivery));
          assertEquals(0, jdbc.queryForObject("select count(*) from shipped where id = 'inline-1'", Integer.class));
          assertEquals(0, jdbc.queryForObject("select count(*) from hookledger.event where event_id = 'inline-1'",
              Integer.class));

          // the provider's redelivery: handled in the request's transaction, effect and row committed together
          assertEquals(Receipt.Outcome.PROCESSED, runtime.receive("testhook", delivery).outcome());
          assertEquals(1, jdbc.queryForObject("select count(*) from shipped where id = 'inline-1'", Integer.class));
        });
  }

  @Test
  void closingTheContextLetsTheEventInFlightFinish() {
    runner.withPropertyValues("hookledger.providers.testhook.secret=" + SECRET)
        .withBean(SlowShipments.class)
        .run(context -> {
          WebhookRuntime runtime = context.getBean(WebhookRuntime.class);
          SlowShipments handler = context.getBean(SlowShipments.class);
          runtime.receive("testhook", new TestHookSigner(SECRET).delivery("testhook", "slow-1", "order.delayed",
              "{\"id\":\"slow-1\"}"));
          assertThat(handler.started.await(10, TimeUnit.SECONDS)).isTrue();

          Thread closer = new Thread(context::close, "context-closer");
          closer.start();
          // the lifecycle's stop is waiting for the event in flight, which still holds its transaction
          Await.until("close to wait", () -> closer.getState() == Thread.State.TIMED_WAITING
              || closer.getState() == Thread.State.WAITING);
          handler.release.countDown();
          closer.join(TimeUnit.SECONDS.toMillis(30));

          assertThat(closer.isAlive()).isFalse();
          assertEquals(1, count("select count(*) from shipped where id = 'slow-1'"));
          assertEquals(1, count("select count(*) from hookledger.event where event_id = 'slow-1' and status = 'done'"));
        });
  }

  private static int count(String sql) throws java.sql.SQLException {
    try (java.sql.Connection c = DB.dataSource().getConnection();
        java.sql.ResultSet r = c.createStatement().executeQuery(sql)) {
      r.next();
      return r.getInt(1);
    }
  }

  /** Holds its event in flight until released. */
  static class SlowShipments {
    final JdbcTemplate jdbc;
    final CountDownLatch started = new CountDownLatch(1);
    final CountDownLatch release = new CountDownLatch(1);

    SlowShipments(JdbcTemplate jdbc) {
      this.jdbc = jdbc;
    }

    @OnEvent("order.delayed")
    public void delayed(JsonNode order) throws InterruptedException {
      jdbc.update("insert into shipped (id) values (?)", order.get("id").asText());
      started.countDown();
      if (!release.await(20, TimeUnit.SECONDS)) {
        throw new IllegalStateException("never released");
      }
    }
  }

  /** Writes with {@code JdbcTemplate}; fails after writing while {@code failures} is positive. */
  static class Shipments {
    final JdbcTemplate jdbc;
    final AtomicInteger failures = new AtomicInteger();

    Shipments(JdbcTemplate jdbc) {
      this.jdbc = jdbc;
    }

    @OnEvent("order.shipped")
    public void shipped(JsonNode order) {
      jdbc.update("insert into shipped (id) values (?)", order.get("id").asText());
      if (failures.getAndDecrement() > 0) {
        throw new IllegalStateException("the carrier API is down");
      }
    }
  }
}
