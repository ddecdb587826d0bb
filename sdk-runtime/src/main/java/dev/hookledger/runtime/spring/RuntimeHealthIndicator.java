package dev.hookledger.runtime.spring;

import dev.hookledger.runtime.Health;
import dev.hookledger.runtime.WebhookRuntime;
import org.springframework.boot.actuate.health.HealthIndicator;

/**
 * The actuator's view of {@link WebhookRuntime#health()}: {@code UP} when this node can receive and
 * process ({@link Health#up()}), {@code DOWN} otherwise, with every figure as a detail. A backlog,
 * dead events or a reconnecting listener do not make it down: alert on the details (or on the
 * Micrometer gauges) apart.
 */
final class RuntimeHealthIndicator implements HealthIndicator {
  private final WebhookRuntime runtime;

  RuntimeHealthIndicator(WebhookRuntime runtime) {
    this.runtime = runtime;
  }

  @Override
  public org.springframework.boot.actuate.health.Health health() {
    Health h = runtime.health();
    org.springframework.boot.actuate.health.Health.Builder b = h.up()
        ? org.springframework.boot.actuate.health.Health.up()
        : org.springframework.boot.actuate.health.Health.down();
    return b.withDetail("running", h.running())
        .withDetail("databaseReachable", h.databaseReachable())
        .withDetail("workers", h.workers())
        .withDetail("workersAlive", h.workersAlive())
        .withDetail("pollerAlive", h.pollerAlive())
        .withDetail("listenerConnected", h.listenerConnected())
        .withDetail("failuresSurvived", h.failuresSurvived())
        .withDetail("waiting", h.waiting())
        .withDetail("dead", h.dead())
        .withDetail("oldestWaitingAge", h.oldestWaitingAge().toString())
        .build();
  }
}
