package dev.hookledger.samples.server;

import static com.github.tomakehurst.wiremock.client.WireMock.equalToJson;
import static com.github.tomakehurst.wiremock.client.WireMock.ok;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.core.WireMockConfiguration;
import com.github.tomakehurst.wiremock.verification.LoggedRequest;
import dev.hookledger.runtime.EffectStatus;
import dev.hookledger.runtime.admin.EffectDetail;
import dev.hookledger.runtime.testing.Await;
import dev.hookledger.runtime.testing.TestDatabase;
import dev.hookledger.samples.traffic.SampleEvents;
import dev.hookledger.samples.traffic.SampleSigners;
import dev.hookledger.samples.traffic.WebhookClient;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * {@code serve --receipt-url URL}: each paid invoice sends a receipt through the outbox, a POST of
 * JSON with the invoice id and its idempotency key, to a WireMock stand-in of a receipts API.
 */
class ServeReceiptsTest {
  private static final Map<String, String> ENV = Map.of(
      SampleSecrets.STRIPE_ENV, "whsec_rc_0123456789abcdef0123456789abcdef", SampleSecrets.GITHUB_ENV,
      "gh_rc_0123456789abcdef", SampleSecrets.SHOPIFY_ENV, "shpss_rc_0123456789abcdef0123456789ab");

  private final WireMockServer receipts = new WireMockServer(WireMockConfiguration.options().dynamicPort());

  @AfterEach
  void stop() {
    receipts.stop();
  }

  @Test
  void aPaidInvoiceSendsOneReceiptWithItsIdempotencyKey() {
    receipts.start();
    receipts.stubFor(post(urlEqualTo("/v1/receipts?source=sample")).willReturn(ok()));
    ByteArrayOutputStream printed = new ByteArrayOutputStream();

    try (SampleApp app = serve(printed, "--receipt-url", receipts.baseUrl() + "/v1/receipts?source=sample")) {
      Instant at = Instant.now();
      WebhookClient client = new WebhookClient(app.uri());
      assertEquals("200 accepted", client.send(new SampleSigners(SampleSecrets.fromEnvironment(ENV)).stripe(
          SampleEvents.invoicePaid("evt_rc1", "in_rc1", "cus_rc", 4200, "usd", at), at)).toString());

      Await.until("the receipt sent", () -> effects(app).size() == 1
          && effects(app).get(0).summary().status() == EffectStatus.DONE);
      EffectDetail receipt = effects(app).get(0);
      assertEquals("receipts", receipt.summary().destination());
      List<LoggedRequest> sent = receipts.findAll(postRequestedFor(urlEqualTo("/v1/receipts?source=sample")));
      assertEquals(1, sent.size());
      assertEquals(receipt.summary().idempotencyKey(), sent.get(0).getHeader("Idempotency-Key"));
      assertTrue(equalToJson("{\"invoice\":\"in_rc1\",\"customer\":\"cus_rc\",\"amountPaid\":4200}")
          .match(sent.get(0).getBodyAsString()).isExactMatch(), sent.get(0).getBodyAsString());
      assertTrue(sent.get(0).getHeader("Content-Type").startsWith("application/json"), sent.get(0).getHeader("Content-Type"));
      assertTrue(printed.toString(StandardCharsets.UTF_8).contains("receipts: POST " + receipts.baseUrl()
          + "/v1/receipts?source=sample for each paid invoice (outbox destination receipts)"), printed.toString());
    }
  }

  @Test
  void withoutTheOptionAPaidInvoiceSendsNothing() {
    try (SampleApp app = serve(new ByteArrayOutputStream())) {
      Instant at = Instant.now();
      assertEquals("200 accepted", new WebhookClient(app.uri()).send(new SampleSigners(SampleSecrets.fromEnvironment(ENV))
          .stripe(SampleEvents.invoicePaid("evt_rc2", "in_rc2", "cus_rc", 100, "usd", at), at)).toString());
      Await.until("evt_rc2 done", () -> app.admin().show("stripe", "", "evt_rc2")
          .map(d -> d.summary().status().isSettled()).orElse(false));

      assertEquals(List.of(), app.admin().outbox().effectsOf("stripe", "", "evt_rc2"));
    }
  }

  @Test
  void aReceiptUrlThatIsNotHttpIsRefusedNamingTheOption() {
    CommandLine.ParameterException e = assertThrows(CommandLine.ParameterException.class,
        () -> serve(new ByteArrayOutputStream(), "--receipt-url", "ftp://receipts.example.com/r"));

    assertEquals("--receipt-url must be an absolute http or https URL, but was 'ftp://receipts.example.com/r'",
        e.getMessage());
  }

  private static List<EffectDetail> effects(SampleApp app) {
    return app.admin().outbox().effectsOf("stripe", "", "evt_rc1");
  }

  private static SampleApp serve(ByteArrayOutputStream printed, String... options) {
    ServeCommand serve = new ServeCommand(new PrintStream(printed, true, StandardCharsets.UTF_8), ENV);
    String[] args = new String[options.length + 4];
    args[0] = "--port";
    args[1] = "0";
    args[2] = "--database-url";
    args[3] = TestDatabase.create().jdbcUrl();
    System.arraycopy(options, 0, args, 4, options.length);
    new CommandLine(serve).parseArgs(args);
    return serve.start();
  }
}
