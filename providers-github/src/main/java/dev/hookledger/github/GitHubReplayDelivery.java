package dev.hookledger.github;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hookledger.WebhookEvent;
import dev.hookledger.WebhookException;
import dev.hookledger.spi.json.JsonDocuments;
import dev.hookledger.spi.json.RawJson;
import java.io.IOException;
import java.util.Map;
import java.util.Optional;

/**
 * One delivery as {@code GET .../deliveries/{id}} returns it: the request GitHub sent, its headers
 * and its {@code payload}. The payload comes back parsed and re-serialised by the API, so its bytes
 * are kept as the API sent them but are not the bytes GitHub signed (<a href="https://docs.github.com/en/rest/repos/webhooks#get-a-delivery-for-a-repository-webhook">GitHub: get a delivery</a>).
 */
record GitHubReplayDelivery(long id, JsonNode requestHeaders, JsonNode payload, byte[] payloadBytes) {

  static GitHubReplayDelivery read(long id, byte[] body) {
    JsonNode delivery;
    Optional<byte[]> raw;
    try {
      delivery = JsonDocuments.parse(body);
      raw = RawJson.value(body, "request", "payload");
    } catch (IOException e) {
      throw new WebhookException("GitHub delivery " + id + " cannot be read: " + JsonDocuments.describe(e), e);
    }
    JsonNode payload = delivery.path("request").path("payload");
    if (!payload.isObject() || raw.isEmpty()) {
      throw new WebhookException("GitHub delivery " + id + " has no JSON object in request.payload");
    }
    return new GitHubReplayDelivery(id, delivery.path("request").path("headers"), payload, raw.get());
  }

  /** The {@code X-GitHub-Hook-ID} the delivery was sent with, if the API shows it. */
  Optional<String> hookId() {
    for (Map.Entry<String, JsonNode> header : requestHeaders.properties()) {
      if (header.getKey().equalsIgnoreCase(GitHubEventFields.HOOK_ID_HEADER) && header.getValue().isValueNode()) {
        return Optional.of(header.getValue().asText().trim()).filter(v -> !v.isEmpty());
      }
    }
    return Optional.empty();
  }

  /** The event with the identity {@link GitHubEventFields} gives the same delivery received signed. */
  WebhookEvent event(GitHubReplayAttempt attempt, String scope) {
    try {
      return GitHubEventFields.of(attempt.event(), attempt.guid(), scope, payload)
          .applyTo(WebhookEvent.builder())
          .body(payloadBytes)
          .payload(payload)
          .build();
    } catch (WebhookException e) {
      throw new WebhookException("GitHub delivery " + id + " cannot be recorded: " + e.getMessage(), e);
    }
  }
}
