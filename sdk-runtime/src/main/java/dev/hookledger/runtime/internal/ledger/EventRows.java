package dev.hookledger.runtime.internal.ledger;

import static dev.hookledger.runtime.internal.ledger.EventTable.*;

import dev.hookledger.WebhookEvent;
import java.util.List;
import org.jooq.Field;
import org.jooq.Record;

/** Converts between a {@link WebhookEvent} and its {@code event} row. */
public final class EventRows {
  /** The columns that rebuild a {@link WebhookEvent}. */
  public static final List<Field<?>> EVENT_COLUMNS = List.of(PROVIDER, SCOPE, EVENT_ID, TYPE,
      API_VERSION, ENTITY_KEY, ENTITY_VERSION, OCCURRED_AT, LIVEMODE, DELIVERY_ID, BODY, PAYLOAD,
      HEADERS, SECRET_ID, SIGNED_AT);

  private EventRows() {}

  /** Rebuilds the event from a row holding {@link #EVENT_COLUMNS}. */
  public static WebhookEvent toEvent(Record r) {
    WebhookEvent.Builder b = WebhookEvent.builder()
        .provider(r.get(PROVIDER))
        .scope(r.get(SCOPE))
        .eventId(r.get(EVENT_ID))
        .type(r.get(TYPE))
        .apiVersion(r.get(API_VERSION))
        .entityKey(r.get(ENTITY_KEY))
        .entityVersion(r.get(ENTITY_VERSION))
        .occurredAt(r.get(OCCURRED_AT))
        .livemode(r.get(LIVEMODE))
        .deliveryId(r.get(DELIVERY_ID))
        .secretId(r.get(SECRET_ID))
        .signedAt(r.get(SIGNED_AT))
        .body(r.get(BODY))
        .payloadJson(r.get(PAYLOAD));
    HeadersJson.read(r.get(HEADERS)).forEach(b::header);
    return b.build();
  }
}
