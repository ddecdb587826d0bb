package dev.hookledger.runtime.spring.boot3;

import dev.hookledger.runtime.WebhookRuntime;
import dev.hookledger.runtime.spring.internal.HealthDetails;
import java.util.function.Supplier;
import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.HealthIndicator;

/**
 * The actuator's view of {@link WebhookRuntime#health()}: {@code UP} when this node can receive and
 * process, {@code DEGRADED} when it receives but events are stuck or not processed here, {@code DOWN}
 * when it cannot receive, with every figure as a detail ({@link HealthDetails}).
 */
final class RuntimeHealthIndicator implements HealthIndicator {
  private final Supplier<WebhookRuntime> runtime;

  /** An indicator of the runtime {@code runtime} supplies when asked, so that creating it creates no runtime early. */
  RuntimeHealthIndicator(Supplier<WebhookRuntime> runtime) {
    this.runtime = runtime;
  }

  @Override
  public Health health() {
    dev.hookledger.runtime.Health h = runtime.get().health();
    return Health.status(HealthDetails.statusCode(h)).withDetails(HealthDetails.of(h)).build();
  }
}
