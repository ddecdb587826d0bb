package dev.hookledger.github;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hookledger.HttpHeaders;
import dev.hookledger.internal.Json;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The GitHub mapping shared by the adapter and a replay source reading the hook deliveries API. */
class GitHubEventFieldsTest {

  @Test
  void valuesFromTheDeliveriesApiMapLikeTheDeliveryHeaders() throws Exception {
    JsonNode payload = Json.parse("{\"action\":\"closed\",\"issue\":{\"id\":3,\"updated_at\":\"2024-01-01T00:00:05Z\"}}"
        .getBytes(StandardCharsets.UTF_8));
    GitHubEventFields fromHeaders = GitHubEventFields.from(HttpHeaders.of(Map.of(
        "X-GitHub-Event", "issues", "X-GitHub-Delivery", "guid-1", "X-GitHub-Hook-ID", "7")), payload);
    GitHubEventFields fromApi = GitHubEventFields.of("issues", "guid-1", "7", payload);

    assertEquals(fromApi, fromHeaders);
    assertEquals(new GitHubEventFields("guid-1", "7", "issues.closed", "issue:3", 1_704_067_205_000_000L, "guid-1"), fromApi);
  }

  @Test
  void resourceWithoutUpdatedAtHasAnEntityButNoVersion() throws Exception {
    JsonNode payload = Json.parse("{\"action\":\"deleted\",\"installation\":{\"id\":5}}".getBytes(StandardCharsets.UTF_8));
    GitHubEventFields f = GitHubEventFields.of("installation", "g", "1", payload);
    assertEquals("installation:5", f.entityKey());
    assertEquals(null, f.entityVersion());
  }
}
