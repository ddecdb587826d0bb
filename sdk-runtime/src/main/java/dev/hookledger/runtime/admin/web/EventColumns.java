package dev.hookledger.runtime.admin.web;

import static dev.hookledger.runtime.admin.web.AdminHtml.escape;
import static dev.hookledger.runtime.admin.web.AdminHtml.time;

import dev.hookledger.runtime.EventStatus;
import dev.hookledger.runtime.admin.EventSummary;
import java.time.Instant;
import java.util.List;

/**
 * The overview's list of events, one column definition each: its heading, its width at a laptop's
 * width (none for the cause, which takes what is left) and its cell. The table's {@code colgroup},
 * heading row, width rules and cells all derive from {@link #ALL}, and each cell carries its heading
 * as {@code data-label} for the narrow layout, where a row becomes a card of labelled lines.
 */
final class EventColumns {
  /** Renders one cell's content (and attributes) for an event. */
  @FunctionalInterface
  interface Cell {
    /** Appends the {@code td}'s attributes after its tag name, then returns its inner HTML. */
    String render(StringBuilder attributes, EventSummary e, Instant now, String base);
  }

  /** A column: its {@code col} class is {@code c-}{@code key}. */
  record Column(String key, String heading, String width, Cell cell) {}

  static final List<Column> ALL = List.of(
      new Column("received", "received", "7em", (a, e, now, base) -> time(e.receivedAt(), now)),
      new Column("provider", "provider", "7em", (a, e, now, base) -> {
        title(a, e.provider() + (e.scope().isEmpty() ? "" : " / " + e.scope()));
        return escape(e.provider()) + (e.scope().isEmpty() ? "" : " <span class=\"muted\">" + escape(e.scope()) + "</span>");
      }),
      new Column("event", "event", "10em", (a, e, now, base) -> {
        title(a, e.eventId());
        return "<a href=\"" + AdminHtml.eventLink(base, e) + "\">" + escape(e.eventId()) + "</a>";
      }),
      new Column("type", "type", "9em", (a, e, now, base) -> {
        title(a, e.type());
        return escape(e.type());
      }),
      new Column("status", "status", "10.5em", (a, e, now, base) -> {
        String status = e.status().displayText();
        a.append(" class=\"status-").append(status).append('"');
        return status + (e.stuck() ? " <span class=\"stuck\">stuck</span>"
            : e.failing() ? " <span class=\"failing\">failing</span>" : "");
      }),
      new Column("attempt", "attempt", "5em", (a, e, now, base) -> e.attempts() + " of " + e.maxAttempts()),
      new Column("next", "next attempt", "8.5em", (a, e, now, base) -> next(e, now)),
      new Column("cause", "cause", null, (a, e, now, base) -> {
        String cause = e.rootCause().orElse("");
        a.append(" class=\"cause\"");
        title(a, cause);
        return escape(cause);
      }),
      new Column("action", "", "7.5em", (a, e, now, base) -> {
        if (!AdminPage.retryable(e, now)) {
          return "";
        }
        StringBuilder form = new StringBuilder();
        AdminPage.retryForm(form, base, e, e.status() == EventStatus.DEAD ? "retry" : "retry now");
        return form.toString();
      }));

  private EventColumns() {}

  /** The table's start: one {@code col} and one heading per column. */
  static void head(StringBuilder h) {
    h.append("<table class=\"events\" id=\"events\"><colgroup>");
    ALL.forEach(c -> h.append("<col class=\"c-").append(c.key()).append("\">"));
    h.append("</colgroup>\n<thead><tr>");
    ALL.forEach(c -> h.append("<th>").append(escape(c.heading())).append("</th>"));
    h.append("</tr></thead>\n<tbody>\n");
  }

  /** One event's row. */
  static void row(StringBuilder h, EventSummary e, Instant now, String base) {
    h.append("<tr data-event=\"").append(escape(e.eventId())).append("\">");
    for (Column c : ALL) {
      StringBuilder attributes = new StringBuilder();
      String inner = c.cell().render(attributes, e, now, base);
      h.append("<td data-label=\"").append(escape(c.heading())).append('"').append(attributes).append('>')
          .append(inner).append("</td>");
    }
    h.append("</tr>\n");
  }

  /** The width rules of the wide layout, one per column that has a width. */
  static String widths() {
    StringBuilder css = new StringBuilder();
    ALL.stream().filter(c -> c.width() != null)
        .forEach(c -> css.append("col.c-").append(c.key()).append("{width:").append(c.width()).append('}'));
    return css.toString();
  }

  private static void title(StringBuilder attributes, String text) {
    attributes.append(" title=\"").append(escape(text)).append('"');
  }

  private static String next(EventSummary e, Instant now) {
    if (e.stuck()) {
      return "<span class=\"stuck\">stuck</span>, due " + time(e.availableAt(), now);
    } else if (e.status() == EventStatus.PROCESSING) {
      return "running";
    } else if (e.nextAttemptAt().isPresent()) {
      Instant at = e.nextAttemptAt().get();
      return at.isAfter(now) ? time(at, now) : "due";
    }
    return "-";
  }
}
