package dev.hookledger.runtime.internal.ledger;

import static dev.hookledger.runtime.internal.ledger.EventTable.*;

import dev.hookledger.WebhookEvent;
import dev.hookledger.internal.EventBytes;
import dev.hookledger.runtime.EventSource;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jooq.Field;
import org.jooq.Record;

/** Converts between a {@link WebhookEvent} and its {@code event} row. */
public final class EventRows {
  /** The columns that rebuild a {@link WebhookEvent}. */
  public static final List<Field<?>> EVENT_COLUMNS = List.of(PROVIDER, SCOPE, EVENT_ID, TYPE,
      API_VERSION, ENTITY_KEY, ENTITY_VERSION, OCCURRED_AT, LIVEMODE, DELIVERY_ID, BODY, PAYLOAD,
      HEADERS, SECRET_ID, SIGNED_AT);

  private EventRows() {}

  /**
   * The values of a new row received at {@code now}, in its source's first status: waiting
   * ({@code pending}, available from {@code now}), or settled at once for a {@code SHADOW} delivery.
   * A replayed row carries no secret id (no secret was used), and no row a sensitive header.
   */
  public static Map<Field<?>, Object> newRow(WebhookEvent e, EventSource source, Instant now) {
    Map<Field<?>, Object> row = new LinkedHashMap<>();
    row.put(PROVIDER, e.provider());
    row.put(SCOPE, e.scope());
    row.put(EVENT_ID, e.eventId());
    row.put(TYPE, e.type());
    row.put(API_VERSION, e.apiVersion().orElse(null));
    row.put(ENTITY_KEY, e.entityKey().orElse(null));
    row.put(ENTITY_VERSION, e.entityVersion().isPresent() ? e.entityVersion().getAsLong() : null);
    row.put(OCCURRED_AT, e.occurredAt().orElse(null));
    row.put(LIVEMODE, e.livemode().orElse(null));
    row.put(DELIVERY_ID, e.deliveryId().orElse(null));
    // the arrays themselves: a copy per insert would double the memory of a 25 MiB body
    row.put(BODY, EventBytes.body(e));
    row.put(PAYLOAD, e.payloadWrapped() ? EventBytes.payloadJson(e) : null);
    row.put(HEADERS, HeadersJson.write(e.headers()));
    row.put(SECRET_ID, source == EventSource.REPLAY ? null : e.secretId().orElse(null));
    row.put(SIGNED_AT, e.signedAt().orElse(null));
    row.put(SOURCE, SourceColumn.sql(source));
    row.put(STATUS, StatusColumn.sql(SourceColumn.initialStatus(source)));
    row.put(ATTEMPTS, 0);
    row.put(AVAILABLE_AT, now);
    row.put(RECEIVED_AT, now);
    if (StatusColumn.SETTLED.contains(SourceColumn.initialStatus(source))) {
      row.put(SETTLED_AT, now);
    }
    return row;
  }

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
