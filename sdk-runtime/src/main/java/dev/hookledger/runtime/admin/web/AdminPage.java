package dev.hookledger.runtime.admin.web;

import static dev.hookledger.runtime.admin.web.AdminHtml.escape;
import static dev.hookledger.runtime.admin.web.AdminHtml.hidden;

import dev.hookledger.runtime.EventStatus;
import dev.hookledger.runtime.RefusedDeliveries;
import dev.hookledger.runtime.admin.AdminText;
import dev.hookledger.runtime.admin.AfterCommitFailureCount;
import dev.hookledger.runtime.admin.Backfill;
import dev.hookledger.runtime.admin.CauseCount;
import dev.hookledger.runtime.admin.EventPage;
import dev.hookledger.runtime.admin.EventSummary;
import dev.hookledger.runtime.admin.InboxAdmin;
import dev.hookledger.runtime.admin.InboxStatus;
import dev.hookledger.runtime.admin.RefusedCount;
import dev.hookledger.runtime.admin.RetrySelection;
import dev.hookledger.runtime.admin.StatusCount;
import dev.hookledger.runtime.admin.StatusFilter;
import dev.hookledger.runtime.admin.Throughput;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The admin overview, for a person at a 1280 px screen: summary counts with the alarming ones
 * highlighted (dead, failing, stuck, an old waiting event), the last hour's activity, counts per
 * provider, then one list of events (tabs for failing, stuck, dead and recent; filters by provider,
 * type and status; keyset pages) with each event on one line: attempt k of N, next attempt, root
 * cause, and a retry button where one applies; below, the deliveries this node refused. Every value
 * from the ledger or a sender is escaped.
 */
final class AdminPage {
  /** A waiting event older than this is highlighted even if nothing is failing or stuck. */
  static final Duration OLD_WAITING = Duration.ofHours(1);
  /** Causes listed, most events first. */
  static final int CAUSES_SHOWN = 10;
  /** Every status, in processing order, as the counts table heads its columns. */
  private static final List<String> STATUS_NAMES =
      Arrays.stream(EventStatus.values()).map(EventStatus::displayText).toList();

  /** The filters of the shown list, as the request gave them ({@code status} may be {@code all}). */
  record Filters(String status, String provider, String type, String id, String after) {
    Map<String, String> params() {
      Map<String, String> p = new LinkedHashMap<>();
      p.put("status", status);
      p.put("provider", provider);
      p.put("type", type);
      p.put("id", id);
      return p;
    }
  }

  private AdminPage() {}

  /**
   * @param refusedCounts the refusals of every node on the ledger in the last 24 hours, as
   *     {@code status} shows them ({@link InboxAdmin#refusedCounts()})
   * @param refused this node's refused deliveries, for the last few requests it kept; null for a page
   *     over an {@link InboxAdmin} alone
   * @param backfills the ledger's backfills, newest first
   * @param afterCommitFailures the {@code afterCommit} actions that threw, per provider: a card when any did
   */
  static String render(InboxStatus status, List<RefusedCount> refusedCounts, RefusedDeliveries refused,
      List<CauseCount> causes, Throughput throughput, EventPage page, Filters filters, String error, String base,
      String nonce, List<Backfill> backfills, List<AfterCommitFailureCount> afterCommitFailures) {
    StringBuilder h = new StringBuilder(16_384);
    AdminHtml.head(h, "hookledger inbox", nonce);
    AdminHtml.header(h, base, status.asOf(), true);
    cards(h, status, refusedCounts, afterCommitFailures, base);
    h.append("<div class=\"top\">");
    ActivityChart.render(h, throughput);
    counts(h, status);
    causes(h, causes, base);
    h.append("</div>\n");
    tabs(h, status, filters, base);
    filterForm(h, status, filters, base);
    if (error != null) {
      h.append("<p id=\"filter-error\" class=\"stuck\">").append(escape(error)).append("</p>\n");
    } else {
      events(h, page, status.asOf(), filters, base);
    }
    RefusedSection.render(h, refusedCounts, refused, status.asOf());
    BackfillSection.render(h, backfills, status.asOf(), base);
    AdminHtml.end(h, nonce);
    return h.toString();
  }

  private static void cards(StringBuilder h, InboxStatus s, List<RefusedCount> refused,
      List<AfterCommitFailureCount> afterCommit, String base) {
    h.append("<div class=\"cards\" id=\"summary\">");
    card(h, "failing", AdminText.counted(s.failing()), s.failing() > 0, "waiting after a failed attempt", link(base, "failing"));
    card(h, "stuck", AdminText.counted(s.stuck()), s.stuck() > 0, "due over " + AdminText.duration(s.stuckAfter())
        + " and taken by no worker", link(base, "stuck"));
    card(h, "dead", Long.toString(s.dead()), s.dead() > 0, "no attempt left: retry once fixed", link(base, "dead"));
    String oldest = s.oldestWaitingAge().map(AdminText::age).orElse("-");
    boolean oldAlarm = s.oldestWaitingAge().map(a -> a.compareTo(OLD_WAITING) > 0).orElse(false);
    h.append("<a class=\"card").append(oldAlarm ? " alarm" : "").append("\" id=\"card-oldest\" href=\"")
        .append(link(base, "waiting")).append("\" title=\"the oldest pending or processing event\">")
        .append("<span class=\"n\">").append(escape(oldest)).append("</span>oldest waiting</a>");
    card(h, "waiting", AdminText.counted(s.waiting()), false, "pending or processing", link(base, "waiting"));
    card(h, "total", AdminText.total(s), false, "events in the ledger", link(base, "all"));
    card(h, "duplicates", Long.toString(s.duplicates()), false, "duplicate deliveries acknowledged without processing", null);
    RefusedSection.card(h, refused);
    afterCommitCard(h, afterCommit);
    h.append("</div>\n");
  }

  /**
   * The afterCommit actions that threw, an alarm, only when any did: each was lost (at most once, not
   * run again), which nothing else on the page would show.
   */
  private static void afterCommitCard(StringBuilder h, List<AfterCommitFailureCount> failures) {
    if (failures.isEmpty()) {
      return;
    }
    long n = failures.stream().mapToLong(AfterCommitFailureCount::failures).sum();
    AfterCommitFailureCount last = failures.stream().max(Comparator.comparing(AfterCommitFailureCount::lastAt))
        .orElseThrow();
    h.append("<div class=\"card alarm\" id=\"card-aftercommit\" title=\"").append(escape("afterCommit actions that"
        + " threw (at most once: not run again; send what must happen through the outbox); last: " + last.provider()
        + " event " + last.lastEventId() + ": " + last.lastCause())).append("\"><span class=\"n\">").append(n)
        .append("</span>afterCommit failed</div>");
  }

  private static void card(StringBuilder h, String name, String n, boolean alarm, String help, String href) {
    String tag = href == null ? "div" : "a";
    h.append('<').append(tag).append(" class=\"card").append(alarm ? " alarm" : "").append("\" id=\"card-").append(name)
        .append('"').append(href == null ? "" : " href=\"" + href + "\"").append(" title=\"").append(escape(help))
        .append("\"><span class=\"n\">").append(escape(n)).append("</span>").append(name).append("</").append(tag).append('>');
  }

  private static String link(String base, String status) {
    return AdminHtml.link(base, "/", Map.of("status", status));
  }

  private static void counts(StringBuilder h, InboxStatus status) {
    TreeSet<String> providers = new TreeSet<>();
    Map<String, Map<String, Long>> byProvider = new TreeMap<>();
    for (StatusCount c : status.counts()) {
      providers.add(c.provider());
      byProvider.computeIfAbsent(c.provider(), p -> new TreeMap<>()).put(c.status().displayText(), c.events());
    }
    h.append("<div class=\"wide\"><table id=\"counts\"><tr><th>provider</th>");
    STATUS_NAMES.forEach(s -> h.append("<th class=\"n\">").append(s).append("</th>"));
    h.append("</tr>\n");
    for (String p : providers) {
      h.append("<tr><td>").append(escape(p)).append("</td>");
      for (String s : STATUS_NAMES) {
        long n = byProvider.get(p).getOrDefault(s, 0L);
        h.append("<td class=\"n").append(s.equals("dead") && n > 0 ? " status-dead" : "").append("\">").append(n)
            .append("</td>");
      }
      h.append("</tr>\n");
    }
    if (providers.isEmpty()) {
      h.append("<tr><td colspan=\"").append(STATUS_NAMES.size() + 1).append("\">the ledger is empty</td></tr>\n");
    }
    h.append("</table>");
    if (status.waiting() > InboxStatus.COUNTED) {
      h.append("<p class=\"note\" id=\"counts-bounded\">pending and processing: of the ").append(InboxStatus.COUNTED + 1)
          .append(" events due first; more wait</p>");
    }
    h.append("</div>\n");
  }

  /** Failing and dead events grouped by root cause, most first: what one fix would clear. */
  private static void causes(StringBuilder h, List<CauseCount> causes, String base) {
    if (causes.isEmpty()) {
      return;
    }
    h.append("<div class=\"wide\"><table id=\"causes\"><tr><th class=\"n\">events</th><th class=\"n\">failing</th>")
        .append("<th class=\"n\">dead</th><th>cause</th><th></th></tr>\n");
    causes.stream().limit(CAUSES_SHOWN).forEach(c -> {
      h.append("<tr><td class=\"n\">").append(c.events()).append("</td><td class=\"n\">").append(c.failing())
          .append("</td><td class=\"n\">").append(c.dead()).append("</td><td class=\"cause\">").append(escape(c.cause()))
          .append("</td><td class=\"actions\">");
      // the counts here are of the newest failing and dead events; the confirmation counts again, exactly
      if (c.failing() > 0) {
        bulkRetryLink(h, base, RetrySelection.failing().cause(c.cause()), "retry failing…");
      }
      if (c.dead() > 0) {
        bulkRetryLink(h, base, RetrySelection.dead().cause(c.cause()), "retry dead…");
      }
      h.append("</td></tr>\n");
    });
    h.append("</table></div>\n");
  }

  private static void tabs(StringBuilder h, InboxStatus s, Filters f, String base) {
    h.append("<nav class=\"tabs\" id=\"tabs\">");
    tab(h, base, f, "failing", "failing (" + AdminText.counted(s.failing()) + ")");
    tab(h, base, f, "stuck", "stuck (" + AdminText.counted(s.stuck()) + ")");
    tab(h, base, f, "dead", "dead (" + s.dead() + ")");
    tab(h, base, f, "all", "recent");
    h.append("</nav>\n");
  }

  private static void tab(StringBuilder h, String base, Filters f, String status, String label) {
    Map<String, String> p = f.params();
    p.put("status", status);
    h.append("<a id=\"tab-").append(status).append("\" href=\"").append(AdminHtml.link(base, "/", p)).append('"')
        .append(status.equals(f.status()) ? " class=\"on\"" : "").append('>').append(escape(label)).append("</a>");
  }

  private static void filterForm(StringBuilder h, InboxStatus s, Filters f, String base) {
    h.append("<form class=\"filters\" id=\"filters\" method=\"get\" action=\"").append(escape(base)).append("/\">")
        .append("<label>status <select name=\"status\"><option value=\"all\">any</option>");
    for (StatusFilter sf : StatusFilter.values()) {
      h.append("<option").append(sf.text().equals(f.status()) ? " selected" : "").append('>').append(sf.text())
          .append("</option>");
    }
    h.append("</select></label> <label>provider <select name=\"provider\"><option value=\"\">any</option>");
    new TreeSet<>(s.counts().stream().map(StatusCount::provider).toList()).forEach(p ->
        h.append("<option").append(p.equals(f.provider()) ? " selected" : "").append('>').append(escape(p))
            .append("</option>"));
    h.append("</select></label> <label>type <input name=\"type\" size=\"18\" placeholder=\"invoice.* or exact\" value=\"")
        .append(escape(f.type() == null ? "" : f.type())).append("\"></label> <label>id <input name=\"id\" id=\"search-id\"")
        .append(" size=\"18\" placeholder=\"event or delivery id\" value=\"").append(escape(f.id() == null ? "" : f.id()))
        .append("\"></label> <button type=\"submit\">filter</button>");
    if (s.dead() > 0) {
      h.append(" <a class=\"button danger\" id=\"retry-all-dead\" href=\"").append(escape(base))
          .append("/confirm-retry-dead\">retry all ").append(s.dead()).append(" dead…</a>");
    }
    h.append("</form>\n");
    selection(f).ifPresent(sel -> {
      h.append("<p class=\"bulk\">");
      bulkRetryLink(h, base, sel, "retry all " + sel + "…");
      h.append("</p>\n");
    });
  }

  private static void events(StringBuilder h, EventPage page, Instant now, Filters f, String base) {
    List<EventSummary> events = page.events();
    if (events.isEmpty()) {
      h.append("<p id=\"no-events\">no events").append(f.status() == null || f.status().equals("all") ? ""
          : " " + escape(f.status())).append(f.after() == null ? "" : " on this page").append("</p>\n");
    } else {
      EventColumns.head(h);
      for (EventSummary e : events) {
        EventColumns.row(h, e, now, base);
      }
      h.append("</tbody></table>\n");
    }
    h.append("<p class=\"pages\">");
    if (f.after() != null) {
      h.append("<a id=\"first-page\" href=\"").append(AdminHtml.link(base, "/", f.params())).append("\">« newest</a> ");
    }
    if (page.nextCursor().isPresent()) {
      Map<String, String> p = f.params();
      p.put("after", page.nextCursor().get());
      h.append("<a id=\"next-page\" href=\"").append(AdminHtml.link(base, "/", p)).append("\">older »</a>");
    }
    h.append("</p>\n");
  }

  /** The bulk retry a failing or dead list's filters describe, if the list is one of those. */
  private static Optional<RetrySelection> selection(Filters f) {
    if (f.id() != null || !("failing".equals(f.status()) || "dead".equals(f.status()))) {
      return Optional.empty();
    }
    try {
      return Optional.of(RetrySelection.of(RetrySelection.Group.parse(f.status())).provider(f.provider()).type(f.type()));
    } catch (IllegalArgumentException e) {
      return Optional.empty(); // a bad type pattern is reported above the list already
    }
  }

  /** A link to the confirmation of a bulk retry, which counts the selection's events and binds that count. */
  private static void bulkRetryLink(StringBuilder h, String base, RetrySelection s, String label) {
    Map<String, String> p = params(s);
    h.append("<a class=\"button danger retry-matching\" href=\"").append(AdminHtml.link(base, "/confirm-retry", p))
        .append("\">").append(escape(label)).append("</a>");
  }

  /** A selection as the parameters of {@code /confirm-retry} and {@code /retry-matching}. */
  static Map<String, String> params(RetrySelection s) {
    Map<String, String> p = new LinkedHashMap<>();
    p.put("status", s.group().text());
    s.provider().ifPresent(v -> p.put("provider", v));
    s.type().ifPresent(v -> p.put("type", v));
    s.cause().ifPresent(v -> p.put("cause", v));
    return p;
  }

  /** Dead events, and pending ones not yet due (failing, backing off): what {@link InboxAdmin#retry} accepts. */
  static boolean retryable(EventSummary e, Instant now) {
    return e.status() == EventStatus.DEAD || e.status() == EventStatus.PENDING && e.availableAt().isAfter(now);
  }

  static void retryForm(StringBuilder h, String base, EventSummary e, String label) {
    h.append("<form class=\"inline\" data-action method=\"post\" action=\"").append(escape(base)).append("/retry\">")
        .append(hidden("provider", e.provider())).append(hidden("scope", e.scope())).append(hidden("eventId", e.eventId()))
        .append("<button type=\"submit\" class=\"retry\">").append(label).append("</button></form>");
  }
}
