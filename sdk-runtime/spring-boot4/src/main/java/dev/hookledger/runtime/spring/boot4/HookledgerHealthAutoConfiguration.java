package dev.hookledger.runtime.spring.boot4;

import dev.hookledger.runtime.WebhookRuntime;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;

/**
 * The actuator's {@code hookledger} health indicator, from {@link WebhookRuntime#health()}, when the
 * health module (spring-boot-health, which the actuator brings) is on the class path;
 * {@code management.health.hookledger.enabled=false} turns it off.
 */
@AutoConfiguration(after = HookledgerAutoConfiguration.class)
@ConditionalOnClass({HealthIndicator.class, ConditionalOnEnabledHealthIndicator.class})
@ConditionalOnBean(WebhookRuntime.class)
@ConditionalOnEnabledHealthIndicator("hookledger")
public class HookledgerHealthAutoConfiguration {
  /** Used by Spring. */
  public HookledgerHealthAutoConfiguration() {}

  @Bean
  @ConditionalOnMissingBean(name = "hookledgerHealthIndicator")
  HealthIndicator hookledgerHealthIndicator(ObjectProvider<WebhookRuntime> runtime) {
    return new RuntimeHealthIndicator(runtime::getObject);
  }
}
