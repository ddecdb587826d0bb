package dev.hookledger.runtime.admin.web;

import static dev.hookledger.runtime.admin.web.AdminHtml.escape;
import static dev.hookledger.runtime.admin.web.AdminHtml.time;

import dev.hookledger.runtime.RefusalCount;
import dev.hookledger.runtime.RefusedDeliveries;
import dev.hookledger.runtime.RefusedDelivery;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * The overview's refused deliveries: a card (alarming while any were refused, since a provider whose
 * every delivery is refused leaves no event behind), counts by provider and reason, and the last
 * {@value #SHOWN} refused requests with their header names. This node's memory only. Every value is
 * the sender's text, so every value is escaped.
 */
final class RefusedSection {
  /** Refused requests listed on the page; the JSON has all that are kept. */
  static final int SHOWN = 20;

  private RefusedSection() {}

  static void card(StringBuilder h, RefusedDeliveries refused) {
    long n = refused.total();
    h.append("<a class=\"card").append(n > 0 ? " alarm" : "").append("\" id=\"card-refused\" href=\"#refused\"")
        .append(" title=\"deliveries this node refused since it started: bad signature, stale, malformed, too large,")
        .append(" unknown provider, busy\"><span class=\"n\">").append(n).append("</span>refused</a>");
  }

  static void render(StringBuilder h, RefusedDeliveries refused, Instant now) {
    h.append("<section id=\"refused\"><h2>refused deliveries <span class=\"muted\">(this node, since it started;")
        .append(" nothing of them is in the ledger)</span></h2>\n");
    if (refused.counts().isEmpty()) {
      h.append("<p id=\"no-refused\">none refused</p></section>\n");
      return;
    }
    h.append("<table id=\"refused-counts\"><tr><th>provider</th><th>reason</th><th>answered</th><th class=\"n\">")
        .append("refused</th></tr>\n");
    for (RefusalCount c : refused.counts()) {
      h.append("<tr><td>").append(escape(c.provider())).append("</td><td>").append(c.reason()).append("</td><td>")
          .append(c.reason().httpStatus()).append("</td><td class=\"n\">").append(c.count()).append("</td></tr>\n");
    }
    h.append("</table>\n<div class=\"wide\"><table id=\"refused-recent\"><tr><th>when</th><th>provider</th>")
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
