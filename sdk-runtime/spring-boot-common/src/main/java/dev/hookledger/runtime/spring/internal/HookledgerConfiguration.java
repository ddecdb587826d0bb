package dev.hookledger.runtime.spring.internal;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hookledger.runtime.WebhookListener;
import dev.hookledger.runtime.WebhookRuntime;
import dev.hookledger.runtime.admin.AdminAuthorizer;
import dev.hookledger.runtime.internal.servlet.WebhookPath;
import dev.hookledger.runtime.spring.HookledgerProperties;
import dev.hookledger.runtime.spring.WebhookRuntimeCustomizer;
import dev.hookledger.spi.ProviderAdapter;
import jakarta.servlet.Filter;
import jakarta.servlet.http.HttpServlet;
import java.util.List;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.jdbc.EmbeddedDatabaseConnection;
import org.springframework.boot.sql.init.DatabaseInitializationMode;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.boot.web.servlet.ServletRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.ImportRuntimeHints;
import org.springframework.context.annotation.Lazy;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.PlatformTransactionManager;

/**
 * What the Boot 4 and Boot 3.5 auto-configurations share, imported by each after its generation's
 * {@code DataSource} and transaction auto-configurations: the {@link WebhookRuntime} on the
 * application's {@code DataSource} and transaction manager, its lifecycle, and the servlet side.
 * Internal: applications add a starter, never import this.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(HookledgerProperties.class)
@ImportRuntimeHints(HookledgerRuntimeHints.class)
public class HookledgerConfiguration {
  private static final Logger log = LoggerFactory.getLogger(HookledgerConfiguration.class);

  /** Used by Spring. */
  public HookledgerConfiguration() {}

  /**
   * The runtime, built from every {@code @OnEvent} and {@code EffectHandler} singleton: lazily, when {@link RuntimeLifecycle}
   * starts it (after every singleton is created) or when a bean of the application asks for it, so that
   * no handler bean is created early by hookledger.
   */
  @Bean
  @Lazy
  @ConditionalOnMissingBean
  WebhookRuntime webhookRuntime(HookledgerProperties properties, ObjectProvider<DataSource> dataSource,
      ObjectProvider<PlatformTransactionManager> transactionManager, ObjectProvider<ProviderAdapter> adapters,
      ObjectProvider<WebhookListener> listeners, ObjectProvider<ObjectMapper> objectMapper,
      ObjectProvider<WebhookRuntimeCustomizer> customizers, ListableBeanFactory beans) {
    DataSource ds = dataSource.getIfUnique();
    if (ds == null) {
      throw new MissingDataSourceException(dataSource.stream().findAny().isPresent());
    }
    PlatformTransactionManager tm = transactionManager.getIfUnique();
    if (tm == null) {
      log.info("hookledger: no single PlatformTransactionManager bean; handler transactions use a"
          + " DataSourceTransactionManager on the application's DataSource");
      tm = new DataSourceTransactionManager(ds);
    }
    List<Object> handlers = HandlerBeans.in(beans);
    return SpringRuntime.build(properties, ds, tm, adapters.orderedStream().toList(),
        listeners.orderedStream().toList(), objectMapper.getIfUnique(), handlers, EffectHandlerBeans.in(beans),
        customizers.orderedStream().toList());
  }

  @Bean
  RuntimeLifecycle hookledgerLifecycle(ObjectProvider<WebhookRuntime> runtime, HookledgerProperties properties,
      ObjectProvider<DataSource> dataSource) {
    return new RuntimeLifecycle(runtime::getObject, migrates(properties.getMigrate(), dataSource.getIfUnique()));
  }

  /**
   * Whether to apply the ledger's DDL at start-up, as Boot's own schema initializers decide: always,
   * never, or (the default) only on an embedded database (H2, HSQLDB, Derby; a real PostgreSQL is not).
   */
  static boolean migrates(DatabaseInitializationMode mode, DataSource dataSource) {
    return switch (mode) {
      case ALWAYS -> true;
      case NEVER -> false;
      case EMBEDDED -> dataSource != null && EmbeddedDatabaseConnection.isEmbedded(dataSource);
    };
  }

  /**
   * The context's {@code ObservationRegistry}, when Micrometer's observation API is on the class path and
   * the context has one registry: receive, process and each handler are observed in it (and so traced,
   * with a tracing bridge). First among the customizers, so that one of the application's can replace it.
   */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(name = "io.micrometer.observation.ObservationRegistry")
  static class ObservationConfiguration {
    @Bean
    WebhookRuntimeCustomizer hookledgerObservations(ObjectProvider<io.micrometer.observation.ObservationRegistry> registry) {
      return new ObservationCustomizer(registry);
    }
  }

  private record ObservationCustomizer(ObjectProvider<io.micrometer.observation.ObservationRegistry> registry)
      implements WebhookRuntimeCustomizer, org.springframework.core.Ordered {
    @Override
    public void customize(dev.hookledger.runtime.WebhookRuntimeBuilder builder) {
      registry.ifUnique(builder::observationRegistry);
    }

    @Override
    public int getOrder() {
      return org.springframework.core.Ordered.HIGHEST_PRECEDENCE;
    }
  }

  /** The servlet side: the filter, and the admin servlet if asked for. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
  static class ServletConfiguration {
    @Bean
    FilterRegistrationBean<Filter> hookledgerFilter(ObjectProvider<WebhookRuntime> runtime,
        HookledgerProperties properties) {
      String prefix = properties.getPathPrefix() == null ? "" : properties.getPathPrefix();
      SpringRuntime.checked("hookledger.path-prefix", prefix, () -> WebhookPath.of(prefix));
      // Boot asks for this registration while it creates the web server, before the singletons: the
      // runtime (built from the handler beans) is asked for at the first request
      FilterRegistrationBean<Filter> registration =
          new FilterRegistrationBean<>(new DeferredWebhookFilter(runtime::getObject, prefix));
      registration.setName("hookledger");
      // the filter sees only its own path: every other request never meets it
      registration.addUrlPatterns((prefix.endsWith("/") ? prefix : prefix + "/") + "*");
      registration.setOrder(properties.getFilterOrder());
      return registration;
    }

    @Bean
    @ConditionalOnProperty(prefix = "hookledger.admin", name = "path")
    ServletRegistrationBean<HttpServlet> hookledgerAdminServlet(ObjectProvider<WebhookRuntime> runtime,
        HookledgerProperties properties) {
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
      ServletRegistrationBean<HttpServlet> registration =
          new ServletRegistrationBean<>(new DeferredAdminServlet(runtime::getObject, authorizer), base + "/*");
      registration.setName("hookledgerAdmin");
      return registration;
    }
  }
}
