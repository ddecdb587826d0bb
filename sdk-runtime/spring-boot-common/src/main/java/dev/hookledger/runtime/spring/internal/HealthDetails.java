package dev.hookledger.runtime.spring.internal;

import dev.hookledger.runtime.Health;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The details of the actuator's {@code hookledger} health indicator, the same under Boot 3.5 and Boot 4
 * (whose {@code Health} types differ): every figure of {@link Health}. A backlog, dead events or a
 * reconnecting listener do not make the runtime down: alert on these details (or the meters) apart.
 */
public final class HealthDetails {
  private HealthDetails() {}

  /** Every figure of {@code h}, by name, in a stable order. */
  public static Map<String, Object> of(Health h) {
    Map<String, Object> d = new LinkedHashMap<>();
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
    return d;
  }
}
