package dev.hookledger.runtime.spring.boot4;

import dev.hookledger.runtime.micrometer.InboxBacklogMetrics;
import dev.hookledger.runtime.micrometer.MicrometerWebhookListener;
import dev.hookledger.runtime.spring.internal.MetricsConfiguration;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Import;

/**
 * hookledger's meters in the application's {@link MeterRegistry}, when there is one (Spring Boot 4): a
 * {@link MicrometerWebhookListener} (counters and timers of what the runtime does, tagged by
 * provider) and the ledger's backlog gauges ({@link InboxBacklogMetrics}). See those classes for the meters.
 */
@AutoConfiguration(afterName = {
    "org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration",
    "org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration",
    "org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration"},
    after = HookledgerAutoConfiguration.class)
@ConditionalOnClass(MeterRegistry.class)
@ConditionalOnBean(MeterRegistry.class)
@ConditionalOnProperty(prefix = "hookledger", name = "enabled", havingValue = "true", matchIfMissing = true)
@Import(MetricsConfiguration.class)
public class HookledgerMetricsAutoConfiguration {
  /** Used by Spring. */
  public HookledgerMetricsAutoConfiguration() {}
}
