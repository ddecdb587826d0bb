package dev.hookledger.runtime.admin.web;

import static dev.hookledger.runtime.admin.web.AdminHtml.escape;

import dev.hookledger.runtime.admin.AdminText;
import dev.hookledger.runtime.admin.ReconcileReport;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Reconcile from the page: the form (provider, window) and the report of
 * {@link dev.hookledger.runtime.admin.InboxAdmin#reconcile}: the events the provider lists that the
 * ledger lacks, those the ledger has that the provider does not list, and those whose status
 * differs, each linked to the event where the ledger has it. Nothing is written to make it. Event
 * ids, types and the provider's words are escaped.
 */
final class ReconcilePage {
  /**
   * The longest window one page reconciles: both sides of it are held in memory, so a longer one is
   * shown a day at a time, each page linking to the rest.
   */
  static final Duration MAX_WINDOW = Duration.ofDays(1);

  private ReconcilePage() {}

  /** The form; {@code providers} are those with a replay source on the class path. */
  static String form(List<String> providers, Instant now, String base, String nonce) {
    StringBuilder h = new StringBuilder(4096);
    AdminHtml.head(h, "reconcile · hookledger", nonce);
    AdminHtml.header(h, base, now, false);
    h.append("<h2>reconcile with a provider</h2>\n<p class=\"muted\">Compares the provider's own list of events")
        .append(" for a window with the ledger; writes nothing. The provider's API key is read from the server's")
        .append(" settings (HOOKLEDGER_&lt;PROVIDER&gt;_API_KEY and the like), never typed here.</p>\n")
        .append("<form class=\"stacked\" id=\"reconcile-form\" method=\"get\" action=\"").append(escape(base))
        .append("/reconcile\"><label>provider <select name=\"provider\">");
    providers.forEach(p -> h.append("<option>").append(escape(p)).append("</option>"));
    h.append("</select></label><label>since <input name=\"since\" required placeholder=\"")
        .append("2025-03-01T08:00:00Z, a date or 1d\"></label><label>until <input name=\"until\" placeholder=\"")
        .append("default: now\"></label><p><button type=\"submit\" id=\"run-reconcile\">reconcile</button> <a href=\"")
        .append(escape(base)).append("/\">cancel</a></p></form>\n");
    if (providers.isEmpty()) {
      h.append("<p id=\"no-sources\" class=\"muted\">No provider module with a replay source is on the class path.</p>\n");
    }
    AdminHtml.end(h, nonce);
    return h.toString();
  }

  /** The report of one page; {@code rest} is the end of the window asked for, if it goes on past this page. */
  static String report(ReconcileReport r, Optional<Instant> rest, Instant now, String base, String nonce) {
    StringBuilder h = new StringBuilder(8192);
    AdminHtml.head(h, r.provider() + " reconcile · hookledger", nonce);
    AdminHtml.header(h, base, now, false);
    h.append("<h2>").append(escape(r.provider())).append(" reconcile</h2>\n<p id=\"reconcile-summary\">From ")
        .append(AdminText.second(r.since())).append(" to ").append(AdminText.second(r.until()))
        .append(": the provider lists ").append(r.listed()).append(" events, the ledger has ").append(r.ledger())
        .append(" in the window. ").append(r.agrees() ? "<b>The ledger and the provider agree.</b>" : "")
        .append(" Nothing was written.</p>\n");
    rest.ifPresent(end -> {
      Map<String, String> next = new LinkedHashMap<>();
      next.put("provider", r.provider());
      next.put("since", r.until().toString());
      next.put("until", end.toString());
      h.append("<p id=\"reconcile-next\">A page reconciles at most a day; the window asked for goes on to ")
          .append(AdminText.second(end)).append(": <a href=\"").append(AdminHtml.link(base, "/reconcile", next))
          .append("\">reconcile the next day</a></p>\n");
    });
    section(h, "missing", "missing from the ledger", r.missing(), r.provider(), base);
    section(h, "unlisted", "in the ledger, not listed by the provider", r.unlisted(), r.provider(), base);
    section(h, "differing", "in both, status differs", r.differing(), r.provider(), base);
    h.append("<p><a href=\"").append(escape(base)).append("/reconcile\">reconcile again</a> · <a href=\"")
        .append(escape(base)).append("/\">« back to the inbox</a></p>\n");
    AdminHtml.end(h, nonce);
    return h.toString();
  }

  private static void section(StringBuilder h, String id, String title, List<ReconcileReport.Entry> entries,
      String provider, String base) {
    h.append("<h3>").append(title).append(" (").append(entries.size()).append(")</h3>\n");
    if (entries.isEmpty()) {
      return;
    }
    h.append("<div class=\"wide\"><table id=\"").append(id).append("\"><tr><th>event</th><th>type</th>")
        .append("<th>provider says</th><th>ledger</th></tr>\n");
    for (ReconcileReport.Entry e : entries) {
      h.append("<tr><td>");
      if (e.ledgerStatus() == null) {
        h.append(escape(e.eventId()));
      } else {
        // in the order of the event page's own links (a Map.of would order them by chance)
        Map<String, String> key = new LinkedHashMap<>();
        key.put("provider", provider);
        key.put("scope", e.scope());
        key.put("eventId", e.eventId());
        h.append("<a href=\"").append(AdminHtml.link(base, "/event", key)).append("\">").append(escape(e.eventId()))
            .append("</a>");
      }
      h.append(e.scope().isEmpty() ? "" : " <span class=\"muted\">(scope " + escape(e.scope()) + ")</span>")
          .append("</td><td>").append(escape(e.type())).append("</td><td>")
          .append(e.providerDelivery() == null ? "not listed"
              : escape(e.providerDelivery()) + " <span class=\"muted\">(" + escape(e.providerDetail()) + ")</span>")
          .append("</td><td>").append(e.ledgerStatus() == null ? "absent" : escape(e.ledgerStatus()))
          .append("</td></tr>\n");
    }
    h.append("</table></div>\n");
  }
}
