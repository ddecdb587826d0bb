package dev.hookledger.samples.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.stripe.net.Webhook;
import dev.hookledger.HttpHeaders;
import dev.hookledger.InboundDelivery;
import dev.hookledger.runtime.testing.Await;
import dev.hookledger.samples.Main;
import dev.hookledger.samples.app.SampleState;
import dev.hookledger.samples.testing.ChildJvm;
import dev.hookledger.samples.traffic.SampleEvents;
import dev.hookledger.samples.traffic.WebhookClient;
import java.net.URI;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code serve} as a user runs it: a separate process on the embedded, durable PostgreSQL, fed a
 * delivery signed by Stripe's own library (stripe-java), stopped with SIGTERM, and started again on
 * the same data directory.
 */
class ServeProcessTest {
  private static final String STRIPE_SECRET = "whsec_serve_process_test_0123456789abcdef";

  @TempDir Path dir;

  @Test
  void serveAnswersStripeJavaSignedDeliveryStopsGracefullyAndKeepsItsDataAcrossARestart() throws Exception {
    Path data = dir.resolve("samples-db");
    String body = invoice("evt_official_1");

    try (ChildJvm serve = serve(data)) {
      WebhookClient client = new WebhookClient(URI.create(serve.awaitLine("listening on ")));
      assertTrue(serve.output().contains("DEVELOPMENT ONLY: no secret configured for GITHUB_WEBHOOK_SECRET,"
          + " SHOPIFY_WEBHOOK_SECRET, HOOKLEDGER_ADMIN_TOKEN; generated these for this run."), serve.output());
      String adminToken = serve.output().replaceAll("(?s).*\n  HOOKLEDGER_ADMIN_TOKEN=(dev_[0-9a-f]{48})\n.*", "$1");
      assertTrue(adminToken.matches("dev_[0-9a-f]{48}"), "the generated admin token is printed: " + serve.output());
      assertEquals(1, serve.output().split(java.util.regex.Pattern.quote(adminToken), -1).length - 1, "printed once");
      assertTrue(serve.output().contains("\n  GITHUB_WEBHOOK_SECRET=dev_"), serve.output());
      assertTrue(serve.output().contains("\n  SHOPIFY_WEBHOOK_SECRET=shpss_dev_"), serve.output());
      assertTrue(!serve.output().contains(STRIPE_SECRET), "a configured secret is never printed");
      assertTrue(serve.output().contains("database: embedded PostgreSQL 17, data in " + data.toAbsolutePath()
          + " (durable commits on)"), serve.output());

      assertEquals("200 accepted", client.send(signedByStripeJava(body)).toString());
      Await.until("the invoice is booked", () -> Long.valueOf(1234).equals(balance(client)));
      assertTrue(client.get("/admin/status.json", adminToken).contains("\"done\""));
      IllegalStateException refused = org.junit.jupiter.api.Assertions.assertThrows(IllegalStateException.class,
          () -> client.get("/admin/status.json"));
      assertEquals("GET /admin/status.json answered 401", refused.getMessage());

      assertEquals(143, serve.terminate(), "the JVM's exit code after SIGTERM");
      assertTrue(serve.output().endsWith("stopped"), serve.output() + "\nstderr: " + serve.stderrText());
    }

    try (ChildJvm again = serve(data)) {
      WebhookClient client = new WebhookClient(URI.create(again.awaitLine("listening on ")));
      assertEquals(1234L, balance(client), "the balance survived the restart");
      // Stripe retries after the restart: the ledger survived too, so it is not booked again
      assertEquals("200 duplicate", client.send(signedByStripeJava(body)).toString());
      assertEquals(1234L, balance(client));
    }
  }

  /** {@code serve} on the embedded database in {@code data}, with only the Stripe secret configured. */
  private ChildJvm serve(Path data) {
    // a 5 s lease (default 30 s): after the SIGKILL below, the restart takes over a lease the killed
    // process may hold once it runs out, and the test need not wait half a minute for that
    return ChildJvm.start(Main.class, List.of("serve", "--port", "0", "--data-dir", data.toString(), "--lease", "5s"),
        Map.of(SampleSecrets.STRIPE_ENV, STRIPE_SECRET), dir);
  }

  private static String invoice(String eventId) {
    return SampleEvents.invoicePaid(eventId, "in_" + eventId, "cus_official", 1234, "usd", Instant.now());
  }

  private static Long balance(WebhookClient client) {
    return SampleState.fromJson(client.get("/sample/state.json")).balances().get("cus_official");
  }

  @Test
  void serveKilledWithoutWarningComesBackWithEveryAcknowledgedDelivery() throws Exception {
    Path data = dir.resolve("crash-db");
    String body = invoice("evt_crash_1");

    try (ChildJvm serve = serve(data)) {
      WebhookClient client = new WebhookClient(URI.create(serve.awaitLine("listening on ")));
      assertEquals("200 accepted", client.send(signedByStripeJava(body)).toString());
      // SIGKILL right after the answer: the JVM dies, its PostgreSQL is left running, orphaned
      serve.kill();
    }

    try (ChildJvm again = serve(data)) {
      WebhookClient client = new WebhookClient(URI.create(again.awaitLine("listening on ")));
      // the acknowledged event was committed before the 200, so the restart finds it and processes it: at
      // once if it was still pending, or once the killed process's lease on it runs out (5 s here),
      // since its insert may have leased it to that process's workers
      Await.until("the invoice is booked after the crash", java.time.Duration.ofSeconds(60),
          () -> Long.valueOf(1234).equals(balance(client)));
      assertEquals("200 duplicate", client.send(signedByStripeJava(body)).toString());
      assertTrue(again.stderrText().contains("left running in " + data.toAbsolutePath()), again.stderrText());
    }
  }

  /** Signs as Stripe does, with stripe-java's own HMAC ({@code Webhook.Util}), not hookledger's signer. */
  static InboundDelivery signedByStripeJava(String body) throws Exception {
    long t = Webhook.Util.getTimeNow();
    String v1 = Webhook.Util.computeHmacSha256(STRIPE_SECRET, t + "." + body);
    HttpHeaders headers = HttpHeaders.builder()
        .add("Content-Type", "application/json; charset=utf-8")
        .add("Stripe-Signature", "t=" + t + ",v1=" + v1)
        .build();
    return InboundDelivery.post("/webhooks/stripe", headers, body);
  }
}
