package dev.hookledger.runtime.outbox;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static dev.hookledger.runtime.outbox.OutboxFixture.effects;
import static dev.hookledger.runtime.outbox.OutboxFixture.number;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.core.WireMockConfiguration;
import dev.hookledger.runtime.WebhookRuntime;
import dev.hookledger.runtime.testing.Await;
import dev.hookledger.runtime.testing.TestDatabase;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A node killed with SIGKILL between the commit of its events (their effects with them) and the
 * sending of those effects, some of them in flight: after a restart every effect is delivered, each
 * key at least once, none lost. With {@code afterCommit} in place of the outbox, every effect not yet
 * sent at the kill was lost for good.
 */
class OutboxCrashTest {
  private static final int EVENTS = 6;

  private final TestDatabase.Database db = OutboxFixture.database();
  private final WireMockServer destination = new WireMockServer(WireMockConfiguration.options().dynamicPort());

  OutboxCrashTest() {
    destination.start();
  }

  @AfterEach
  void stop() {
    destination.stop();
  }

  @Test
  void effectsCommittedByANodeKilledBeforeSendingThemAreAllDeliveredAfterARestart() throws Exception {
    // the destination answers slowly: the killed node's first sends are in flight when it dies
    destination.stubFor(post("/receipts").willReturn(aResponse().withStatus(200).withFixedDelay(1500)));
    URI url = URI.create(destination.baseUrl());
    Process node = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xshare:auto", "-XX:TieredStopAtLevel=1", "-Xmx256m", "-cp", System.getProperty("java.class.path"),
        OutboxNodeMain.class.getName(), db.jdbcUrl(), url.toString(), String.valueOf(EVENTS))
        .redirectError(ProcessBuilder.Redirect.INHERIT).start();
    try {
      awaitLine(node, "received");
      Await.until("every event settled with its effect", Duration.ofSeconds(60), () -> number(db,
          "select count(*) from hookledger.event where status = 'done'") == EVENTS);
      Await.until("a send in flight", Duration.ofSeconds(30), () -> !destination.getAllServeEvents().isEmpty());
    } finally {
      node.destroyForcibly(); // SIGKILL: no shutdown, no commit
      node.waitFor(30, TimeUnit.SECONDS);
    }
    long unsent = number(db, "select count(*) from hookledger.effect where status <> 'done'");
    assertTrue(unsent > 0, "effects were committed and not yet sent when the node died");
    assertEquals(EVENTS, effects(db).size());

    // the destination answers at once from now on; its journal keeps what it heard before the kill
    destination.stubFor(post("/receipts").atPriority(1).willReturn(aResponse().withStatus(200)));
    try (WebhookRuntime restarted = OutboxFixture.builder(db.jdbcUrl(), url, new OutboxFixture.Receipts(0)).build()) {
      restarted.start();
      // those in flight at the kill wait for their 8 s leases to run out
      Await.until("every effect delivered", Duration.ofSeconds(60), () -> number(db,
          "select count(*) from hookledger.effect where status = 'done'") == EVENTS);
    }
    Set<String> keys = new TreeSet<>();
    effects(db).forEach(e -> keys.add(e.get("idempotency_key").toString()));
    Set<String> heard = new TreeSet<>();
    destination.getAllServeEvents().forEach(e -> heard.add(e.getRequest().getHeader("Idempotency-Key")));
    assertEquals(keys, heard, "every key reached the destination at least once");
    assertEquals(0, number(db, "select count(*) from hookledger.effect where status = 'dead'"));
    assertTrue(destination.getAllServeEvents().size() >= EVENTS, "some in flight at the kill were sent twice");
  }

  private static void awaitLine(Process p, String expected) throws Exception {
    BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
    List<String> seen = new java.util.ArrayList<>();
    for (String line = out.readLine(); line != null; line = out.readLine()) {
      if (line.equals(expected)) {
        return;
      }
      seen.add(line);
    }
    throw new AssertionError("the node exited before printing '" + expected + "': " + seen);
  }
}
