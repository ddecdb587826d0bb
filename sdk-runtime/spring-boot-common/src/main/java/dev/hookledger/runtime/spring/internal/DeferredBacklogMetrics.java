package dev.hookledger.runtime.spring.internal;

import dev.hookledger.runtime.WebhookRuntime;
import dev.hookledger.runtime.micrometer.InboxBacklogMetrics;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.function.Supplier;

/**
 * The ledger's backlog gauges ({@link InboxBacklogMetrics}) as a {@link MeterBinder} bean that asks for
 * the {@link WebhookRuntime} only when Boot binds it to a registry, so that creating the bean creates
 * no runtime (and no handler bean) early.
 */
final class DeferredBacklogMetrics implements MeterBinder {
  private final Supplier<WebhookRuntime> runtime;

  DeferredBacklogMetrics(Supplier<WebhookRuntime> runtime) {
    this.runtime = runtime;
  }

  @Override
  public void bindTo(MeterRegistry registry) {
    new InboxBacklogMetrics(runtime.get().admin()).bindTo(registry);
  }
}
