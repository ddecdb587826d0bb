package dev.hookledger.github;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hookledger.DeliveryRejectedException;
import dev.hookledger.HttpHeaders;
import dev.hookledger.internal.Json;
import dev.hookledger.spi.DeliveryChecks;
import dev.hookledger.spi.testing.TextMutations;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
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

  /**
   * The adapter reads only the members {@link GitHubEventFields#selection} names for the event: over
   * thousands of mutated payloads of each kind of event it finds exactly what the whole tree gives,
   * or refuses with the same message.
   */
  @Test
  void readingOnlyTheSelectedMembersFindsWhatTheWholeTreeFinds() {
    List<String> seeds = List.of(
        "{\"action\":\"closed\",\"issue\":{\"id\":3,\"updated_at\":\"2024-01-01T00:00:05Z\",\"labels\":[{\"id\":1}]},"
            + "\"repository\":{\"id\":9,\"full_name\":\"a/b\"}}",
        "{\"action\":\"created\",\"installation\":{\"id\":5,\"updated_at\":1700000000,\"account\":{\"id\":2}},"
            + "\"installation\":{\"id\":6}}",
        "{\"ref\":\"refs/heads/main\",\"commits\":[{\"id\":\"a1\",\"message\":\"m\"}],\"action\":null,"
            + "\"comment\":[1,2],\"pull_request\":{\"id\":\"7\",\"updated_at\":{\"x\":1}}}");
    List<String> events = List.of("issues", "installation", "push", "issue_comment", "pull_request");
    int compared = 0;
    for (String text : TextMutations.of(seeds, "{}[]\":,0123456789abcdeilnorstu_ ", 3, 6_000, 13)) {
      byte[] body = text.getBytes(StandardCharsets.UTF_8);
      for (String event : events) {
        HttpHeaders headers = HttpHeaders.of(Map.of("X-GitHub-Event", event, "X-GitHub-Delivery", "g"));
        assertEquals(outcome(() -> GitHubEventFields.from(headers, DeliveryChecks.parseJson(body, "the body"))),
            outcome(() -> GitHubEventFields.from(headers, GitHubEventFields.selection(headers).readBody(body, "the body"))),
            event + " " + text);
        compared++;
      }
    }
    assertEquals(30_000, compared);
  }

  private static Object outcome(Supplier<GitHubEventFields> read) {
    try {
      return read.get();
    } catch (DeliveryRejectedException e) {
      return e.reason() + ": " + e.getMessage();
    }
  }
}
