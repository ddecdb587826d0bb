package dev.hookledger.runtime.admin.web;

import static dev.hookledger.runtime.admin.web.AdminHtml.escape;
import static dev.hookledger.runtime.admin.web.AdminHtml.time;

import dev.hookledger.runtime.RefusedDeliveries;
import dev.hookledger.runtime.RefusedDelivery;
import dev.hookledger.runtime.admin.RefusedCount;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * The overview's refused deliveries: a card (alarming while any were refused, since a provider whose
 * every delivery is refused leaves no event behind) and counts by provider and reason, both read
 * from the ledger's counts of every node over the last 24 hours, as {@code status} shows them; then
 * the last {@value #SHOWN} requests this node refused, with their header names (only the node that
 * refused a request keeps it). Every value is the sender's text, so every value is escaped; each
 * table is in its own scroll box, so that a narrow screen never scrolls the page sideways.
 */
final class RefusedSection {
  /** Refused requests listed on the page; the JSON has all that are kept. */
  static final int SHOWN = 20;

  private RefusedSection() {}

  static void card(StringBuilder h, List<RefusedCount> counts) {
    long n = counts.stream().mapToLong(RefusedCount::count).sum();
    h.append("<a class=\"card").append(n > 0 ? " alarm" : "").append("\" id=\"card-refused\" href=\"#refused\"")
        .append(" title=\"deliveries all nodes refused, each node counted while it refused one in the last 24 h:")
        .append(" bad signature, stale, malformed, too large, unknown provider, busy\"><span class=\"n\">").append(n)
        .append("</span>refused</a>");
  }

  /** @param refused this node's refused deliveries, for its last requests; null if the page has no runtime */
  static void render(StringBuilder h, List<RefusedCount> counts, RefusedDeliveries refused, Instant now) {
    h.append("<section id=\"refused\"><h2>refused deliveries <span class=\"muted\">(all nodes, last 24 h;")
        .append(" nothing of them is in the ledger)</span></h2>\n");
    if (counts.isEmpty()) {
      h.append("<p id=\"no-refused\">none refused</p>\n");
    } else {
      h.append("<div class=\"wide\"><table id=\"refused-counts\"><tr><th>provider</th><th>reason</th><th>answered</th>")
          .append("<th class=\"n\">refused</th><th>last</th></tr>\n");
      for (RefusedCount c : counts) {
        h.append("<tr><td>").append(escape(c.provider())).append("</td><td>").append(c.reason()).append("</td><td>")
            .append(c.reason().httpStatus()).append("</td><td class=\"n\">").append(c.count()).append("</td><td>")
            .append(time(c.lastAt(), now)).append("</td></tr>\n");
      }
      h.append("</table></div>\n");
    }
    if (refused == null || refused.recent().isEmpty()) {
      h.append("</section>\n");
      return;
    }
    h.append("<h3>last requests this node refused</h3>\n")
        .append("<div class=\"wide\"><table id=\"refused-recent\"><tr><th>when</th><th>provider</th>")
        .append("<th>reason</th><th>from</th><th>path</th><th>headers</th></tr>\n");
    List<RefusedDelivery> shown = refused.recent().subList(0, Math.min(SHOWN, refused.recent().size()));
    for (RefusedDelivery r : shown) {
      h.append("<tr><td>").append(time(r.at(), now)).append("</td><td>").append(escape(r.provider()))
          .append("</td><td>").append(r.reason()).append("</td><td>").append(escape(r.remoteAddress()))
          .append("</td><td>").append(escape(r.path())).append("</td><td>");
      headers(h, r.headers());
      h.append("</td></tr>\n");
    }
    h.append("</table></div></section>\n");
  }

  private static void headers(StringBuilder h, Map<String, String> headers) {
    boolean first = true;
    for (Map.Entry<String, String> e : headers.entrySet()) {
      h.append(first ? "" : "<br>").append(escape(e.getKey())).append(": <span class=\"muted\">")
          .append(escape(e.getValue())).append("</span>");
      first = false;
    }
  }
}
