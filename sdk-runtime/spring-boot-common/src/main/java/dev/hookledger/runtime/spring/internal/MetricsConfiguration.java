package dev.hookledger.runtime.spring.internal;

import dev.hookledger.runtime.WebhookRuntime;
import dev.hookledger.runtime.micrometer.InboxBacklogMetrics;
import dev.hookledger.runtime.micrometer.MicrometerWebhookListener;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * hookledger's meters in the application's {@link MeterRegistry}, shared by the Boot 3.5 and Boot 4
 * metrics auto-configurations (which differ only in whose registry auto-configuration they follow): a
 * {@link MicrometerWebhookListener}, which the runtime picks up as a listener bean, and the ledger's
 * backlog gauges ({@link InboxBacklogMetrics}). Internal: imported by the starters only.
 */
@Configuration(proxyBeanMethods = false)
public class MetricsConfiguration {
  /** Used by Spring. */
  public MetricsConfiguration() {}

  @Bean
  @ConditionalOnMissingBean(MicrometerWebhookListener.class)
  MicrometerWebhookListener hookledgerMetricsListener(MeterRegistry registry) {
    return MicrometerWebhookListener.of(registry);
  }

  @Bean
  @ConditionalOnBean(WebhookRuntime.class)
  @ConditionalOnMissingBean(value = InboxBacklogMetrics.class, name = "hookledgerBacklogMetrics")
  MeterBinder hookledgerBacklogMetrics(ObjectProvider<WebhookRuntime> runtime) {
    return new DeferredBacklogMetrics(runtime::getObject);
  }
}
