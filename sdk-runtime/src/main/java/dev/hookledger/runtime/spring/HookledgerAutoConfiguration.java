package dev.hookledger.runtime.spring;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hookledger.runtime.WebhookFilter;
import dev.hookledger.runtime.WebhookListener;
import dev.hookledger.runtime.WebhookRuntime;
import dev.hookledger.runtime.admin.AdminAuthorizer;
import dev.hookledger.runtime.admin.AdminServlet;
import dev.hookledger.runtime.internal.RuntimeTransactions;
import dev.hookledger.spi.ProviderAdapter;
import java.util.List;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.boot.web.servlet.ServletRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.datasource.TransactionAwareDataSourceProxy;
import org.springframework.transaction.PlatformTransactionManager;

/**
 * Spring Boot auto-configuration of hookledger: a {@link WebhookRuntime} on the application's
 * {@code DataSource}, whose handler transactions are transactions of the application's
 * {@link PlatformTransactionManager}; the {@code @OnEvent} methods of the application's beans; the
 * providers of {@code hookledger.providers.*} and {@link ProviderAdapter} beans; every
 * {@link WebhookListener} bean; the {@link WebhookFilter} ahead of Spring Security for the webhook
 * path only; the admin servlet when {@code hookledger.admin.path} and {@code hookledger.admin.token}
 * are set; and a lifecycle that starts the runtime before the web server and closes it after.
 *
 * <p>{@link WebhookRuntimeCustomizer} beans reach every builder option. An application that declares
 * its own {@link WebhookRuntime} bean keeps it (the filter, the lifecycle and the health indicator
 * then serve that one) if it is built with {@link SpringTransactions#wire}; else the start fails. See {@link HookledgerProperties} for the
 * properties, and sdk-runtime's README for how the transactions are shared.
 */
@AutoConfiguration(afterName = {
    "org.springframework.boot.autoconfigure.jdbc.DataSourceAutoConfiguration",
    "org.springframework.boot.autoconfigure.jdbc.DataSourceTransactionManagerAutoConfiguration",
    "org.springframework.boot.autoconfigure.orm.jpa.HibernateJpaAutoConfiguration",
    "org.springframework.boot.autoconfigure.transaction.TransactionAutoConfiguration",
    "org.springframework.boot.autoconfigure.jackson.JacksonAutoConfiguration"})
@ConditionalOnClass({DataSource.class, PlatformTransactionManager.class, TransactionAwareDataSourceProxy.class})
@ConditionalOnProperty(prefix = "hookledger", name = "enabled", havingValue = "true", matchIfMissing = true)
@EnableConfigurationProperties(HookledgerProperties.class)
public class HookledgerAutoConfiguration {
  /**
   * The default order of the webhook filter: after Boot's character-encoding and observation
   * filters, before every filter that may read a request body and well before Spring Security's
   * filter chain ({@code -100}), so that a delivery is answered by its signature alone, never
   * refused for a missing CSRF token or login.
   */
  public static final int FILTER_ORDER = Ordered.HIGHEST_PRECEDENCE + 50;

  private static final Logger log = LoggerFactory.getLogger(HookledgerAutoConfiguration.class);

  /** Used by Spring. */
  public HookledgerAutoConfiguration() {}

  @Bean
  @ConditionalOnMissingBean
  WebhookRuntime webhookRuntime(HookledgerProperties properties, ObjectProvider<DataSource> dataSource,
      ObjectProvider<PlatformTransactionManager> transactionManager, ObjectProvider<ProviderAdapter> adapters,
      ObjectProvider<WebhookListener> listeners, ObjectProvider<ObjectMapper> objectMapper,
      ObjectProvider<WebhookRuntimeCustomizer> customizers, ListableBeanFactory beans) {
    DataSource ds = dataSource.getIfUnique();
    if (ds == null) {
      throw new IllegalStateException("hookledger needs the application's DataSource, and there is "
          + (dataSource.stream().findAny().isPresent() ? "more than one and none is @Primary" : "none")
          + ": set spring.datasource.url to the PostgreSQL database of the ledger");
    }
    PlatformTransactionManager tm = transactionManager.getIfUnique();
    if (tm == null) {
      log.info("hookledger: no single PlatformTransactionManager bean; handler transactions use a"
          + " DataSourceTransactionManager on the application's DataSource");
      tm = new DataSourceTransactionManager(ds);
    }
    List<Object> handlers = HandlerBeans.in(beans);
    return SpringRuntime.build(properties, ds, tm, adapters.orderedStream().toList(),
        listeners.orderedStream().toList(), objectMapper.getIfUnique(), handlers, customizers.orderedStream().toList());
  }

  @Bean
  RuntimeLifecycle hookledgerLifecycle(WebhookRuntime runtime, HookledgerProperties properties) {
    // a WebhookRuntime bean of the application's own: its transactions must be Spring's, or a handler's
    // JdbcTemplate, JPA and @Transactional writes commit apart from the ledger row (credited, then dead)
    if (!(RuntimeTransactions.of(runtime) instanceof SpringTransactionProvider)) {
      throw new IllegalStateException("hookledger: the application's WebhookRuntime bean runs its handlers outside"
          + " Spring's transactions, so their JdbcTemplate, JPA and @Transactional writes would commit apart from the"
          + " ledger row: build it with SpringTransactions.wire(WebhookRuntime.builder(), dataSource,"
          + " transactionManager), or remove it and customize the auto-configured one with hookledger.* properties"
          + " or a WebhookRuntimeCustomizer bean");
    }
    return new RuntimeLifecycle(runtime, properties.isMigrate());
  }

  /** The servlet side: the filter, and the admin servlet if asked for. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
  static class ServletConfiguration {
    @Bean
    FilterRegistrationBean<WebhookFilter> hookledgerFilter(WebhookRuntime runtime, HookledgerProperties properties) {
      String prefix = properties.getPathPrefix() == null ? "" : properties.getPathPrefix();
      WebhookFilter filter = SpringRuntime.checked("hookledger.path-prefix", prefix, () -> new WebhookFilter(runtime, prefix));
      FilterRegistrationBean<WebhookFilter> registration = new FilterRegistrationBean<>(filter);
      registration.setName("hookledger");
      // the filter sees only its own path: every other request never meets it
      registration.addUrlPatterns((prefix.endsWith("/") ? prefix : prefix + "/") + "*");
      registration.setOrder(properties.getFilterOrder());
      return registration;
    }

    @Bean
    @ConditionalOnProperty(prefix = "hookledger.admin", name = "path")
    ServletRegistrationBean<AdminServlet> hookledgerAdminServlet(WebhookRuntime runtime, HookledgerProperties properties) {
      HookledgerProperties.Admin admin = properties.getAdmin();
      String path = admin.getPath().strip();
      if (!path.startsWith("/") || path.contains("*")) {
        throw new IllegalStateException("hookledger.admin.path must start with '/' and hold no '*', but was '" + path + "'");
      }
      if (admin.getToken() == null || admin.getToken().isBlank()) {
        throw new IllegalStateException("hookledger.admin.token is not set: the admin servlet at " + path
            + " needs a token of at least 16 characters (or leave hookledger.admin.path unset)");
      }
      AdminAuthorizer authorizer;
      try {
        authorizer = AdminAuthorizer.bearerToken(admin.getToken());
      } catch (IllegalArgumentException e) {
        throw new IllegalStateException("hookledger.admin.token: " + e.getMessage()); // never the token itself
      }
      String base = path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
      ServletRegistrationBean<AdminServlet> registration =
          new ServletRegistrationBean<>(new AdminServlet(runtime, authorizer), base + "/*");
      registration.setName("hookledgerAdmin");
      return registration;
    }
  }
}
