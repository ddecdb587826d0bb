package dev.hookledger.samples.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hookledger.runtime.testing.Await;
import dev.hookledger.runtime.testing.LedgerRows;
import dev.hookledger.runtime.testing.TestDatabase;
import dev.hookledger.samples.traffic.WebhookClient;
import dev.hookledger.standardwebhooks.StandardWebhooksTestSigner;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * {@code serve} with {@code STANDARD_WEBHOOK_SECRET} set also serves Standard Webhooks senders at
 * {@code /webhooks/standard}, over real HTTP into the ledger; without it, that path is not served.
 */
class ServeStandardWebhooksTest {
  // not Standard Webhooks' published example, which serve refuses: anyone can sign with it
  private static final String SECRET = "whsec_aG9va2xlZGdlci13ZWJ4bWwtc3RhbmRhcmQtdGVzdCE=";
  private static final String BODY = "{\"type\":\"user.created\",\"timestamp\":\"2026-01-01T00:00:00Z\",\"data\":{\"id\":\"u1\"}}";

  @Test
  void aStandardWebhooksDeliveryIsRecordedOnceUnderProviderStandard() {
    ByteArrayOutputStream printed = new ByteArrayOutputStream();
    try (SampleApp app = serve(printed, Map.of(SampleSecrets.STANDARD_ENV, SECRET))) {
      WebhookClient client = new WebhookClient(app.uri());
      StandardWebhooksTestSigner sign = StandardWebhooksTestSigner.withSecrets(SECRET);

      assertEquals("200 accepted", client.send(sign.delivery("msg_serve_1", BODY, Instant.now())).toString());
      assertEquals("200 duplicate", client.send(sign.delivery("msg_serve_1", BODY, Instant.now())).toString());
      assertEquals(401, client.send(StandardWebhooksTestSigner.withSecrets("whsec_AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=")
          .delivery("msg_serve_2", BODY, Instant.now())).status());

      Await.until("msg_serve_1 settled", () -> LedgerRows.event(app.dataSource(), SampleApp.LEDGER_SCHEMA, "msg_serve_1")
          .map(row -> "ignored".equals(row.get("status"))).orElse(false));
      Map<String, Object> row = LedgerRows.event(app.dataSource(), SampleApp.LEDGER_SCHEMA, "msg_serve_1").orElseThrow();
      assertEquals("standard", row.get("provider"));
      assertEquals("user.created", row.get("type"));
      assertTrue(printed.toString(StandardCharsets.UTF_8).contains("/webhooks/stripe | github | shopify | standard"),
          printed.toString(StandardCharsets.UTF_8));
    }
  }

  @Test
  void aSvixSignedTypelessDeliveryWithAnUnprefixedSecretIsRecordedWithTheEmptyType() {
    // SW-1's body: the official libraries' vector has no "type"; Svix-based senders name the headers svix-*
    String typeless = "{\"test\": 2432232314}";
    try (SampleApp app = serve(new ByteArrayOutputStream(),
        Map.of(SampleSecrets.STANDARD_ENV, SECRET.substring("whsec_".length())))) {
      WebhookClient client = new WebhookClient(app.uri());
      StandardWebhooksTestSigner svix = StandardWebhooksTestSigner.withSecrets(SECRET).svixHeaders();

      assertEquals("200 accepted", client.send(svix.delivery("msg_svix_1", typeless, Instant.now())).toString());
      assertEquals(401, client.send(dev.hookledger.InboundDelivery.of("POST", "/webhooks/standard",
          dev.hookledger.HttpHeaders.builder().add("svix-id", "msg_svix_2").build(),
          typeless.getBytes(StandardCharsets.UTF_8))).status());

      Await.until("msg_svix_1 settled", () -> LedgerRows.event(app.dataSource(), SampleApp.LEDGER_SCHEMA, "msg_svix_1")
          .map(row -> "ignored".equals(row.get("status"))).orElse(false));
      assertEquals("", LedgerRows.event(app.dataSource(), SampleApp.LEDGER_SCHEMA, "msg_svix_1").orElseThrow()
          .get("type"));
    }
  }

  @Test
  void withoutTheVariableTheStandardPathIsNotServed() {
    try (SampleApp app = serve(new ByteArrayOutputStream(), Map.of())) {
      assertEquals(404, new WebhookClient(app.uri())
          .send(StandardWebhooksTestSigner.withSecrets(SECRET).delivery("msg_serve_3", BODY, Instant.now())).status());
    }
  }

  private static SampleApp serve(ByteArrayOutputStream printed, Map<String, String> extra) {
    Map<String, String> env = new HashMap<>(Map.of(
        SampleSecrets.STRIPE_ENV, "whsec_sw_0123456789abcdef0123456789abcdef", SampleSecrets.GITHUB_ENV,
        "gh_sw_0123456789abcdef", SampleSecrets.SHOPIFY_ENV, "shpss_sw_0123456789abcdef0123456789ab"));
    env.putAll(extra);
    ServeCommand serve = new ServeCommand(new PrintStream(printed, true, StandardCharsets.UTF_8), env);
    new CommandLine(serve).parseArgs("--port", "0", "--database-url", TestDatabase.create().jdbcUrl());
    return serve.start();
  }
}
