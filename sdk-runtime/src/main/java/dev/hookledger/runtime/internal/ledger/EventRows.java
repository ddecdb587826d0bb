package dev.hookledger.runtime.internal.ledger;

import static dev.hookledger.runtime.internal.ledger.EventTable.*;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import dev.hookledger.WebhookEvent;
import dev.hookledger.internal.Json;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jooq.Field;
import org.jooq.JSONB;
import org.jooq.Record;

/** Converts between a {@link WebhookEvent} and its {@code event} row. */
public final class EventRows {
  private static final TypeReference<Map<String, String>> HEADER_MAP = new TypeReference<>() {};

  /** The columns that rebuild a {@link WebhookEvent}. */
  public static final List<Field<?>> EVENT_COLUMNS = List.of(PROVIDER, SCOPE, EVENT_ID, TYPE,
      API_VERSION, ENTITY_KEY, ENTITY_VERSION, OCCURRED_AT, LIVEMODE, DELIVERY_ID, BODY, PAYLOAD,
      HEADERS, SECRET_ID, SIGNED_AT);

  private EventRows() {}

  /** The values of a new row, waiting ({@code pending}) from {@code now}. */
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
    row.put(BODY, e.body());
    row.put(PAYLOAD, e.payloadWrapped() ? e.payloadJson() : null);
    row.put(HEADERS, JSONB.valueOf(headersJson(e.headers())));
    row.put(SECRET_ID, e.secretId().orElse(null));
    row.put(SIGNED_AT, e.signedAt().orElse(null));
    row.put(SOURCE, source.sql());
    row.put(STATUS, EventStatus.PENDING.sql());
    row.put(ATTEMPTS, 0);
    row.put(AVAILABLE_AT, now);
    row.put(RECEIVED_AT, now);
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
    JSONB headers = r.get(HEADERS);
    if (headers != null) {
      readHeaders(headers.data()).forEach(b::header);
    }
    return b.build();
  }

  private static String headersJson(Map<String, String> headers) {
    try {
      return Json.MAPPER.writeValueAsString(headers);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot write headers as JSON: " + Json.describe(e), e);
    }
  }

  private static Map<String, String> readHeaders(String json) {
    try {
      return Json.MAPPER.readValue(json, HEADER_MAP);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("event.headers is not a JSON object of strings: " + Json.describe(e), e);
    }
  }
}
