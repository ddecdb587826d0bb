package dev.hookledger.runtime.admin.web;

import static dev.hookledger.runtime.admin.web.AdminHtml.escape;

import dev.hookledger.runtime.admin.AdminText;
import dev.hookledger.runtime.admin.BackfillPlan;
import dev.hookledger.runtime.admin.BackfillRequest;
import dev.hookledger.runtime.admin.LegacyEvents;
import jakarta.servlet.http.HttpServletRequest;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Starting a backfill from the page: the form (handlers chosen from those registered, provider, type
 * pattern, window, legacy events, pace), read into a {@link BackfillRequest} exactly as
 * {@code hookledger backfill} reads its options, and the confirmation that shows the dry run's
 * counts before anything is recorded. The confirmation carries the window as instants, so that
 * "3d" means the same thing when the person confirms as when they were shown the count.
 */
final class BackfillForm {
  private BackfillForm() {}

  /**
   * The request the parameters describe: {@code handler} (repeated, or comma-separated),
   * {@code provider}, {@code type}, {@code since}, {@code until}, {@code legacy} ({@code skip} or
   * {@code apply}), {@code maxPerSecond}.
   *
   * @throws IllegalArgumentException naming the bad parameter; nothing is recorded
   */
  static BackfillRequest request(HttpServletRequest req, Instant now) {
    List<String> handlers = new ArrayList<>();
    for (String v : Optional.ofNullable(req.getParameterValues("handler")).orElse(new String[0])) {
      Arrays.stream(v.split(",")).map(String::trim).filter(s -> !s.isEmpty()).forEach(handlers::add);
    }
    if (handlers.isEmpty()) {
      throw new IllegalArgumentException("a backfill needs at least one handler: choose the handlers to run");
    }
    BackfillRequest.Builder b = BackfillRequest.builder(handlers.toArray(String[]::new));
    param(req, "provider").ifPresent(b::provider);
    param(req, "type").ifPresent(b::type);
    param(req, "since").ifPresent(v -> b.since(AdminText.when("since", v, now)));
    param(req, "until").ifPresent(v -> b.until(AdminText.when("until", v, now)));
    param(req, "legacy").ifPresent(v -> b.legacy(legacy(v)));
    param(req, "maxPerSecond").ifPresent(v -> b.maxPerSecond(number("maxPerSecond", v)));
    return b.build();
  }

  /**
   * The form. {@code registered} are the handlers a backfill can name, as checkboxes; empty when the
   * page does not know them (an admin over a database alone), then a text field takes the names.
   */
  static String form(Optional<List<String>> registered, Instant now, String base, String nonce) {
    StringBuilder h = new StringBuilder(8192);
    AdminHtml.head(h, "start a backfill · hookledger", nonce);
    AdminHtml.header(h, base, now, false);
    h.append("<h2>start a backfill</h2>\n<p class=\"muted\">Runs the chosen handlers over stored events, oldest")
        .append(" first, each event in its own transaction; a handler already applied to an event is not run again.")
        .append(" The next page shows how many events it would visit before anything starts.</p>\n")
        .append("<form class=\"stacked\" id=\"backfill-form\" method=\"get\" action=\"").append(escape(base))
        .append("/confirm-backfill\"><fieldset id=\"handlers\"><legend>handlers</legend>");
    if (registered.isEmpty()) {
      h.append("<label>names <input name=\"handler\" placeholder=\"com.acme.Billing#paid, audit\"></label>");
    } else if (registered.get().isEmpty()) {
      h.append("<p class=\"muted\">this runtime registers no handler</p>");
    } else {
      for (String name : registered.get()) {
        h.append("<label class=\"check\"><input type=\"checkbox\" name=\"handler\" value=\"").append(escape(name))
            .append("\"> ").append(escape(name)).append("</label>");
      }
    }
    h.append("</fieldset>")
        .append(field("provider", "provider", "every provider", ""))
        .append(field("type", "type", "invoice.* or exact", "*"))
        .append(field("since", "received since", "2025-03-01T08:00:00Z, a date or 30d", ""))
        .append(field("until", "received before", "default: now", ""))
        .append("<label>legacy events <select name=\"legacy\"><option value=\"skip\">skip (settled before handler")
        .append(" bookkeeping: counted as applied)</option><option value=\"apply\">apply (the handlers are new to")
        .append(" them)</option></select></label>")
        .append("<label>at most <input name=\"maxPerSecond\" type=\"number\" min=\"1\" max=\"10000\" value=\"")
        .append(BackfillRequest.DEFAULT_MAX_PER_SECOND).append("\"> events/s</label>")
        .append("<p><button type=\"submit\" id=\"count-backfill\">count the events…</button> <a href=\"")
        .append(escape(base)).append("/\">cancel</a></p></form>\n");
    AdminHtml.end(h, nonce);
    return h.toString();
  }

  /** "Start this backfill over N events?", with the dry run's counts; posts the request as instants. */
  static String confirm(BackfillRequest r, BackfillPlan plan, Instant now, String base, String nonce) {
    StringBuilder h = new StringBuilder(4096);
    AdminHtml.head(h, "start a backfill · hookledger", nonce);
    AdminHtml.header(h, base, now, false);
    h.append("<p id=\"confirm\">Start a backfill of <b>").append(escape(String.join(", ", r.handlers())))
        .append("</b> over <b>").append(plan.toVisit()).append("</b> events? ").append(escape(describe(r)))
        .append(".</p>\n<dl id=\"plan\">");
    dd(h, "selected", plan.selected() + " stored, settled events");
    dd(h, "already applied", Long.toString(plan.alreadyApplied()));
    dd(h, "legacy", plan.legacy() + (r.legacy() == LegacyEvents.APPLY ? " (applied)" : " (skipped)"));
    dd(h, "to visit", plan.toVisit() + " (a handler whose own types do not match an event does not run on it)");
    dd(h, "pace", "at most " + r.maxPerSecond() + " events/s, paused while more than " + r.maxBacklog()
        + " events wait for live processing");
    h.append("</dl>\n<form data-action data-next=\"").append(escape(base)).append("/\" method=\"post\" action=\"")
        .append(escape(base)).append("/start-backfill\">");
    params(r, now).forEach((k, v) -> h.append(AdminHtml.hidden(k, v)));
    h.append("<button type=\"submit\" class=\"danger\" id=\"confirm-backfill\">start the backfill</button> <a href=\"")
        .append(escape(base)).append("/\">cancel</a></form>\n");
    AdminHtml.end(h, nonce);
    return h.toString();
  }

  /** One line of what a request selects: {@code stripe events of type invoice.*, received ...}. */
  static String describe(BackfillRequest r) {
    return r.provider().orElse("every provider's") + " events of type " + r.type() + ", received "
        + r.since().map(s -> "from " + AdminText.second(s)).orElse("from the oldest kept") + " "
        + r.until().map(u -> "to " + AdminText.second(u)).orElse("to now") + "; legacy events "
        + r.legacy().name().toLowerCase(Locale.ROOT);
  }

  /** The request as the form's parameters, its window fixed as instants ({@code until} now if open). */
  private static Map<String, String> params(BackfillRequest r, Instant now) {
    Map<String, String> p = new LinkedHashMap<>();
    p.put("handler", String.join(",", r.handlers()));
    p.put("provider", r.provider().orElse(""));
    p.put("type", r.type());
    p.put("since", r.since().map(Instant::toString).orElse(""));
    p.put("until", r.until().orElse(now).toString());
    p.put("legacy", r.legacy().name().toLowerCase(Locale.ROOT));
    p.put("maxPerSecond", Integer.toString(r.maxPerSecond()));
    return p;
  }

  private static String field(String name, String label, String placeholder, String value) {
    return "<label>" + label + " <input name=\"" + name + "\" placeholder=\"" + escape(placeholder) + "\" value=\""
        + escape(value) + "\"></label>";
  }

  private static void dd(StringBuilder h, String name, String text) {
    h.append("<dt>").append(name).append("</dt><dd>").append(escape(text)).append("</dd>");
  }

  private static LegacyEvents legacy(String v) {
    try {
      return LegacyEvents.valueOf(v.toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("legacy must be skip or apply, but was '" + v + "'");
    }
  }

  private static int number(String name, String v) {
    try {
      return Integer.parseInt(v);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(name + " must be a number, but was '" + v + "'");
    }
  }

  private static Optional<String> param(HttpServletRequest req, String name) {
    String v = req.getParameter(name);
    return v == null || v.isBlank() ? Optional.empty() : Optional.of(v.trim());
  }
}
