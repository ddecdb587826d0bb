package dev.hookledger.stripe;

import static dev.hookledger.spi.json.JsonFields.requiredText;
import static dev.hookledger.spi.json.JsonFields.text;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hookledger.DeliveryRejectedException;
import dev.hookledger.RejectionReason;
import dev.hookledger.WebhookEvent;
import dev.hookledger.spi.Rejections;
import dev.hookledger.spi.json.JsonFields;
import dev.hookledger.spi.json.JsonSelection;
import java.time.Instant;

/**
 * How a Stripe Event object maps to {@link WebhookEvent} fields. One mapping serves both the
 * {@link StripeAdapter} (a received delivery) and a replay source reading {@code GET /v1/events}
 * (the same Event fetched later), so that both give an event the same identity in the ledger.
 *
 * <ul>
 *   <li>event id: {@code id} ({@code evt_...}), the same on every retry and manual resend;
 *   <li>scope: the top-level {@code account} of a Connect event (the connected account; v2 "thin"
 *       events name it {@code context}), empty for the platform's own events;
 *   <li>type: {@code type}, exactly as sent ({@code invoice.paid});
 *   <li>API version: {@code api_version} (null for events older than 2014-10-31);
 *   <li>entity key: {@code data.object.object + ":" + data.object.id} ({@code invoice:in_123}), or
 *       for v2 thin events {@code related_object.type + ":" + related_object.id};
 *   <li>entity version and occurred-at: {@code created}, Unix seconds (an ISO string on v2 events),
 *       as microseconds. Seconds are coarse: events of one object often tie, and ties are never
 *       treated as stale. A {@code created} of another type leaves the event without a version (and
 *       a warning); only {@code id} and {@code type} can make a verified event malformed;
 *   <li>livemode: {@code livemode}. Stripe sends no delivery id.
 * </ul>
 */
record StripeEventFields(
    String eventId,
    String scope,
    String type,
    String apiVersion,
    String entityKey,
    Long entityVersion,
    Instant occurredAt,
    Boolean livemode) {

  static final String PROVIDER = "stripe";

  /** The members {@link #from} reads: what a received body is read for before it is recorded. */
  static final JsonSelection SELECTION = JsonSelection.members()
      .whole("id").whole("type").whole("account").whole("context").whole("api_version").whole("created")
      .whole("livemode")
      .object("data", JsonSelection.members().object("object", JsonSelection.members().whole("object").whole("id")))
      .object("related_object", JsonSelection.members().whole("type").whole("id"));
  private static final String WHAT = "the Stripe event";

  /**
   * Reads the fields of one Stripe Event object.
   *
   * @throws dev.hookledger.DeliveryRejectedException {@code MALFORMED} when it is not an object or
   *     lacks {@code id} or {@code type}
   */
  static StripeEventFields from(JsonNode event) {
    JsonFields.requireObject(event, WHAT);
    String id = requiredText(event, "id", WHAT);
    String type = requiredText(event, "type", WHAT);
    String account = text(event, "account");
    String scope = account != null ? account : text(event, "context");
    Instant created = created(event);
    String entityKey = entityKey(event);
    Long version = created == null || entityKey == null ? null : JsonFields.micros(created);
    JsonNode livemode = event.get("livemode");
    return new StripeEventFields(
        id,
        scope == null ? "" : scope,
        type,
        text(event, "api_version"),
        entityKey,
        version,
        created,
        livemode != null && livemode.isBoolean() ? livemode.booleanValue() : null);
  }

  /**
   * These fields for an event verified with the secret of connected account {@code tenant}: its
   * scope is that account. An event whose signed {@code account} names another is refused: the
   * secret of one account must not vouch for events of another (or of the platform, where
   * {@code account} is absent but the URL names an account, the scope is still the account that
   * verified it).
   *
   * @throws DeliveryRejectedException {@code SIGNATURE_MISMATCH} naming both
   */
  StripeEventFields verifiedBy(String tenant) {
    if (!scope.isEmpty() && !scope.equals(tenant)) {
      throw new DeliveryRejectedException(RejectionReason.SIGNATURE_MISMATCH,
          "the event's signed account '" + Rejections.printable(scope) + "' is not '"
              + Rejections.printable(tenant) + "', whose secret verified it: the secret of one"
              + " connected account cannot vouch for another's events (check which URL each account's endpoint uses)");
    }
    return new StripeEventFields(eventId, tenant, type, apiVersion, entityKey, entityVersion, occurredAt, livemode);
  }

  /** Copies these fields (and the provider id) into {@code builder}; returns it. */
  WebhookEvent.Builder applyTo(WebhookEvent.Builder builder) {
    return builder
        .provider(PROVIDER)
        .scope(scope)
        .eventId(eventId)
        .type(type)
        .apiVersion(apiVersion)
        .entityKey(entityKey)
        .entityVersion(entityVersion)
        .occurredAt(occurredAt)
        .livemode(livemode);
  }

  /** Unix seconds, or an RFC 3339 string on v2 "thin" events; anything else is no version, never a refusal. */
  private static Instant created(JsonNode event) {
    return JsonFields.orderingInstant(event, "created", WHAT);
  }

  private static String entityKey(JsonNode event) {
    JsonNode object = event.path("data").path("object");
    String kind = text(object, "object");
    String id = text(object, "id");
    if (kind == null || id == null) {
      JsonNode related = event.path("related_object");
      kind = text(related, "type");
      id = text(related, "id");
    }
    return kind == null || id == null ? null : kind + ":" + id;
  }
}
