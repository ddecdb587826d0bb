package dev.hookledger.runtime.cli;

import dev.hookledger.runtime.EventStatus;
import dev.hookledger.runtime.admin.EventSummary;
import dev.hookledger.runtime.internal.admin.TimeText;
import dev.hookledger.runtime.internal.ledger.StatusColumn;
import java.time.Instant;
import java.util.List;

/**
 * Events as {@code list} and {@code status} print them: one line each, times to the second, the
 * attempt as "k of N", when the next attempt is due (or that the event is stuck) and the last
 * error's root cause; the whole error is in {@code show}.
 */
final class EventRowsText {
  private EventRowsText() {}

  static String render(List<EventSummary> events, Instant now) {
    TextTable table = new TextTable("RECEIVED", "PROVIDER", "SCOPE", "EVENT", "TYPE", "STATUS", "ATTEMPT",
        "NEXT ATTEMPT", "CAUSE");
    for (EventSummary e : events) {
      table.row(TimeText.second(e.receivedAt()), e.provider(), e.scope().isEmpty() ? "-" : e.scope(), e.eventId(),
          e.type(), StatusColumn.sql(e.status()), e.attempts() + " of " + e.maxAttempts(), next(e, now),
          e.rootCause().orElse(""));
    }
    return table.render();
  }

  /** {@code in 4m 10s (12:04:10Z)}, {@code stuck: due 5m 0s ago}, {@code running}, or {@code -}. */
  static String next(EventSummary e, Instant now) {
    if (e.stuck()) {
      return "stuck: " + (e.status() == EventStatus.PROCESSING ? "lease ran out " : "due ")
          + TimeText.relative(e.availableAt(), now);
    }
    if (e.status() == EventStatus.PROCESSING) {
      return "running";
    }
    return e.nextAttemptAt().map(at -> !at.isAfter(now) ? "due" : TimeText.relative(at, now) + " ("
        + TimeText.second(at).substring(11) + ")").orElse("-");
  }
}
