package dev.hookledger.samples.demo;

import dev.hookledger.InboundDelivery;
import dev.hookledger.runtime.admin.EventDetail;
import dev.hookledger.runtime.admin.EventSummary;
import dev.hookledger.runtime.admin.InboxAdmin;
import dev.hookledger.samples.app.ExpectedState;
import dev.hookledger.samples.traffic.SampleSigners;
import dev.hookledger.samples.traffic.WebhookClient;
import dev.hookledger.samples.traffic.WebhookClient.Answer;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;

/** What every demo step uses: the client, the signers, the ledger, the expectations, the narrator. */
record DemoContext(
    WebhookClient client,
    SampleSigners sign,
    InboxAdmin admin,
    Settlements settlements,
    ExpectedState expected,
    Narrator narrator,
    Clock clock) {

  /** How long a step waits for an event to settle before the demo gives up. */
  static final Duration SETTLE_TIMEOUT = Duration.ofSeconds(20);

  Answer send(InboundDelivery delivery) {
    return client.send(delivery);
  }

  /** Waits until the event settles and returns its ledger row. */
  EventSummary settled(String provider, String eventId) {
    Settlements.Settled s = settlements.await(provider, eventId, SETTLE_TIMEOUT);
    return ledger(provider, s.event().scope(), eventId)
        .orElseThrow(() -> new IllegalStateException(provider + " event " + eventId
            + " settled but the ledger has no row for it"));
  }

  /** The ledger's row for an event, if it has one. */
  Optional<EventSummary> ledger(String provider, String scope, String eventId) {
    return admin.show(provider, scope, eventId).map(EventDetail::summary);
  }

  /**
   * A ledger row as the report shows it: {@code done after 1 attempt}. (The row's duplicate counter
   * is left out: it skips copies that arrive while the event is being processed, so it would
   * contradict the answers shown beside it.)
   */
  /** A ledger row's status as the report and the CLI spell it: {@code done}. */
  static String status(EventSummary row) {
    return row.status().name().toLowerCase(Locale.ROOT);
  }

  static String describe(EventSummary row) {
    return DemoContext.status(row) + " after " + row.attempts() + (row.attempts() == 1 ? " attempt" : " attempts");
  }

  /**
   * An answer as the report shows it: the status and the answer's first clause
   * ({@code 401 rejected (SIGNATURE_MISMATCH)}); the rest, advice for whoever configures the
   * endpoint, is left out.
   */
  static String describe(Answer answer) {
    String body = answer.body().strip();
    int colon = body.indexOf(": ");
    return answer.status() + " " + (colon < 0 ? body : body.substring(0, colon));
  }

  /** Answers as the report shows them, equal ones grouped: {@code 200 accepted, 19 x 200 duplicate}. */
  static String describe(List<Answer> answers) {
    return answers.stream()
        .collect(Collectors.groupingBy(DemoContext::describe, LinkedHashMap::new, Collectors.counting()))
        .entrySet().stream()
        .map(e -> e.getValue() == 1 ? e.getKey() : e.getValue() + " x " + e.getKey())
        .collect(Collectors.joining(", "));
  }
}
