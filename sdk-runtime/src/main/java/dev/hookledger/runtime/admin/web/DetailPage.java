package dev.hookledger.runtime.admin.web;

import static dev.hookledger.runtime.admin.web.AdminHtml.escape;
import static dev.hookledger.runtime.admin.web.AdminHtml.time;

import dev.hookledger.runtime.EventStatus;
import dev.hookledger.runtime.admin.AdminText;
import dev.hookledger.runtime.admin.EffectDetail;
import dev.hookledger.runtime.admin.EventAttempt;
import dev.hookledger.runtime.admin.EventDetail;
import dev.hookledger.runtime.admin.EventSummary;
import dev.hookledger.runtime.admin.RetrySelection;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One event in full: where it stands (attempt k of N, next attempt, root cause, a retry button where
 * one applies), the whole last error, the headers kept as evidence (signature-like headers are never
 * stored nor shown) and the body. Also the small confirmation page of "retry all dead".
 */
final class DetailPage {
  private DetailPage() {}

  static String render(EventDetail d, List<EffectDetail> effects, Instant now, String base, String nonce) {
    EventSummary s = d.summary();
    StringBuilder h = new StringBuilder(8192 + d.body().length() * 2);
    AdminHtml.head(h, s + " · hookledger", nonce);
    AdminHtml.header(h, base, now, false);
    h.append("<h2 id=\"event-title\">").append(escape(s.toString())).append("</h2>\n");
    if (AdminPage.retryable(s, now)) {
      h.append("<p>");
      AdminPage.retryForm(h, base, s, s.status() == EventStatus.DEAD ? "retry" : "retry now");
      h.append("</p>\n");
    }
    h.append("<dl id=\"fields\">");
    field(h, "status", escape(s.status().displayText()) + (s.stuck() ? " <span class=\"stuck\">stuck</span>"
        : s.failing() ? " <span class=\"failing\">failing</span>" : ""));
    field(h, "attempt", s.attempts() + " of " + s.maxAttempts());
    field(h, "next attempt", s.nextAttemptAt().map(at -> time(at, now)).orElse("-"));
    field(h, "root cause", escape(s.rootCause().orElse("-")));
    field(h, "type", escape(s.type()));
    field(h, "source", s.source().displayText());
    field(h, "received", time(s.receivedAt(), now));
    field(h, "settled", s.settledAt().map(at -> time(at, now)).orElse("-"));
    field(h, "duplicates", Integer.toString(s.duplicates()));
    field(h, "api version", text(d.apiVersion()));
    field(h, "entity", text(d.entityKey()) + (d.entityVersion().isPresent() ? " @" + d.entityVersion().getAsLong() : ""));
    field(h, "occurred", d.occurredAt().map(at -> time(at, now)).orElse("-"));
    field(h, "delivery", text(d.deliveryId()));
    field(h, "secret id", text(d.secretId()));
    field(h, "signed at", d.signedAt().map(AdminText::second).orElse("-"));
    field(h, "lease", text(d.leaseOwner()) + d.leaseUntil().map(u -> " until " + time(u, now)).orElse(""));
    h.append("</dl>\n<h2>last error</h2>\n<pre id=\"last-error\">").append(escape(s.lastError().orElse("none")))
        .append("</pre>\n");
    attempts(h, d, now);
    EffectSection.effects(h, effects, now, base);
    h.append("<h2>headers kept</h2>\n<table id=\"headers\">");
    for (Map.Entry<String, String> e : d.headers().entrySet()) {
      h.append("<tr><th>").append(escape(e.getKey())).append("</th><td>").append(escape(e.getValue())).append("</td></tr>");
    }
    if (d.headers().isEmpty()) {
      h.append("<tr><td>none</td></tr>");
    }
    h.append("</table>\n<h2>body (").append(d.bodyLength()).append(" bytes)</h2>\n<pre id=\"body\">")
        .append(escape(d.body())).append("</pre>\n");
    d.payload().ifPresent(p -> h.append("<h2>payload</h2>\n<pre id=\"payload\">").append(escape(p)).append("</pre>\n"));
    h.append("<p><a href=\"").append(escape(base)).append("/\">« back to the inbox</a></p>\n");
    AdminHtml.end(h, nonce);
    return h.toString();
  }

  /** Every recorded attempt, oldest first, each failure's whole error a click away. */
  private static void attempts(StringBuilder h, EventDetail d, Instant now) {
    if (d.attempts().isEmpty()) {
      return;
    }
    h.append("<h2>attempts</h2>\n<div class=\"wide\"><table id=\"attempts\"><tr><th>attempt</th><th>started</th>")
        .append("<th>node</th><th>duration</th><th>outcome</th><th>cause</th></tr>\n");
    for (EventAttempt a : d.attempts()) {
      h.append("<tr><td>").append(a.attempt()).append(" of ").append(d.summary().maxAttempts()).append("</td><td>")
          .append(time(a.startedAt(), now)).append("</td><td>").append(escape(a.node())).append("</td><td>")
          .append(a.duration().toMillis()).append(" ms</td><td>").append(escape(a.outcome())).append("</td><td>");
      if (a.error().isEmpty()) {
        h.append('-');
      } else {
        h.append("<details><summary>").append(escape(a.cause())).append("</summary><pre>").append(escape(a.error()))
            .append("</pre></details>");
      }
      h.append("</td></tr>\n");
    }
    h.append("</table></div>\n");
  }

  /** "Retry all N dead events?": the count is bound to the action, which refuses if it changed. */
  static String confirmRetryDead(long dead, Instant now, String base, String nonce) {
    return confirm("retry all dead", dead, "dead events", "Each is set back to pending with a full retry budget and runs"
        + " its handlers again: all " + dead + ", not only those a page lists.", "/retry-dead", Map.of(),
        "confirm-retry-dead", "retry all " + dead + " dead events", "/?status=dead", now, base, nonce);
  }

  /**
   * "Retry these N failing (dead) events?" for a selection: bound to the count, as
   * {@link #confirmRetryDead}, and posted with the selection's own parameters.
   */
  static String confirmRetry(RetrySelection s, long n, Instant now, String base, String nonce) {
    boolean dead = s.group() == RetrySelection.Group.DEAD;
    Map<String, String> p = AdminPage.params(s);
    Map<String, String> back = new LinkedHashMap<>(p);
    back.remove("cause");
    return confirm("retry " + s.group().text(), n, escape(s.toString()), dead
            ? "Each is set back to pending with a full retry budget and runs its handlers again."
            : "Each is made due now, keeping its attempts: its next attempt runs at once, not after its backoff.",
        "/retry-matching", p, "confirm-retry", "retry " + n + " " + s.group().text() + " events",
        AdminHtml.url("", "/", back), now, base, nonce);
  }

  private static String confirm(String title, long n, String what, String effect, String action,
      Map<String, String> fields, String buttonId, String button, String next, Instant now, String base, String nonce) {
    StringBuilder h = new StringBuilder(4096);
    AdminHtml.head(h, title + " · hookledger", nonce);
    AdminHtml.header(h, base, now, false);
    if (n == 0) {
      h.append("<p id=\"confirm\">There are no ").append(what).append(" to retry.</p>\n");
    } else {
      h.append("<p id=\"confirm\">Retry all <b>").append(n).append("</b> ").append(what).append("? ").append(effect)
          .append(" If the count has changed when you confirm, nothing is retried.</p>\n")
          .append("<form data-action data-next=\"").append(escape(base + next)).append("\" method=\"post\" action=\"")
          .append(escape(base)).append(action).append("\">");
      fields.forEach((k, v) -> h.append(AdminHtml.hidden(k, v)));
      h.append(AdminHtml.hidden("confirm", Long.toString(n)))
          .append("<button type=\"submit\" class=\"danger\" id=\"").append(buttonId).append("\">").append(escape(button))
          .append("</button> <a href=\"").append(escape(base)).append("/\">cancel</a></form>\n");
    }
    AdminHtml.end(h, nonce);
    return h.toString();
  }

  private static void field(StringBuilder h, String name, String html) {
    h.append("<dt>").append(name).append("</dt><dd>").append(html).append("</dd>");
  }

  private static String text(Optional<String> value) {
    return escape(value.orElse("-"));
  }
}
