package dev.hookledger.runtime.spring.boot4;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hookledger.OnEvent;
import dev.hookledger.runtime.EventStatus;
import dev.hookledger.runtime.WebhookRuntime;
import dev.hookledger.runtime.testing.TestDatabase;
import dev.hookledger.runtime.testing.TestHookSigner;
import dev.hookledger.runtime.testkit.SignedDeliveries;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.springframework.aop.framework.ProxyFactory;
import org.springframework.aop.support.AopUtils;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceTransactionManagerAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

/**
 * How the starter finds the {@code @OnEvent} beans: after the context has created its singletons, in
 * its own order (never while the web server registers the filter), through proxies, and with a clear
 * refusal of a handler that needs the runtime built from it.
 */
class HandlerDiscoveryTest {
  private static final String SECRET = "discovery-secret";
  private static final TestDatabase.Database DB = TestDatabase.create();

  private final ApplicationContextRunner runner = new ApplicationContextRunner()
      .withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class,
          DataSourceTransactionManagerAutoConfiguration.class, HookledgerAutoConfiguration.class))
      .withPropertyValues("spring.datasource.url=" + DB.jdbcUrl(), "hookledger.workers=1", "hookledger.migrate=always",
          "hookledger.providers.testhook.secret=" + SECRET);

  @Test
  void handlerBeansAreCreatedInTheContextsOrderNotWhenTheWebServerRegistersTheFilter() {
    try (ConfigurableApplicationContext context = new SpringApplicationBuilder(WebApp.class)
        .properties("server.port=0", "spring.datasource.url=" + DB.jdbcUrl(), "spring.datasource.username=postgres",
            "hookledger.providers.testhook.secret=" + SECRET, "hookledger.migrate=always", "hookledger.workers=1")
        .run()) {
      assertTrue(context.getBean(OrderedHandler.class).earlierBeanExisted,
          "the handler bean was created before a bean declared ahead of it: hookledger created it early");
      WebhookRuntime runtime = context.getBean(WebhookRuntime.class);
      assertEquals(EventStatus.DONE, SignedDeliveries.to(runtime).deliverAndSettle("testhook",
          new TestHookSigner(SECRET).delivery("testhook", "ordered-1", "ordered.happened", "{}")).status());
    }
  }

  @Test
  void handlerBehindAJdkDynamicProxyReceivesItsEvents() {
    runner.withUserConfiguration(JdkProxiedHandlerConfiguration.class).run(context -> {
      assertThat(context).hasNotFailed();
      assertTrue(AopUtils.isJdkDynamicProxy(context.getBean("shipping")));
      WebhookRuntime runtime = context.getBean(WebhookRuntime.class);
      assertEquals(EventStatus.DONE, SignedDeliveries.to(runtime).deliverAndSettle("testhook",
          new TestHookSigner(SECRET).delivery("testhook", "jdk-1", "jdk.shipped", "{}")).status());
    });
  }

  @Test
  void handlerThatNeedsTheRuntimeFailsTheStartNamingTheBeanAndTheFix() {
    runner.withUserConfiguration(RuntimeHungryHandlerConfiguration.class).run(context ->
        assertThat(context).getFailure().rootCause().hasMessage("hookledger: bean 'hungry' ("
            + RuntimeHungryHandler.class.getName() + ") declares @OnEvent methods and needs the WebhookRuntime bean,"
            + " which is built from the @OnEvent beans: inject ObjectProvider<WebhookRuntime> instead, and ask it for"
            + " the runtime when it is used"));
  }

  @SpringBootConfiguration
  @EnableAutoConfiguration
  @Import({Earlier.class, OrderedHandler.class})
  static class WebApp {}

  /** A plain bean declared ahead of the handler: the context creates it first. */
  static class Earlier {}

  /** Records whether {@link Earlier} existed when the context created it. */
  static class OrderedHandler {
    final boolean earlierBeanExisted;

    OrderedHandler(ConfigurableListableBeanFactory beans) {
      earlierBeanExisted = beans.containsSingleton(Earlier.class.getName());
    }

    @OnEvent("ordered.happened")
    public void happened(JsonNode event) {}
  }

  /** A handler that implements an interface, proxied by interface (a JDK dynamic proxy) as Spring AOP does by default for such beans. */
  public static class Shipping implements Supplier<String> {
    @Override
    public String get() {
      return "shipping";
    }

    @OnEvent("jdk.shipped")
    public void shipped(JsonNode event) {}
  }

  @Configuration(proxyBeanMethods = false)
  static class JdkProxiedHandlerConfiguration {
    @Bean
    @SuppressWarnings("unchecked")
    Supplier<String> shipping() {
      return (Supplier<String>) new ProxyFactory(new Shipping()).getProxy();
    }
  }

  static class RuntimeHungryHandler {
    RuntimeHungryHandler(WebhookRuntime runtime) {}

    @OnEvent("hungry.fed")
    public void fed(JsonNode event) {}
  }

  @Configuration(proxyBeanMethods = false)
  static class RuntimeHungryHandlerConfiguration {
    @Bean
    RuntimeHungryHandler hungry(WebhookRuntime runtime) {
      return new RuntimeHungryHandler(runtime);
    }
  }
}
