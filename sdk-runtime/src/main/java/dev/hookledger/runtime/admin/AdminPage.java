package dev.hookledger.runtime.admin;

import dev.hookledger.runtime.internal.admin.DurationText;
import dev.hookledger.runtime.internal.ledger.StatusColumn;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The admin servlet's HTML: counts per provider and status, the oldest waiting age, and the dead
 * events with their errors and a retry button each. Every value from the ledger is escaped. The
 * buttons post through a small script (allowed by the page's CSP nonce) that adds the guard header.
 */
final class AdminPage {
  private AdminPage() {}

  /**
   * The whole page.
   *
   * @param base the servlet's URL path ({@code /app/admin}), for the form actions
   * @param nonce the Content-Security-Policy nonce of this response
   */
  static String render(InboxStatus status, List<EventSummary> dead, boolean moreDead, String base,
      String guardHeader, String nonce) {
    StringBuilder h = new StringBuilder(4096);
    h.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>hookledger inbox</title>\n")
        .append("<style nonce=\"").append(nonce).append("\">body{font-family:system-ui,sans-serif;margin:2em}")
        .append("table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;padding:.3em .6em;")
        .append("text-align:left;vertical-align:top}td.n{text-align:right}pre{margin:0;white-space:pre-wrap;")
        .append("max-width:60em}</style></head><body>\n<h1>hookledger inbox</h1>\n<p>as of ")
        .append(escape(status.asOf().toString())).append("</p>\n");
    counts(h, status);
    h.append("<p id=\"waiting\">waiting: ").append(status.waiting())
        .append(status.oldestWaitingAge().map(a -> " (oldest " + DurationText.age(a) + ")").orElse(""))
        .append("</p>\n<p id=\"dead\">dead: ").append(status.dead()).append("</p>\n<p id=\"duplicates\">")
        .append("duplicate deliveries acknowledged without processing: ").append(status.duplicates()).append("</p>\n");
    deadList(h, dead, moreDead, base);
    h.append("<script nonce=\"").append(nonce).append("\">\n")
        .append("document.querySelectorAll('form[data-retry]').forEach(function (f) {\n")
        .append("  f.addEventListener('submit', function (e) {\n    e.preventDefault();\n")
        .append("    fetch(f.action, {method: 'POST', headers: {'").append(guardHeader)
        .append("': '1', 'Content-Type': 'application/x-www-form-urlencoded'},\n")
        .append("      body: new URLSearchParams(new FormData(f))})\n")
        .append("      .then(function (r) { return r.json().then(function (j) {\n")
        .append("        if (!r.ok) { alert(j.error); } location.reload(); }); });\n  });\n});\n</script>\n")
        .append("</body></html>\n");
    return h.toString();
  }

  private static void counts(StringBuilder h, InboxStatus status) {
    TreeSet<String> providers = new TreeSet<>();
    Map<String, Map<String, Long>> byProvider = new TreeMap<>();
    for (StatusCount c : status.counts()) {
      providers.add(c.provider());
      byProvider.computeIfAbsent(c.provider(), p -> new TreeMap<>()).put(StatusColumn.sql(c.status()), c.events());
    }
    h.append("<table id=\"counts\"><tr><th>provider</th>");
    StatusColumn.NAMES.forEach(s -> h.append("<th>").append(s).append("</th>"));
    h.append("</tr>\n");
    for (String p : providers) {
      h.append("<tr><td>").append(escape(p)).append("</td>");
      for (String s : StatusColumn.NAMES) {
        h.append("<td class=\"n\">").append(byProvider.get(p).getOrDefault(s, 0L)).append("</td>");
      }
      h.append("</tr>\n");
    }
    h.append("</table>\n");
  }

  private static void deadList(StringBuilder h, List<EventSummary> dead, boolean more, String base) {
    h.append("<h2>dead events</h2>\n");
    if (dead.isEmpty()) {
      h.append("<p>none</p>\n");
      return;
    }
    h.append("<form data-retry method=\"post\" action=\"").append(escape(base)).append("/retry-dead\">")
        .append("<button type=\"submit\">retry all dead</button></form>\n")
        .append("<table id=\"dead-events\"><tr><th>received</th><th>provider</th><th>scope</th><th>event</th>")
        .append("<th>type</th><th>attempts</th><th>last error</th><th></th></tr>\n");
    for (EventSummary e : dead) {
      h.append("<tr><td>").append(escape(e.receivedAt().toString())).append("</td><td>").append(escape(e.provider()))
          .append("</td><td>").append(escape(e.scope())).append("</td><td>").append(escape(e.eventId()))
          .append("</td><td>").append(escape(e.type())).append("</td><td class=\"n\">").append(e.attempts())
          .append("</td><td><pre>").append(escape(e.lastError().orElse(""))).append("</pre></td><td>")
          .append("<form data-retry method=\"post\" action=\"").append(escape(base)).append("/retry\">")
          .append(hidden("provider", e.provider())).append(hidden("scope", e.scope()))
          .append(hidden("eventId", e.eventId())).append("<button type=\"submit\">retry</button></form></td></tr>\n");
    }
    h.append("</table>\n");
    if (more) {
      h.append("<p>more dead events than shown: see <code>hookledger list --status dead</code></p>\n");
    }
  }

  private static String hidden(String name, String value) {
    return "<input type=\"hidden\" name=\"" + name + "\" value=\"" + escape(value) + "\">";
  }

  /** Escapes text for HTML element content and quoted attribute values. */
  static String escape(String s) {
    StringBuilder out = new StringBuilder(s.length() + 16);
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '&' -> out.append("&amp;");
        case '<' -> out.append("&lt;");
        case '>' -> out.append("&gt;");
        case '"' -> out.append("&quot;");
        case '\'' -> out.append("&#39;");
        default -> out.append(c);
      }
    }
    return out.toString();
  }
}
