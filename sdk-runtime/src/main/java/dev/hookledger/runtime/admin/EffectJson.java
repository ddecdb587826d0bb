package dev.hookledger.runtime.admin;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;
import java.util.List;

/**
 * The JSON shapes of the outbox's admin results, as {@link AdminJson} writes the inbox's: for the
 * command line's {@code --json} and the admin page. Field names camelCase; statuses lower-case;
 * instants ISO-8601; ages whole seconds; absent values JSON null. Stateless and thread-safe.
 */
public final class EffectJson {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private EffectJson() {}

  /** Each destination's backlog, breaker and pause. */
  public static ArrayNode destinations(List<DestinationStatus> destinations) {
    ArrayNode a = NODES.arrayNode();
    destinations.forEach(d -> a.addObject().put("destination", d.destination()).put("pending", d.pending())
        .put("sending", d.sending()).put("dead", d.dead()).put("oldestWaitingAgeSeconds", d.oldestWaitingAge().toSeconds())
        .put("breaker", d.breaker().displayText()).put("consecutiveFailures", d.consecutiveFailures())
        .put("openedAt", text(d.openedAt())).put("paused", d.paused()).put("ratePerSecond", d.ratePerSecond()));
    return a;
  }

  /** Effects as a list shows them. */
  public static ArrayNode summaries(List<EffectSummary> effects) {
    ArrayNode a = NODES.arrayNode();
    effects.forEach(e -> a.add(summary(e)));
    return a;
  }

  /** An event's effects, each with its attempts. */
  public static ArrayNode details(List<EffectDetail> effects) {
    ArrayNode a = NODES.arrayNode();
    for (EffectDetail d : effects) {
      ObjectNode o = summary(d.summary());
      ArrayNode attempts = o.putArray("attempts");
      d.attempts().forEach(t -> attempts.addObject().put("attempt", t.attempt()).put("node", t.node())
          .put("startedAt", t.startedAt().toString()).put("endedAt", t.endedAt().toString())
          .put("durationMs", t.duration().toMillis()).put("statusCode", t.statusCode()).put("outcome", t.outcome())
          .put("responseExcerpt", t.responseExcerpt()).put("error", t.error()));
      a.add(o);
    }
    return a;
  }

  private static ObjectNode summary(EffectSummary e) {
    return NODES.objectNode().put("scope", e.scope()).put("idempotencyKey", e.idempotencyKey())
        .put("provider", e.provider()).put("eventId", e.eventId()).put("handler", e.handler()).put("name", e.name())
        .put("kind", e.kind()).put("destination", e.destination()).put("target", e.target())
        .put("orderingKey", e.orderingKey()).put("status", e.status().displayText()).put("attempts", e.attempts())
        .put("availableAt", text(e.availableAt())).put("lastStatusCode", e.lastStatusCode())
        .put("lastError", e.lastError()).put("rootCause", e.cause()).put("createdAt", text(e.createdAt()))
        .put("settledAt", text(e.settledAt()));
  }

  private static String text(Instant at) {
    return at == null ? null : at.toString();
  }
}
