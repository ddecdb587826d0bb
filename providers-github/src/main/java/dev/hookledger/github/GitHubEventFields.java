package dev.hookledger.github;

import static dev.hookledger.spi.json.JsonFields.text;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hookledger.DeliveryRejectedException;
import dev.hookledger.HttpHeaders;
import dev.hookledger.RejectionReason;
import dev.hookledger.WebhookEvent;
import dev.hookledger.spi.json.JsonFields;
import dev.hookledger.spi.json.JsonSelection;
import java.time.Instant;
import java.util.Map;

/**
 * How a GitHub delivery (its identity headers plus the parsed payload) maps to
 * {@link WebhookEvent} fields. One mapping serves the {@link GitHubAdapter} and a replay source
 * reading the hook deliveries API (whose {@code request.headers} and {@code request.payload} carry
 * the same values), so that both give an event the same identity in the ledger.
 *
 * <ul>
 *   <li>event id and delivery id: {@code X-GitHub-Delivery}, a GUID kept on redelivery;
 *   <li>scope: {@code X-GitHub-Hook-ID}. GitHub sends one GUID to every hook that receives the
 *       event, so the same GUID arriving through a repository hook and an organization hook is two
 *       deliveries, kept apart by the hook id (empty if the header is absent);
 *   <li>type: {@code X-GitHub-Event}, joined with the payload's {@code action} when there is one
 *       ({@code issues.opened}; {@code push} and {@code ping} have none);
 *   <li>entity key and version where the resource carries {@code updated_at} (<a href="https://docs.github.com/en/webhooks/webhook-events-and-payloads">GitHub: events and payloads</a>):
 *       {@code issues} → {@code issue:<issue.id>}, {@code pull_request} →
 *       {@code pull_request:<pull_request.id>}, {@code issue_comment} and
 *       {@code pull_request_review_comment} → {@code <event>:<comment.id>}, {@code installation} →
 *       {@code installation:<installation.id>}; version = that {@code updated_at} in microseconds
 *       (GitHub gives seconds, so expect ties, which are never stale). It is an ISO-8601 string, or
 *       integer Unix seconds in GitHub App {@code installation} payloads; one that is neither (or
 *       null, or absent) leaves the event without a version, with a warning, and is never a reason
 *       to refuse a verified delivery;
 *   <li>no API version, occurred-at or livemode: GitHub sends none.
 * </ul>
 */
record GitHubEventFields(
    String eventId, String scope, String type, String entityKey, Long entityVersion, String deliveryId) {

  static final String PROVIDER = "github";
  static final String EVENT_HEADER = "X-GitHub-Event";
  static final String DELIVERY_HEADER = "X-GitHub-Delivery";
  static final String HOOK_ID_HEADER = "X-GitHub-Hook-ID";
  private static final String WHAT = "the GitHub payload";

  /** Event name → the payload field holding the resource whose {@code updated_at} orders it. */
  private static final Map<String, String> RESOURCE_FIELD =
      Map.of(
          "issues", "issue",
          "pull_request", "pull_request",
          "issue_comment", "comment",
          "pull_request_review_comment", "comment",
          "installation", "installation");

  /** What {@link #of} reads of a payload of each event (by its {@code X-GitHub-Event}), and of the others. */
  private static final JsonSelection ACTION_ONLY = JsonSelection.members().whole("action");
  private static final Map<String, JsonSelection> SELECTIONS = RESOURCE_FIELD.entrySet().stream()
      .collect(java.util.stream.Collectors.toUnmodifiableMap(Map.Entry::getKey,
          e -> ACTION_ONLY.object(e.getValue(), JsonSelection.members().whole("id").whole("updated_at"))));

  /**
   * The members of a payload {@link #from} reads for {@code headers}' event: a received body is read
   * for these only, the rest of it skipped (a push's commits, a pull request's diff stats).
   */
  static JsonSelection selection(HttpHeaders headers) {
    return SELECTIONS.getOrDefault(headers.first(EVENT_HEADER).map(String::trim).orElse(""), ACTION_ONLY);
  }

  /** Key prefixes where the event name is not the resource name. */
  private static final Map<String, String> KEY_PREFIX = Map.of("issues", "issue");

  /**
   * Reads the fields from a delivery's headers and its parsed JSON payload.
   *
   * @throws DeliveryRejectedException {@code MALFORMED} when {@code X-GitHub-Event} or
   *     {@code X-GitHub-Delivery} is missing or the payload is not an object
   */
  static GitHubEventFields from(HttpHeaders headers, JsonNode payload) {
    return of(
        required(headers, EVENT_HEADER),
        required(headers, DELIVERY_HEADER),
        headers.first(HOOK_ID_HEADER).map(String::trim).orElse(""),
        payload);
  }

  /** Reads the fields from the identity values as the deliveries API reports them. */
  static GitHubEventFields of(String event, String delivery, String hookId, JsonNode payload) {
    JsonFields.requireObject(payload, WHAT);
    String action = text(payload, "action");
    String type = action == null ? event : event + "." + action;
    String entityKey = null;
    Long version = null;
    String field = RESOURCE_FIELD.get(event);
    if (field != null) {
      JsonNode resource = payload.path(field);
      String id = text(resource, "id");
      // an ISO string, or integer Unix seconds in installation payloads; never a reason to refuse
      Instant updated = resource.isObject() ? JsonFields.orderingInstant(resource, "updated_at", WHAT + " " + field) : null;
      if (id != null) {
        entityKey = KEY_PREFIX.getOrDefault(event, event) + ":" + id;
        version = updated == null ? null : JsonFields.micros(updated);
      }
    }
    return new GitHubEventFields(delivery, hookId, type, entityKey, version, delivery);
  }

  /** Copies these fields (and the provider id) into {@code builder}; returns it. */
  WebhookEvent.Builder applyTo(WebhookEvent.Builder builder) {
    return builder
        .provider(PROVIDER)
        .scope(scope)
        .eventId(eventId)
        .type(type)
        .entityKey(entityKey)
        .entityVersion(entityVersion)
        .deliveryId(deliveryId);
  }

  private static String required(HttpHeaders headers, String name) {
    String value = headers.first(name).map(String::trim).orElse("");
    if (value.isEmpty()) {
      throw new DeliveryRejectedException(
          RejectionReason.MALFORMED, name + " header is missing; GitHub sends it with every delivery");
    }
    return value;
  }
}
