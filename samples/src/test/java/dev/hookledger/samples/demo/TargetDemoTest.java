package dev.hookledger.samples.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hookledger.runtime.EventStatus;
import dev.hookledger.runtime.RetryPolicy;
import dev.hookledger.runtime.admin.EventQuery;
import dev.hookledger.runtime.admin.EventSummary;
import dev.hookledger.runtime.admin.InboxAdmin;
import dev.hookledger.runtime.admin.StatusFilter;
import dev.hookledger.samples.server.SampleApp;
import dev.hookledger.samples.server.SampleDatabase;
import dev.hookledger.samples.server.SampleSecrets;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code demo --target}: a running server's operator rehearses failing and dead events without writing code. */
class TargetDemoTest {
  private static final Map<String, String> ENV = Map.of(SampleSecrets.STRIPE_ENV, "whsec_target_0123456789abcdef0123456789ab",
      SampleSecrets.GITHUB_ENV, "gh-target-0123456789abcdef", SampleSecrets.SHOPIFY_ENV,
      "shpss_target_0123456789abcdef0123456789");

  @Test
  void sendsTheDemosTrafficToARunningServerWhosePoisonEventsFailThenDie() throws Exception {
    RetryPolicy fast = RetryPolicy.builder().firstDelay(Duration.ofMillis(100)).maxAttempts(2).build();
    try (SampleApp app = SampleApp.start(SampleDatabase.temporary(false), SampleSecrets.fromEnvironment(ENV),
        "127.0.0.1", 0, b -> b.inbox(i -> i.retryPolicy(fast).pollInterval(Duration.ofMillis(50))))) {
      ByteArrayOutputStream printed = new ByteArrayOutputStream();

      boolean ok = new TargetDemo(app.uri(), 2, ENV, new PrintStream(printed, true, StandardCharsets.UTF_8),
          Clock.systemUTC()).run();

      String out = printed.toString(StandardCharsets.UTF_8);
      assertTrue(ok, out);
      assertTrue(out.contains(": 401 "), "the forgery is refused: " + out);
      InboxAdmin admin = app.admin();
      long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
      while (admin.status().dead() < 2 && System.nanoTime() < deadline) {
        Thread.sleep(50);
      }
      List<EventSummary> dead = admin.list(EventQuery.builder().status(StatusFilter.DEAD).build()).events();
      assertEquals(2, dead.size(), out);
      for (EventSummary e : dead) {
        assertEquals(2, e.attempts());
        assertTrue(e.rootCause().orElseThrow().contains("EUR"), e.rootCause().orElseThrow());
      }
      assertEquals(1, admin.status().count(EventStatus.DONE), "the paid invoice, once");
      assertEquals(1, admin.status().duplicates(), "the provider retry was a duplicate");
    }
  }

  @Test
  void withoutTheTargetsSecretItSaysWhichToSet() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new TargetDemo(
        java.net.URI.create("http://127.0.0.1:1"), 1, Map.of(), new PrintStream(new ByteArrayOutputStream()),
        Clock.systemUTC()).run());
    assertEquals("demo --target signs with the target's secrets: set STRIPE_WEBHOOK_SECRET to the one serve uses"
        + " (it prints the one it generated)", e.getMessage());
  }
}
