package dev.hookledger.runtime.spring.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hookledger.EffectDelivery;
import dev.hookledger.EffectHandler;
import dev.hookledger.OnEvent;
import dev.hookledger.Outbox;
import dev.hookledger.WebhookEvent;
import dev.hookledger.runtime.EventStatus;
import dev.hookledger.runtime.WebhookRuntime;
import dev.hookledger.runtime.testing.Await;
import dev.hookledger.runtime.testing.TestDatabase;
import dev.hookledger.runtime.testing.TestHookSigner;
import dev.hookledger.runtime.testkit.SignedDeliveries;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.core.NestedExceptionUtils;

/**
 * How the starter finds the {@code EffectHandler} beans: after the context has created its singletons,
 * in its own order, each under its bean name as its destination, and with a clear refusal of one whose
 * effect class cannot be read. Each starter's test extends it, on that Boot generation.
 */
public abstract class EffectHandlerDiscoveryContract {
  private static final String SECRET = "effect-discovery-secret";
  private static final TestDatabase.Database DB = TestDatabase.create();

  @Test
  void effectHandlerBeansAreCreatedInTheContextsOrderAndDeliverUnderTheirBeanName() {
    try (ConfigurableApplicationContext context = start(EffectApp.class)) {
      OrderedMailer mailer = context.getBean(OrderedMailer.class);
      assertTrue(mailer.earlierBeanExisted,
          "the EffectHandler bean was created before a bean declared ahead of it: hookledger created it early");
      WebhookRuntime runtime = context.getBean(WebhookRuntime.class);
      assertEquals(EventStatus.DONE, SignedDeliveries.to(runtime).deliverAndSettle("testhook",
          new TestHookSigner(SECRET).delivery("testhook", "mail-1", "mail.due", "{}")).status());
      Await.until("the mail delivered", () -> "orderedMailer mail-1".equals(mailer.delivered));
    }
  }

  @Test
  void effectHandlerBeanWithoutItsEffectClassFailsTheStartNamingTheBeanAndTheFix() {
    RuntimeException failure = assertThrows(RuntimeException.class, () -> start(RawApp.class).close());

    assertEquals("hookledger: EffectHandler bean 'raw' (" + RawEffectHandler.class.getName() + ") does not say which"
        + " effect class it delivers: declare it as EffectHandler<YourEffect> (the @Bean method's return type, or the"
        + " class's implements clause)", NestedExceptionUtils.getMostSpecificCause(failure).getMessage());
  }

  private static ConfigurableApplicationContext start(Class<?> app) {
    return new SpringApplicationBuilder(app).web(WebApplicationType.NONE)
        .properties("spring.datasource.url=" + DB.jdbcUrl(), "spring.datasource.username=postgres",
            "hookledger.providers.testhook.secret=" + SECRET, "hookledger.migrate=always", "hookledger.workers=1")
        .run();
  }

  @SpringBootConfiguration
  @EnableAutoConfiguration
  @Import({Earlier.class, MailerConfiguration.class, MailSender.class})
  static class EffectApp {}

  @SpringBootConfiguration
  @EnableAutoConfiguration
  @Import(RawEffectHandlerConfiguration.class)
  static class RawApp {}

  /** A plain bean declared ahead of the mailer: the context creates it first. */
  static class Earlier {}

  /** The mailer as a component scan would name it: its bean name is its destination. */
  @Configuration(proxyBeanMethods = false)
  static class MailerConfiguration {
    @Bean
    OrderedMailer orderedMailer(ConfigurableListableBeanFactory beans) {
      return new OrderedMailer(beans);
    }
  }

  /** A typed effect. */
  public record Mail(String event) {}

  /** Records whether {@link Earlier} existed when the context created it, and what it delivered. */
  static class OrderedMailer implements EffectHandler<Mail> {
    final boolean earlierBeanExisted;
    volatile String delivered;

    OrderedMailer(ConfigurableListableBeanFactory beans) {
      earlierBeanExisted = beans.containsSingleton(Earlier.class.getName());
    }

    @Override
    public void deliver(Mail mail, EffectDelivery delivery) {
      delivered = delivery.destination() + " " + mail.event();
    }
  }

  /** Sends a {@link Mail} for each event. */
  static class MailSender {
    @OnEvent("mail.due")
    public void due(WebhookEvent event, Outbox outbox) {
      outbox.send("mail", new Mail(event.eventId()));
    }
  }

  /** An EffectHandler whose class and bean method both leave its effect class out. */
  @SuppressWarnings("rawtypes")
  static class RawEffectHandler implements EffectHandler {
    @Override
    public void deliver(Object effect, EffectDelivery delivery) {}
  }

  @Configuration(proxyBeanMethods = false)
  static class RawEffectHandlerConfiguration {
    @Bean
    @SuppressWarnings("rawtypes")
    EffectHandler raw() {
      return new RawEffectHandler();
    }
  }
}
