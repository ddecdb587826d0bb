package dev.hookledger.runtime.internal.admin;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.hookledger.runtime.Health;

/** The JSON shape of a {@link Health}, in the admin servlet's conventions (camelCase, ages in whole seconds). */
public final class HealthJson {
  private HealthJson() {}

  public static ObjectNode of(Health h) {
    return JsonNodeFactory.instance.objectNode()
        .put("status", h.status().name().toLowerCase(java.util.Locale.ROOT))
        .put("reason", h.reason().orElse(null))
        .put("up", h.up())
        .put("running", h.running())
        .put("databaseReachable", h.databaseReachable())
        .put("workers", h.workers())
        .put("workersAlive", h.workersAlive())
        .put("pollerAlive", h.pollerAlive())
        .put("listenerConnected", h.listenerConnected())
        .put("failuresSurvived", h.failuresSurvived())
        .put("waiting", h.waiting())
        .put("stuck", h.stuck())
        .put("dead", h.dead())
        .put("oldestWaitingSeconds", h.oldestWaitingAge().getSeconds());
  }
}
