package dev.hookledger.runtime.spring;

import static java.util.Objects.requireNonNull;

import dev.hookledger.runtime.WebhookRuntime;
import dev.hookledger.runtime.WebhookRuntimeBuilder;
import dev.hookledger.runtime.internal.settings.RuntimeInternals;
import javax.sql.DataSource;
import org.springframework.jdbc.datasource.TransactionAwareDataSourceProxy;
import org.springframework.transaction.PlatformTransactionManager;

/**
 * Wires Spring's transactions into a {@link WebhookRuntimeBuilder} of the application's own, for an
 * application that declares its own {@code WebhookRuntime} bean: the runtime's transactions (the
 * handlers' among them) are then transactions of {@code transactionManager}, and every ledger
 * statement runs on exactly the connection it bound, whatever wrappers
 * ({@code LazyConnectionDataSourceProxy}, {@code TransactionAwareDataSourceProxy}) sit between it and
 * the pool. A {@code WebhookRuntime} bean built without it fails the start.
 *
 * <pre>{@code
 * @Bean
 * WebhookRuntime webhookRuntime(DataSource dataSource, PlatformTransactionManager transactions, Billing billing) {
 *   return SpringTransactions.wire(WebhookRuntime.builder(), dataSource, transactions)
 *       .provider("stripe", Secrets.fromEnvironment("STRIPE_WEBHOOK_SECRET"))
 *       .handlers(billing)
 *       .build();
 * }
 * }</pre>
 *
 * <p>Prefer the auto-configured runtime with a {@link WebhookRuntimeCustomizer} bean where it does.
 */
public final class SpringTransactions {
  private SpringTransactions() {}

  /**
   * Sets {@code builder}'s data source to {@code dataSource} and its transactions to
   * {@code transactionManager}'s, checking each transaction binds a connection of the
   * {@code DataSource} the ledger uses (else the attempt fails; nothing commits apart).
   *
   * @return {@code builder}
   * @throws IllegalStateException if {@code transactionManager} manages another {@code DataSource}
   *     than {@code dataSource}
   */
  public static WebhookRuntimeBuilder wire(WebhookRuntimeBuilder builder, DataSource dataSource,
      PlatformTransactionManager transactionManager) {
    requireNonNull(builder, "builder");
    requireNonNull(dataSource, "dataSource");
    requireNonNull(transactionManager, "transactionManager");
    BoundDataSource bound = BoundDataSource.of(transactionManager, dataSource);
    return builder.dataSource(dataSource).transactions(new SpringTransactionProvider(transactionManager, bound),
        new TransactionAwareDataSourceProxy(bound.dataSource()));
  }

  /**
   * Whether {@code runtime}'s transactions are a transaction manager's, as {@link #wire} sets them: the
   * starters refuse an application's own {@code WebhookRuntime} bean otherwise, since its handlers'
   * {@code JdbcTemplate}, JPA and {@code @Transactional} writes would commit apart from the ledger row.
   */
  public static boolean isWired(WebhookRuntime runtime) {
    return RuntimeInternals.transactions(requireNonNull(runtime, "runtime")) instanceof SpringTransactionProvider;
  }
}
