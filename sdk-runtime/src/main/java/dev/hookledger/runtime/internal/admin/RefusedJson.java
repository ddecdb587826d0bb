package dev.hookledger.runtime.internal.admin;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.hookledger.runtime.RefusalCount;
import dev.hookledger.runtime.RefusedDeliveries;
import dev.hookledger.runtime.RefusedDelivery;
import java.util.Locale;

/**
 * The JSON shape of {@link RefusedDeliveries}, in the admin servlet's conventions: reasons in lower
 * case as the metrics tag them, times ISO-8601.
 */
public final class RefusedJson {
  private RefusedJson() {}

  /** Total and counts only: for health details. */
  public static ObjectNode counts(RefusedDeliveries refused) {
    ObjectNode o = JsonNodeFactory.instance.objectNode().put("total", refused.total());
    ArrayNode counts = o.putArray("counts");
    for (RefusalCount c : refused.counts()) {
      counts.addObject().put("provider", c.provider()).put("reason", reason(c.reason()))
          .put("httpStatus", c.reason().httpStatus()).put("count", c.count());
    }
    return o;
  }

  /** Counts and every kept request, newest first. */
  public static ObjectNode of(RefusedDeliveries refused) {
    ObjectNode o = counts(refused);
    ArrayNode recent = o.putArray("recent");
    for (RefusedDelivery r : refused.recent()) {
      ObjectNode item = recent.addObject().put("at", r.at().toString()).put("provider", r.provider())
          .put("reason", reason(r.reason())).put("remoteAddress", r.remoteAddress()).put("path", r.path());
      ObjectNode headers = item.putObject("headers");
      r.headers().forEach(headers::put);
    }
    return o;
  }

  private static String reason(Enum<?> reason) {
    return reason.name().toLowerCase(Locale.ROOT);
  }
}
