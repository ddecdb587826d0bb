package dev.hookledger.runtime.spring.boot4;

import dev.hookledger.runtime.WebhookFilter;
import dev.hookledger.runtime.WebhookListener;
import dev.hookledger.runtime.WebhookRuntime;
import dev.hookledger.runtime.spring.HookledgerProperties;
import dev.hookledger.runtime.spring.SpringTransactions;
import dev.hookledger.runtime.spring.WebhookRuntimeCustomizer;
import dev.hookledger.runtime.spring.internal.HookledgerConfiguration;
import dev.hookledger.spi.ProviderAdapter;
import javax.sql.DataSource;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Import;
import org.springframework.jdbc.datasource.TransactionAwareDataSourceProxy;
import org.springframework.transaction.PlatformTransactionManager;

/**
 * Spring Boot 4 auto-configuration of hookledger: a {@link WebhookRuntime} on the application's
 * {@code DataSource}, whose handler transactions are transactions of the application's
 * {@link PlatformTransactionManager}; the {@code @OnEvent} methods of the application's beans; the
 * providers of {@code hookledger.providers.*} and {@link ProviderAdapter} beans; every
 * {@link WebhookListener} bean; the {@link WebhookFilter} ahead of Spring Security for the webhook
 * path only; the admin servlet when {@code hookledger.admin.path} and {@code hookledger.admin.token}
 * are set; and a lifecycle that applies the ledger's schema ({@code hookledger.migrate}: by default only
 * on an embedded database) and starts the runtime before the web server, and closes it after.
 *
 * <p>{@link WebhookRuntimeCustomizer} beans reach every builder option. An application that declares
 * its own {@link WebhookRuntime} bean keeps it (the filter, the lifecycle and the health indicator
 * then serve that one) if it is built with {@link SpringTransactions#wire}; else the start fails. See
 * {@link HookledgerProperties} for the properties, and docs/spring-boot.md for how the transactions are shared.
 */
@AutoConfiguration(afterName = {
    "org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration",
    "org.springframework.boot.jdbc.autoconfigure.DataSourceTransactionManagerAutoConfiguration",
    "org.springframework.boot.hibernate.autoconfigure.HibernateJpaAutoConfiguration",
    "org.springframework.boot.transaction.autoconfigure.TransactionAutoConfiguration",
    "org.springframework.boot.jackson2.autoconfigure.Jackson2AutoConfiguration"})
@ConditionalOnClass({DataSource.class, PlatformTransactionManager.class, TransactionAwareDataSourceProxy.class})
@ConditionalOnProperty(prefix = "hookledger", name = "enabled", havingValue = "true", matchIfMissing = true)
@Import(HookledgerConfiguration.class)
public class HookledgerAutoConfiguration {
  /** Used by Spring. */
  public HookledgerAutoConfiguration() {}
}
