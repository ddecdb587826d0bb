package dev.hookledger.runtime.spring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hookledger.OnEvent;
import dev.hookledger.Secrets;
import dev.hookledger.WebhookEvent;
import dev.hookledger.runtime.EventStatus;
import dev.hookledger.runtime.ProcessingMode;
import dev.hookledger.runtime.RetryPolicy;
import dev.hookledger.runtime.WebhookRuntime;
import dev.hookledger.runtime.admin.EventDetail;
import dev.hookledger.runtime.internal.ledger.LedgerDsl;
import dev.hookledger.runtime.internal.ledger.SchemaMigrator;
import dev.hookledger.runtime.spring.boot3.HookledgerAutoConfiguration;
import dev.hookledger.runtime.testing.Await;
import dev.hookledger.runtime.testing.LedgerRows;
import dev.hookledger.runtime.testing.TestDatabase;
import dev.hookledger.runtime.testing.TestHookAdapter;
import dev.hookledger.runtime.testing.TestHookSigner;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import javax.sql.DataSource;
import org.jooq.DSLContext;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.jdbc.DataSourceAutoConfiguration;
import org.springframework.boot.autoconfigure.jdbc.DataSourceTransactionManagerAutoConfiguration;
import org.springframework.boot.autoconfigure.jdbc.JdbcTemplateAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.datasource.LazyConnectionDataSourceProxy;
import org.springframework.jdbc.datasource.TransactionAwareDataSourceProxy;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.AbstractPlatformTransactionManager;
import org.springframework.transaction.support.DefaultTransactionStatus;
import org.springframework.transaction.support.ResourceTransactionManager;

/**
 * Under Spring the ledger runs on exactly the connection the transaction manager bound, whatever
 * wrappers sit between it and the pool, on any pool (HikariCP with {@code auto-commit=false}
 * included), and customizing the runtime never loses the shared transactions: a handler's
 * {@code JdbcTemplate} write commits with the ledger row, once, or rolls back with its attempt.
 */
class SpringTransactionBindingTest {
  private static final String SECRET = "binding-secret";
  private static final TestHookSigner SIGNER = new TestHookSigner(SECRET);
  private static final TestDatabase.Database DB = TestDatabase.create();

  static {
    DB.execute("create table credit (event_id text not null)");
  }

  private final ApplicationContextRunner runner = new ApplicationContextRunner()
      .withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class,
          DataSourceTransactionManagerAutoConfiguration.class, JdbcTemplateAutoConfiguration.class,
          HookledgerAutoConfiguration.class))
      .withPropertyValues("spring.datasource.url=" + DB.jdbcUrl(), "hookledger.workers=1", "hookledger.migrate=always",
          "hookledger.poll-interval=100ms", "hookledger.providers.testhook.secret=" + SECRET,
          "hookledger.retry.first-delay=50ms", "hookledger.retry.jitter=0");

  @Test
  void ledgerJoinsATransactionManagerOverALazyConnectionDataSourceProxy() {
    runner.withUserConfiguration(LazyTransactions.class).withBean(Credits.class).run(context -> {
      creditedOnceAfterFailures(context, "evt_lazy", 2, EventStatus.DONE);
      assertEquals(List.of(), context.getBean(Credits.class).apart, "the ledger and JdbcTemplate shared each transaction");
    });
  }

  @Test
  void ledgerJoinsATransactionAwareDataSourceProxyBean() {
    runner.withUserConfiguration(TransactionAwareBean.class).withBean(Credits.class).run(context -> {
      creditedOnceAfterFailures(context, "evt_aware", 2, EventStatus.DONE);
      assertEquals(List.of(), context.getBean(Credits.class).apart, "the ledger and JdbcTemplate shared each transaction");
    });
  }

  @Test
  void customizedRetryPolicyOnAnAutoCommitOffPoolCreditsOnce() {
    runner.withPropertyValues("spring.datasource.hikari.auto-commit=false")
        .withBean(WebhookRuntimeCustomizer.class, () -> b -> b.inbox(i -> i.retryPolicy(RetryPolicy.builder()
            .maxAttempts(4).firstDelay(Duration.ofMillis(50)).jitter(0).build())))
        .withBean(Credits.class).run(context -> {
          creditedOnceAfterFailures(context, "evt_customized", 3, EventStatus.DONE);
          assertEquals(4, attempts(context, "evt_customized"), "three failed attempts, then the one that committed");
          assertEquals(List.of(), context.getBean(Credits.class).apart);
        });
  }

  @Test
  void eventThatDiesUnderACustomizedPolicyCreditedNothingAndAnOperatorRetryCreditsOnce() {
    runner.withPropertyValues("spring.datasource.hikari.auto-commit=false", "hookledger.retry.max-attempts=3")
        .withBean(Credits.class).run(context -> {
          // the issue: three failed attempts credited three times while the event ended dead
          creditedOnceAfterFailures(context, "evt_dead", 100, EventStatus.DEAD);
          assertEquals(3, attempts(context, "evt_dead"));

          // an operator's retry on the same pool is committed, and the handler then credits once
          context.getBean(Credits.class).failuresLeft.set(0);
          WebhookRuntime runtime = context.getBean(WebhookRuntime.class);
          runtime.admin().retry("testhook", "", "evt_dead");
          Await.until("evt_dead is done", () -> runtime.admin().show("testhook", "", "evt_dead")
              .map(EventDetail::summary).filter(s -> s.status() == EventStatus.DONE).isPresent());
          assertEquals(1, LedgerRows.number(DB.dataSource(), "select count(*) from credit where event_id = 'evt_dead'"));
        });
  }

  @Test
  void transactionThatBoundNoConnectionOfTheLedgersDataSourceCommitsNothing() {
    Credits credits = new Credits(new JdbcTemplate(DB.dataSource()));
    try (WebhookRuntime runtime = SpringTransactions.wire(WebhookRuntime.builder(), DB.dataSource(),
            new BindsNothing(DB.dataSource()))
        .provider(new TestHookAdapter(), Secrets.of(SECRET)).handlers(credits)
        .mode(ProcessingMode.INLINE).inbox(i -> i.workers(0)).build()) {
      SchemaMigrator.migrate(LedgerDsl.on(DB.dataSource()), "hookledger"); // not through the broken manager
      runtime.start();
      RuntimeException e = assertThrows(RuntimeException.class,
          () -> runtime.receive("testhook", SIGNER.delivery("testhook", "evt_unbound", "invoice.paid", "{}")));
      assertTrue(causes(e).anyMatch(m -> m != null && m.contains("bound no connection of")), () -> causes(e).toList()
          .toString());
    }
    assertEquals(0, LedgerRows.number(DB.dataSource(), "select count(*) from credit where event_id = 'evt_unbound'"));
    assertEquals(Optional.empty(), LedgerRows.event(DB.dataSource(), "hookledger", "evt_unbound"));
  }

  private static Stream<String> causes(Throwable t) {
    return Stream.iterate(t, Objects::nonNull, Throwable::getCause).map(Throwable::getMessage);
  }

  /** A transaction manager that says it manages the DataSource, yet binds no connection of it. */
  static final class BindsNothing extends AbstractPlatformTransactionManager implements ResourceTransactionManager {
    private static final long serialVersionUID = 1L;
    private final transient DataSource dataSource;

    BindsNothing(DataSource dataSource) {
      this.dataSource = dataSource;
    }

    @Override
    public Object getResourceFactory() {
      return dataSource;
    }

    @Override
    protected Object doGetTransaction() {
      return new Object();
    }

    @Override
    protected void doBegin(Object transaction, TransactionDefinition definition) {}

    @Override
    protected void doCommit(DefaultTransactionStatus status) {}

    @Override
    protected void doRollback(DefaultTransactionStatus status) {}
  }

  private static void creditedOnceAfterFailures(ApplicationContext context, String id, int failures,
      EventStatus expected) {
    context.getBean(Credits.class).failuresLeft.set(failures);
    WebhookRuntime runtime = context.getBean(WebhookRuntime.class);
    runtime.receive("testhook", SIGNER.delivery("testhook", id, "invoice.paid", "{}"));
    Await.until(id + " is " + expected, () -> runtime.admin().show("testhook", "", id)
        .map(EventDetail::summary).filter(s -> s.status() == expected).isPresent());
    long credited = LedgerRows.number(DB.dataSource(), "select count(*) from credit where event_id = ?", id);
    assertEquals(expected == EventStatus.DONE ? 1 : 0, credited, "each failed attempt's write rolled back with it");
  }

  private static int attempts(ApplicationContext context, String id) {
    return context.getBean(WebhookRuntime.class).admin().show("testhook", "", id).orElseThrow().summary().attempts();
  }

  /** Credits the customer with a JdbcTemplate write, then fails while told to; notes any transaction apart. */
  static final class Credits {
    final JdbcTemplate jdbc;
    final AtomicInteger failuresLeft = new AtomicInteger();
    final List<String> apart = new CopyOnWriteArrayList<>();

    Credits(JdbcTemplate jdbc) {
      this.jdbc = jdbc;
    }

    @OnEvent("invoice.paid")
    void paid(WebhookEvent event, DSLContext tx) {
      Long ledger = tx.fetchSingle("select txid_current()").get(0, Long.class);
      Long handler = jdbc.queryForObject("select txid_current()", Long.class);
      if (!ledger.equals(handler)) {
        apart.add(event.eventId() + ": ledger txid " + ledger + ", JdbcTemplate txid " + handler);
      }
      jdbc.update("insert into credit (event_id) values (?)", event.eventId());
      if (failuresLeft.getAndDecrement() > 0) {
        throw new IllegalStateException("downstream is down");
      }
    }
  }

  /** A transaction manager over a LazyConnectionDataSourceProxy of the pool, and a JdbcTemplate on it. */
  @Configuration(proxyBeanMethods = false)
  static class LazyTransactions {
    @Bean
    DataSourceTransactionManager transactionManager(DataSource dataSource) {
      return new DataSourceTransactionManager(new LazyConnectionDataSourceProxy(dataSource));
    }

    @Bean
    JdbcTemplate jdbcTemplate(DataSourceTransactionManager transactionManager) {
      return new JdbcTemplate(transactionManager.getDataSource());
    }
  }

  /** The application's DataSource bean is a TransactionAwareDataSourceProxy of the pool. */
  @Configuration(proxyBeanMethods = false)
  static class TransactionAwareBean {
    @Bean
    DataSource dataSource() {
      return new TransactionAwareDataSourceProxy(DB.dataSource());
    }

    @Bean
    PlatformTransactionManager transactionManager(DataSource dataSource) {
      return new DataSourceTransactionManager(dataSource);
    }
  }
}
