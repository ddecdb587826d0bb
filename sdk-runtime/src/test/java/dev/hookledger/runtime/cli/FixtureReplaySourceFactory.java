package dev.hookledger.runtime.cli;

import dev.hookledger.WebhookEvent;
import dev.hookledger.spi.ReplayReport;
import dev.hookledger.spi.ReplaySource;
import dev.hookledger.spi.ReplaySourceFactory;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * A replay source for the command line's tests, found by ServiceLoader as provider {@code fixture}:
 * it "fetches" the events named by its {@code events} setting and needs an {@code api-key}, as a
 * real provider's source would, so the CLI's settings plumbing (environment and --set) is exercised.
 */
public final class FixtureReplaySourceFactory implements ReplaySourceFactory {
  @Override
  public String provider() {
    return "fixture";
  }

  @Override
  public Map<String, String> settings() {
    return Map.of("api-key", "the fixture API's key", "events", "comma-separated event ids to return");
  }

  @Override
  public ReplaySource create(Map<String, String> settings) {
    if (!"key-123".equals(settings.get("api-key"))) {
      throw new IllegalArgumentException("fixture replay needs the setting api-key (HOOKLEDGER_FIXTURE_API_KEY)");
    }
    List<String> ids = Arrays.asList(settings.getOrDefault("events", "").split(","));
    return new ReplaySource() {
      @Override
      public String provider() {
        return "fixture";
      }

      @Override
      public ReplayReport replay(java.time.Instant since, java.util.Optional<String> typeFilter,
          dev.hookledger.spi.ReplaySink sink) {
        int recorded = 0;
        for (String id : ids) {
          WebhookEvent e = WebhookEvent.builder().provider("fixture").eventId(id).type("fixture.created")
              .body(("{\"id\":\"" + id + "\"}").getBytes(StandardCharsets.UTF_8)).build();
          recorded += sink.offer(e) ? 1 : 0;
        }
        return new ReplayReport(ids.size(), recorded, ids.size() - recorded, 0, 1);
      }

      /** Lists the same events; an id ending in {@code !} is listed as a failed delivery (HTTP 502). */
      @Override
      public java.util.List<dev.hookledger.spi.ListedEvent> list(java.time.Instant since, java.time.Instant until) {
        return ids.stream().filter(id -> !id.isEmpty()).map(id -> new dev.hookledger.spi.ListedEvent("",
            id.replace("!", ""), "fixture.created", since,
            id.endsWith("!") ? dev.hookledger.spi.ListedEvent.Delivery.FAILED
                : dev.hookledger.spi.ListedEvent.Delivery.DELIVERED, id.endsWith("!") ? "HTTP 502" : "HTTP 200"))
            .toList();
      }
    };
  }
}
