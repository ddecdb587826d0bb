package dev.hookledger.samples.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hookledger.samples.testing.RunningSample;
import dev.hookledger.samples.traffic.SampleEvents;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** serve's {@code /metrics}: what a Prometheus scrape reads, the backlog gauges and the runtime's counters. */
class ServeMetricsTest {
  @Test
  void metricsAreScrapedInPrometheusTextWithTheBacklogAndTheDeliveries() throws Exception {
    try (RunningSample sample = new RunningSample()) {
      Instant at = Instant.now();
      assertEquals("200 accepted", sample.client.send(sample.sign.stripe(SampleEvents.subscription("evt_m1", "created",
          "sub_m", "cus_m", "active", "basic", at), at)).toString());
      sample.awaitSettled("evt_m1");

      HttpResponse<String> scrape = HttpClient.newHttpClient().send(
          HttpRequest.newBuilder(sample.app.uri().resolve("/metrics")).GET().build(), HttpResponse.BodyHandlers.ofString());

      assertEquals(200, scrape.statusCode());
      assertTrue(scrape.headers().firstValue("Content-Type").orElseThrow().startsWith("text/plain; version=0.0.4"));
      String body = scrape.body();
      assertTrue(body.contains("\nhookledger_inbox_dead 0.0\n"), body);
      assertTrue(body.contains("\nhookledger_inbox_waiting 0.0\n"), body);
      assertTrue(body.contains("hookledger_events_received_total{provider=\"stripe\"} 1.0"), body);
    }
  }
}
