package dev.hookledger.runtime.spring;

import dev.hookledger.runtime.WebhookRuntime;
import dev.hookledger.runtime.micrometer.InboxBacklogMetrics;
import dev.hookledger.runtime.micrometer.MicrometerWebhookListener;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;

/**
 * hookledger's meters in the application's {@link MeterRegistry}, when there is one: a
 * {@link MicrometerWebhookListener} (counters and timers of what the runtime does, tagged by
 * provider), which the runtime picks up as a listener bean, and the ledger's backlog gauges
 * ({@link InboxBacklogMetrics}). See those classes for the meters.
 */
@AutoConfiguration(afterName = {
    "org.springframework.boot.actuate.autoconfigure.metrics.MetricsAutoConfiguration",
    "org.springframework.boot.actuate.autoconfigure.metrics.CompositeMeterRegistryAutoConfiguration",
    "org.springframework.boot.actuate.autoconfigure.metrics.export.simple.SimpleMetricsExportAutoConfiguration"},
    after = HookledgerAutoConfiguration.class)
@ConditionalOnClass(MeterRegistry.class)
@ConditionalOnBean(MeterRegistry.class)
@ConditionalOnProperty(prefix = "hookledger", name = "enabled", havingValue = "true", matchIfMissing = true)
public class HookledgerMetricsAutoConfiguration {
  /** Used by Spring. */
  public HookledgerMetricsAutoConfiguration() {}

  @Bean
  @ConditionalOnMissingBean(MicrometerWebhookListener.class)
  MicrometerWebhookListener hookledgerMetricsListener(MeterRegistry registry) {
    return MicrometerWebhookListener.of(registry);
  }

  @Bean
  @ConditionalOnBean(WebhookRuntime.class)
  @ConditionalOnMissingBean(InboxBacklogMetrics.class)
  InboxBacklogMetrics hookledgerBacklogMetrics(WebhookRuntime runtime) {
    return new InboxBacklogMetrics(runtime.admin());
  }
}
