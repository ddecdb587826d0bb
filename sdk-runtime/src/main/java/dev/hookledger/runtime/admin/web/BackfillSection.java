package dev.hookledger.runtime.admin.web;

import static dev.hookledger.runtime.admin.web.AdminHtml.escape;
import static dev.hookledger.runtime.admin.web.AdminHtml.time;

import dev.hookledger.runtime.admin.Backfill;
import dev.hookledger.runtime.admin.BackfillStatus;
import dev.hookledger.runtime.admin.InboxAdmin;
import java.time.Instant;
import java.util.List;
import java.util.Locale;

/**
 * The overview's backfills: each with its handlers, selection, a progress bar, its counts and the
 * node running it, newest first ({@link InboxAdmin#backfills()}), a running one with its cancel
 * button; above it, the links to start a backfill and to reconcile ({@link BackfillForm},
 * {@link ReconcilePage}). Started here, with {@code hookledger backfill} or
 * {@link InboxAdmin#startBackfill}; failed events are listed with the failing ones.
 * Handler names and types are the application's text, escaped all the same.
 */
final class BackfillSection {
  /** Backfills shown; the JSON and the command line have all that are kept. */
  static final int SHOWN = 10;

  private BackfillSection() {}

  static void render(StringBuilder h, List<Backfill> backfills, Instant now, String base) {
    h.append("<p id=\"operations\"><a class=\"button\" id=\"start-backfill\" href=\"").append(escape(base))
        .append("/backfill\">start a backfill…</a> <a class=\"button\" id=\"reconcile\" href=\"").append(escape(base))
        .append("/reconcile\">reconcile with a provider…</a></p>\n");
    if (backfills.isEmpty()) {
      return; // most ledgers never run one: no empty section
    }
    h.append("<section id=\"backfills\"><h2>backfills <span class=\"muted\">(hookledger backfill; each handler")
        .append(" applied once per event)</span></h2>\n<div class=\"wide\"><table id=\"backfill-list\"><tr><th>#</th>")
        .append("<th>handlers</th><th>events</th><th>status</th><th>progress</th><th class=\"n\">applied</th>")
        .append("<th class=\"n\">skipped</th><th class=\"n\">failed</th><th>running on</th><th>started</th><th></th></tr>\n");
    for (Backfill b : backfills.subList(0, Math.min(SHOWN, backfills.size()))) {
      long percent = Math.round(b.progress() * 100);
      h.append("<tr id=\"backfill-").append(b.id()).append("\"><td>").append(b.id()).append("</td><td>")
          .append(escape(String.join(", ", b.handlers()))).append("</td><td>")
          .append(escape(b.provider() == null ? "every provider" : b.provider())).append(' ').append(escape(b.type()))
          .append("</td><td>").append(b.status().name().toLowerCase(Locale.ROOT)).append("</td><td>")
          .append("<progress max=\"100\" value=\"").append(percent).append("\">").append(percent)
          .append("%</progress> ").append(percent).append("% <span class=\"muted\">").append(b.visited()).append('/')
          .append(b.total()).append("</span></td><td class=\"n\">").append(b.applied())
          .append("</td><td class=\"n\">").append(b.skipped()).append("</td><td class=\"n")
          .append(b.failed() > 0 ? " stuck" : "").append("\">").append(b.failed()).append("</td><td>")
          .append(escape(b.runningOn().orElse(b.status() == BackfillStatus.RUNNING ? "waiting for a node" : "-")))
          .append("</td><td>").append(time(b.createdAt(), now)).append("</td><td>");
      if (b.status() == BackfillStatus.RUNNING) {
        h.append("<form class=\"inline\" data-action method=\"post\" action=\"").append(escape(base))
            .append("/cancel-backfill\">").append(AdminHtml.hidden("id", Long.toString(b.id())))
            .append("<button type=\"submit\" class=\"danger cancel-backfill\">cancel</button></form>");
      }
      h.append("</td></tr>\n");
    }
    h.append("</table></div></section>\n");
  }
}
