package dev.hookledger.runtime.admin;

import static dev.hookledger.runtime.internal.ledger.EventTable.*;

import dev.hookledger.runtime.internal.ledger.EventTable;
import dev.hookledger.runtime.internal.ledger.HeaderRedaction;
import dev.hookledger.runtime.internal.ledger.HeadersJson;
import dev.hookledger.runtime.internal.ledger.SourceColumn;
import dev.hookledger.runtime.internal.ledger.StatusColumn;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.jooq.Field;
import org.jooq.Record;

/**
 * Maps ledger rows to {@link EventSummary} and {@link EventDetail}, with the admin's maximum
 * attempts and stuck threshold.
 */
final class EventViews {

  private final int maxAttempts;
  private final Field<Boolean> stuck;
  private final List<Field<?>> summaryFields;
  private final List<Field<?>> detailFields;

  EventViews(int maxAttempts, Duration stuckAfter) {
    this.maxAttempts = maxAttempts;
    this.stuck = WaitingRows.stuckField(stuckAfter);
    List<Field<?>> fields = new ArrayList<>(EventTable.summaryColumns());
    fields.add(stuck);
    this.summaryFields = List.copyOf(fields);
    List<Field<?>> whole = new ArrayList<>(EventTable.columns());
    whole.add(stuck);
    this.detailFields = List.copyOf(whole);
  }

  /** The columns a summary reads ({@link EventTable#summaryColumns()}), the stuck test included. */
  List<Field<?>> summaryFields() {
    return summaryFields;
  }

  /** The columns of a summary and of the detail: the whole row, as the event table lists it, and the stuck test. */
  List<Field<?>> detailFields() {
    return detailFields;
  }

  EventSummary summary(Record r) {
    return new EventSummary(r.get(PROVIDER), r.get(SCOPE), r.get(EVENT_ID), r.get(TYPE),
        StatusColumn.parse(r.get(STATUS)), SourceColumn.parse(r.get(SOURCE)), r.get(ATTEMPTS), r.get(DUPLICATES), r.get(RECEIVED_AT), r.get(AVAILABLE_AT),
        r.get(SETTLED_AT), r.get(LAST_ERROR), maxAttemptsOf(r), Boolean.TRUE.equals(r.get(stuck)));
  }

  /**
   * The N of "attempt k of N": what the runtime that last failed or settled the event allowed, so
   * that every reader shows the same; this admin's own only for an event no runtime has touched.
   */
  private int maxAttemptsOf(Record r) {
    Integer recorded = r.get(MAX_ATTEMPTS);
    return recorded == null ? maxAttempts : recorded;
  }

  EventDetail detail(Record r) {
    byte[] body = r.get(BODY);
    byte[] payload = r.get(PAYLOAD);
    EventDetail.Extra extra = new EventDetail.Extra(r.get(API_VERSION), r.get(ENTITY_KEY),
        r.get(ENTITY_VERSION), r.get(OCCURRED_AT), r.get(LIVEMODE), r.get(DELIVERY_ID),
        r.get(LEASE_OWNER), r.get(LEASE_UNTIL));
    return new EventDetail(summary(r), HeaderRedaction.strip(HeadersJson.read(r.get(HEADERS))),
        new String(body, StandardCharsets.UTF_8), body.length,
        payload == null ? null : new String(payload, StandardCharsets.UTF_8), r.get(SECRET_ID),
        r.get(SIGNED_AT), extra, List.of());
  }
}
