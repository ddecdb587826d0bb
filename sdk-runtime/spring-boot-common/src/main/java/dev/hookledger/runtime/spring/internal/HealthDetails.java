package dev.hookledger.runtime.spring.internal;

import dev.hookledger.runtime.Health;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The details of the actuator's {@code hookledger} health indicator, the same under Boot 3.5 and Boot 4
 * (whose {@code Health} types differ): every figure of {@link Health}. A backlog, dead events, a
 * reconnecting listener, dead effects or an open breaker do not make the runtime down: alert on these
 * details (or the meters) apart.
 */
public final class HealthDetails {
  private HealthDetails() {}

  /**
   * The indicator's status code: {@code UP}, {@code DOWN}, or {@code DEGRADED} when the node receives
   * but events are stuck or a worker or the poller is not running. Boot's default status order does
   * not know {@code DEGRADED}, so the application's aggregate status is unchanged by it (the node
   * stays in the load balancer, as {@code /healthz} answers 200); add it to
   * {@code management.endpoint.health.status.order} to let it count.
   */
  public static String statusCode(Health h) {
    return h.status().name();
  }

  /** Every figure of {@code h}, by name, in a stable order, with the one-line reason when not up. */
  public static Map<String, Object> of(Health h) {
    Map<String, Object> d = new LinkedHashMap<>();
    h.reason().ifPresent(reason -> d.put("reason", reason));
    d.put("running", h.running());
    d.put("databaseReachable", h.databaseReachable());
    d.put("workers", h.workers());
    d.put("workersAlive", h.workersAlive());
    d.put("pollerAlive", h.pollerAlive());
    d.put("listenerConnected", h.listenerConnected());
    d.put("failuresSurvived", h.failuresSurvived());
    d.put("waiting", h.waiting());
    d.put("dead", h.dead());
    d.put("oldestWaitingAge", h.oldestWaitingAge().toString());
    d.put("stuck", h.stuck());
    d.put("deadEffects", h.deadEffects());
    d.put("openBreakers", h.openBreakers());
    return d;
  }
}
