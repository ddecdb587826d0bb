package dev.hookledger.runtime.admin.web;

import static dev.hookledger.runtime.admin.web.AdminHtml.escape;
import static dev.hookledger.runtime.admin.web.AdminHtml.hidden;
import static dev.hookledger.runtime.admin.web.AdminHtml.time;

import dev.hookledger.runtime.EffectStatus;
import dev.hookledger.runtime.admin.AdminText;
import dev.hookledger.runtime.admin.DestinationStatus;
import dev.hookledger.runtime.admin.EffectAttempt;
import dev.hookledger.runtime.admin.EffectDetail;
import dev.hookledger.runtime.admin.EffectSelection;
import dev.hookledger.runtime.admin.EffectSummary;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * The outbox on the admin page: an event's effects on its detail page, each with every attempt and
 * what the destination answered (escaped: an answer is text from outside), and the destinations
 * view (breaker, rate, backlog, pause and resume, retry of the dead). Every action is a form the
 * page's script posts with the cross-site guard header, as the event's retry buttons are.
 */
final class EffectSection {
  private EffectSection() {}

  /** An event's effects, on its detail page; nothing if it has none. */
  static void effects(StringBuilder h, List<EffectDetail> effects, Instant now, String base) {
    if (effects.isEmpty()) {
      return;
    }
    h.append("<h2>effects</h2>\n<div class=\"wide\"><table id=\"effects\"><tr><th>effect</th><th>destination</th>")
        .append("<th>status</th><th>attempts</th><th>next or settled</th><th>key</th><th></th></tr>\n");
    for (EffectDetail d : effects) {
      EffectSummary e = d.summary();
      h.append("<tr class=\"effect\"><td>").append(escape(e.name() + " from " + e.handler())).append("<br><span class=\"muted\">")
          .append(escape(e.target())).append("</span></td><td>").append(escape(e.destination())).append("</td><td>")
          .append(escape(e.status().displayText())).append("</td><td>").append(e.attempts()).append("</td><td>")
          .append(e.status().isWaiting() ? time(e.availableAt(), now) : e.settledAt() == null ? "-" : time(e.settledAt(), now))
          .append("</td><td><code>").append(escape(e.idempotencyKey())).append("</code></td><td>");
      if (e.status() == EffectStatus.DEAD || e.status() == EffectStatus.PENDING && e.attempts() > 0
          && e.availableAt().isAfter(now)) {
        h.append("<form class=\"inline\" data-action method=\"post\" action=\"").append(escape(base))
            .append("/retry-effect\">").append(hidden("scope", e.scope())).append(hidden("key", e.idempotencyKey()))
            .append("<button type=\"submit\" class=\"retry\">").append(e.status() == EffectStatus.DEAD ? "retry" : "retry now")
            .append("</button></form>");
      }
      h.append("</td></tr>\n");
      for (EffectAttempt a : d.attempts()) {
        h.append("<tr class=\"effect-attempt\"><td colspan=\"7\">attempt ").append(a.attempt()).append(' ')
            .append(time(a.startedAt(), now)).append(" on ").append(escape(a.node())).append(", ")
            .append(a.duration().toMillis()).append(" ms: ").append(escape(a.outcome()))
            .append(a.statusCode() == null ? "" : ", HTTP " + a.statusCode())
            .append(a.error() == null ? "" : ", " + escape(a.error()));
        if (a.responseExcerpt() != null && !a.responseExcerpt().isEmpty()) {
          h.append("<pre class=\"response\">").append(escape(a.responseExcerpt())).append("</pre>");
        }
        h.append("</td></tr>\n");
      }
    }
    h.append("</table></div>\n");
  }

  /** The destinations view: each destination's backlog, breaker, rate and pause, with its actions. */
  static String destinations(List<DestinationStatus> destinations, Instant now, String base, String nonce) {
    StringBuilder h = new StringBuilder(4096);
    AdminHtml.head(h, "destinations · hookledger", nonce);
    AdminHtml.header(h, base, now, false);
    h.append("<h2>destinations of the outbox</h2>\n");
    if (destinations.isEmpty()) {
      h.append("<p id=\"no-destinations\">No effect has been enqueued yet.</p>\n");
    } else {
      h.append("<div class=\"wide\"><table id=\"destinations\"><tr><th>destination</th><th>pending</th><th>sending</th>")
          .append("<th>dead</th><th>oldest waiting</th><th>breaker</th><th>rate</th><th></th></tr>\n");
      for (DestinationStatus d : destinations) {
        h.append("<tr><td>").append(escape(d.destination())).append("</td><td>").append(d.pending()).append("</td><td>")
            .append(d.sending()).append("</td><td>").append(d.dead()).append("</td><td>")
            .append(d.waiting() == 0 ? "-" : escape(AdminText.age(d.oldestWaitingAge()))).append("</td><td class=\"breaker-")
            .append(d.breaker().displayText()).append("\">").append(d.breaker().displayText())
            .append(d.consecutiveFailures() > 0 ? " (" + d.consecutiveFailures() + " failures)" : "")
            .append(d.paused() ? " · <b>paused</b>" : "").append("</td><td>")
            .append(d.ratePerSecond() > 0 ? d.ratePerSecond() + "/s" : "-").append("</td><td>");
        action(h, base, d.paused() ? "/resume" : "/pause", d.destination(), d.paused() ? "resume" : "pause");
        if (d.dead() > 0) {
          h.append(" <a class=\"retry\" href=\"").append(AdminHtml.link(base, "/confirm-retry-effects",
              orderedParams("status", "dead", "destination", d.destination()))).append("\">retry dead…</a>");
        }
        h.append("</td></tr>\n");
      }
      h.append("</table></div>\n");
    }
    h.append("<p><a href=\"").append(escape(base)).append("/\">« back to the inbox</a></p>\n");
    AdminHtml.end(h, nonce);
    return h.toString();
  }

  /** "Retry these N dead effects?": bound to the count, as the events' confirmation is. */
  static String confirmRetry(EffectSelection s, long n, Instant now, String base, String nonce) {
    StringBuilder h = new StringBuilder(4096);
    AdminHtml.head(h, "retry effects · hookledger", nonce);
    AdminHtml.header(h, base, now, false);
    if (n == 0) {
      h.append("<p id=\"confirm\">There are no ").append(escape(s.toString())).append(" to retry.</p>\n");
    } else {
      h.append("<p id=\"confirm\">Retry all <b>").append(n).append("</b> ").append(escape(s.toString())).append("? ")
          .append(s.group() == dev.hookledger.runtime.admin.RetrySelection.Group.DEAD
              ? "Each is set back to pending with its destination's full budget, sent again with the same key."
              : "Each is made due now, keeping its attempts.")
          .append(" If the count has changed when you confirm, nothing is retried.</p>\n")
          .append("<form data-action data-next=\"").append(escape(base + "/destinations")).append("\" method=\"post\" action=\"")
          .append(escape(base)).append("/retry-effects\">").append(hidden("status", s.group().text()));
      s.destination().ifPresent(d -> h.append(hidden("destination", d)));
      s.cause().ifPresent(c -> h.append(hidden("cause", c)));
      h.append(hidden("confirm", Long.toString(n)))
          .append("<button type=\"submit\" class=\"danger\" id=\"confirm-retry-effects\">retry ").append(n).append(' ')
          .append(s.group().text()).append(" effects</button> <a href=\"").append(escape(base))
          .append("/destinations\">cancel</a></form>\n");
    }
    AdminHtml.end(h, nonce);
    return h.toString();
  }

  private static void action(StringBuilder h, String base, String path, String destination, String label) {
    h.append("<form class=\"inline\" data-action method=\"post\" action=\"").append(escape(base)).append(path)
        .append("\">").append(hidden("destination", destination)).append("<button type=\"submit\">").append(label)
        .append("</button></form>");
  }

  /** Query parameters in the order given: {@code Map.of} iterates in an order that changes from run to run. */
  private static Map<String, String> orderedParams(String... keysAndValues) {
    Map<String, String> params = new java.util.LinkedHashMap<>();
    for (int i = 0; i < keysAndValues.length; i += 2) {
      params.put(keysAndValues[i], keysAndValues[i + 1]);
    }
    return params;
  }
}
