package dev.hookledger.github;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hookledger.WebhookException;
import dev.hookledger.spi.json.JsonFields;
import java.time.Instant;

/**
 * One item of a hook's deliveries list: one attempt to deliver one event ({@code guid}), first or
 * redelivered (<a href="https://docs.github.com/en/rest/repos/webhooks#list-deliveries-for-a-repository-webhook">GitHub: list deliveries</a>, "simple webhook delivery").
 *
 * @param successful whether the endpoint answered 2xx; where {@code status_code} is missing,
 *     whether GitHub's {@code status} is {@code OK}. Redirects count as failures.
 * @param outcome GitHub's words for the attempt: {@code HTTP 502}, or its {@code status} where no code was answered
 */
record GitHubReplayAttempt(
    long id, String guid, Instant deliveredAt, boolean successful, String event, String action, String outcome) {
  private static final String WHAT = "a GitHub webhook delivery";

  static GitHubReplayAttempt read(JsonNode item) {
    try {
      JsonFields.requireObject(item, WHAT);
      JsonNode id = item.get("id");
      if (id == null || !id.canConvertToLong()) {
        throw new WebhookException(WHAT + " has no numeric 'id'");
      }
      Instant deliveredAt = JsonFields.isoInstant(item, "delivered_at", WHAT);
      if (deliveredAt == null) {
        throw new WebhookException(WHAT + " has no 'delivered_at'");
      }
      JsonNode code = item.get("status_code");
      boolean successful = code != null && code.canConvertToInt() && code.asInt() > 0
          ? code.asInt() >= 200 && code.asInt() < 300
          : "OK".equals(item.path("status").asText());
      return new GitHubReplayAttempt(
          id.longValue(),
          JsonFields.requiredText(item, "guid", WHAT),
          deliveredAt,
          successful,
          JsonFields.requiredText(item, "event", WHAT),
          JsonFields.text(item, "action"),
          code != null && code.canConvertToInt() && code.asInt() > 0 ? "HTTP " + code.asInt()
              : item.path("status").asText("unknown"));
    } catch (WebhookException e) {
      throw new WebhookException("GitHub API listed a delivery that cannot be read: " + e.getMessage(), e);
    }
  }

  /** The type the adapter would give this event: {@code event} or {@code event.action}. */
  String type() {
    return action == null ? event : event + "." + action;
  }
}
