package dev.hookledger.runtime.cli;

import dev.hookledger.runtime.admin.DestinationStatus;
import dev.hookledger.runtime.admin.EffectDetail;
import dev.hookledger.runtime.admin.EffectSummary;
import dev.hookledger.runtime.internal.admin.DurationText;
import dev.hookledger.runtime.internal.admin.TimeText;
import java.io.PrintWriter;
import java.util.List;

/**
 * The outbox as {@code status}, {@code list --effects} and {@code show} print it: destinations one
 * line each; effects one line each with their key (what {@code retry --effect} takes) and the root
 * cause; an event's effects each with its attempts, the answers' excerpts included. What a
 * destination answered is printed through the command line's terminal-safe writer, which shows
 * control and bidi characters escaped.
 */
final class EffectRowsText {
  private EffectRowsText() {}

  static String destinations(List<DestinationStatus> destinations) {
    TextTable t = new TextTable("DESTINATION", "PENDING>", "SENDING>", "DEAD>", "OLDEST WAITING", "BREAKER", "PAUSED",
        "RATE/S>");
    destinations.forEach(d -> t.row(d.destination(), d.pending(), d.sending(), d.dead(),
        d.waiting() == 0 ? "-" : DurationText.age(d.oldestWaitingAge()),
        d.breaker().displayText() + (d.consecutiveFailures() > 0 ? " (" + d.consecutiveFailures() + " failures)" : ""),
        d.paused() ? "paused" : "-", d.ratePerSecond() > 0 ? trim(d.ratePerSecond()) : "-"));
    return t.render();
  }

  static String effects(List<EffectSummary> effects) {
    TextTable t = new TextTable("CREATED", "DESTINATION", "STATUS", "ATTEMPTS>", "HTTP>", "EVENT", "KEY", "CAUSE");
    effects.forEach(e -> t.row(TimeText.second(e.createdAt()), e.destination(), e.status().displayText(), e.attempts(),
        e.lastStatusCode() == null ? "-" : e.lastStatusCode(), e.provider() + " " + e.eventId()
            + (e.scope().isEmpty() ? "" : " (scope " + e.scope() + ")"),
        e.idempotencyKey(), e.cause() == null ? "" : e.cause()));
    return t.render();
  }

  /** Each effect of an event: a line of what and where, then its attempts, each answer's excerpt below it. */
  static void details(List<EffectDetail> effects, PrintWriter out) {
    out.println("effects (" + effects.size() + "):");
    for (EffectDetail d : effects) {
      EffectSummary e = d.summary();
      out.println("  " + e.name() + " from " + e.handler() + ": " + e.target() + " to " + e.destination() + ", "
          + e.status().displayText() + " after " + e.attempts() + (e.attempts() == 1 ? " attempt" : " attempts")
          + (e.orderingKey() == null ? "" : ", ordered by " + e.orderingKey()));
      out.println("    key " + e.idempotencyKey() + ", created " + TimeText.second(e.createdAt())
          + (e.status().isWaiting() ? ", next attempt " + TimeText.second(e.availableAt())
              : e.settledAt() == null ? "" : ", settled " + TimeText.second(e.settledAt())));
      for (var a : d.attempts()) {
        out.println("    attempt " + a.attempt() + " " + TimeText.second(a.startedAt()) + " on " + a.node() + ", "
            + a.duration().toMillis() + " ms: " + a.outcome() + (a.statusCode() == null ? "" : ", HTTP " + a.statusCode())
            + (a.error() == null ? "" : ", " + a.error()));
        if (a.responseExcerpt() != null && !a.responseExcerpt().isEmpty()) {
          out.println("      " + a.responseExcerpt().replace("\n", "\n      "));
        }
      }
    }
  }

  private static String trim(double rate) {
    return rate == Math.rint(rate) ? Long.toString((long) rate) : Double.toString(rate);
  }
}
