package dev.hookledger.stripe;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hookledger.WebhookEvent;
import dev.hookledger.WebhookException;
import dev.hookledger.spi.json.JsonDocuments;
import dev.hookledger.spi.json.RawJson;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * One page of {@code GET /v1/events}: its events, each with the exact bytes Stripe sent for it
 * (there are no signed bytes to keep: a fetched event was never signed) and the identity
 * {@link StripeEventFields} gives a received one.
 */
record StripeReplayPage(List<WebhookEvent> events, boolean hasMore) {
  private static final String WHAT = "Stripe API GET /v1/events answered with ";

  static StripeReplayPage read(byte[] body) {
    JsonNode list;
    List<byte[]> raw;
    try {
      list = JsonDocuments.parse(body);
      raw = RawJson.elements(body, "data");
    } catch (IOException e) {
      throw new WebhookException(WHAT + "a body that is not a list of events: " + JsonDocuments.describe(e), e);
    }
    JsonNode data = list.path("data");
    if (!data.isArray() || data.size() != raw.size()) {
      throw new WebhookException(WHAT + "a body that is not a list of events: no 'data' array");
    }
    List<WebhookEvent> events = new ArrayList<>(data.size());
    for (int i = 0; i < data.size(); i++) {
      events.add(event(data.get(i), raw.get(i)));
    }
    return new StripeReplayPage(List.copyOf(events), list.path("has_more").asBoolean(false));
  }

  /** The id to pass as {@code starting_after} for the next, older page. */
  Optional<String> lastId() {
    return events.isEmpty() ? Optional.empty() : Optional.of(events.get(events.size() - 1).eventId());
  }

  private static WebhookEvent event(JsonNode event, byte[] bytes) {
    try {
      return StripeEventFields.from(event).applyTo(WebhookEvent.builder()).body(bytes).payload(event).build();
    } catch (WebhookException e) {
      throw new WebhookException(WHAT + "an event that cannot be recorded: " + e.getMessage(), e);
    }
  }
}
