package dev.hookledger.samples.providers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.hookledger.DeliveryRejectedException;
import dev.hookledger.InboundDelivery;
import dev.hookledger.RejectionReason;
import dev.hookledger.SecretResolver;
import dev.hookledger.Secrets;
import dev.hookledger.github.GitHubAdapter;
import dev.hookledger.runtime.Receipt;
import dev.hookledger.runtime.WebhookFilter;
import dev.hookledger.runtime.WebhookRuntime;
import dev.hookledger.runtime.WebhookRuntimeBuilder;
import dev.hookledger.runtime.testing.TestDatabase;
import dev.hookledger.runtime.testing.TestServer;
import dev.hookledger.samples.server.SampleSecrets;
import dev.hookledger.samples.traffic.SampleEvents;
import dev.hookledger.samples.traffic.SampleSigners;
import dev.hookledger.samples.traffic.WebhookClient;
import dev.hookledger.shopify.ShopifyAdapter;
import dev.hookledger.spi.ProviderAdapter;
import dev.hookledger.stripe.StripeAdapter;
import dev.hookledger.stripe.StripeTestSigner;
import jakarta.servlet.DispatcherType;
import java.time.Instant;
import java.util.EnumSet;
import java.util.List;
import java.util.UUID;
import org.eclipse.jetty.ee10.servlet.FilterHolder;
import org.junit.jupiter.api.Test;

/**
 * The rules of the door have one owner, the runtime, whatever the provider: the body limit set
 * through it, the refusal of a tenant without secrets, and the URL layout (an adapter is handed the
 * path after its own segment, so a tenant in the path resolves under any prefix).
 */
class RuntimeOwnsTheDoorTest {
  private static final int SMALL = 16;
  private static final Instant NOW = Instant.now();

  private final TestDatabase.Database db = TestDatabase.create();
  private final SampleSecrets secrets = SampleSecrets.generate();
  private final SampleSigners sign = new SampleSigners(secrets);

  /** Each built-in adapter with a default limit far below its delivery's size, and that delivery. */
  private List<Case> cases() {
    return List.of(
        new Case(StripeAdapter.builder().maxBodyBytes(SMALL).build(), secrets.stripe(),
            sign.stripe(SampleEvents.invoicePaid("evt_" + UUID.randomUUID(), "in_1", "cus_1", 1200, "eur", NOW), NOW)),
        new Case(GitHubAdapter.builder().maxBodyBytes(SMALL).build(), secrets.github(),
            sign.github("issues", UUID.randomUUID().toString(),
                SampleEvents.issueOpened("acme/shop", 5, 77, "Refund button missing", NOW))),
        new Case(ShopifyAdapter.builder().maxBodyBytes(SMALL).build(), secrets.shopify(),
            sign.shopify("orders/create", UUID.randomUUID().toString(),
                SampleEvents.order(820982911946154508L, "#1001", "12.00", "paid", NOW))));
  }

  @Test
  void aBodyLimitRaisedThroughTheRuntimeTakesEffectForEveryProvider() {
    for (Case c : cases()) {
      String id = c.adapter().id();
      WebhookRuntimeBuilder builder = runtime().provider(c.adapter(), Secrets.of(c.secret()))
          .maxBodyBytes(id, 1024 * 1024);
      try (WebhookRuntime runtime = started(builder)) {
        // the adapter's own default (16 bytes) is only a default: the runtime's limit is the one
        assertEquals(Receipt.Outcome.ACCEPTED, runtime.receive(id, c.delivery()).outcome(), id);
      }
    }
  }

  @Test
  void aBodyLimitLoweredThroughTheRuntimeTakesEffectForEveryProvider() {
    for (Case c : cases()) {
      String id = c.adapter().id();
      WebhookRuntimeBuilder builder = runtime().provider(c.adapter(), Secrets.of(c.secret()))
          .maxBodyBytes(id, 10);
      try (WebhookRuntime runtime = started(builder)) {
        DeliveryRejectedException e =
            assertThrows(DeliveryRejectedException.class, () -> runtime.receive(id, c.delivery()), id);
        assertEquals(RejectionReason.TOO_LARGE, e.reason(), id);
        assertEquals("body larger than 10 bytes, the limit for provider '" + id + "'", e.getMessage());
      }
    }
  }

  @Test
  void aTenantWithoutSecretsIsRefusedByTheRuntimeForEveryProvider() {
    for (Case c : cases()) {
      String id = c.adapter().id();
      try (WebhookRuntime runtime = started(runtime().provider(c.adapter(), (provider, tenant) -> Secrets.none())
          .maxBodyBytes(id, 1024 * 1024))) {
        String tenant = c.adapter().tenantOf(c.delivery());
        DeliveryRejectedException e =
            assertThrows(DeliveryRejectedException.class, () -> runtime.receive(id, c.delivery()), id);
        assertEquals(RejectionReason.NO_SECRET_CONFIGURED, e.reason(), id);
        assertEquals("no " + id + " webhook secret is configured" + (tenant.isEmpty() ? "" : " for tenant '" + tenant + "'")
            + ", so the delivery cannot be verified", e.getMessage());
      }
    }
  }

  @Test
  void aStripeTenantResolvesUnderACustomPathPrefix() throws Exception {
    String accountSecret = "whsec_account_" + UUID.randomUUID();
    SecretResolver perAccount = (provider, tenant) ->
        tenant.equals("acct_42") ? Secrets.of(accountSecret) : Secrets.none();
    try (WebhookRuntime runtime = started(runtime().provider(new StripeAdapter(), perAccount));
        TestServer server = TestServer.start(context -> context.addFilter(
            new FilterHolder(new WebhookFilter(runtime, "/api/hooks/in/")), "/*", EnumSet.of(DispatcherType.REQUEST)))) {
      String body = SampleEvents.invoicePaid("evt_" + UUID.randomUUID(), "in_1", "cus_1", 1200, "eur", NOW);
      InboundDelivery signed = StripeTestSigner.withSecrets(accountSecret).delivery(body, NOW);

      assertEquals("200 accepted", post(server, "/api/hooks/in/stripe/acct_42", signed));
      // the same account's delivery addressed without the account has no secret: the tenant came from the path
      // (the answer names the failed check only; the configuration is the operator's, in the log)
      assertEquals("401 rejected (NO_SECRET_CONFIGURED): the delivery cannot be verified here",
          post(server, "/api/hooks/in/stripe", signed));
    }
  }

  private WebhookRuntimeBuilder runtime() {
    return WebhookRuntime.builder().dataSource(db.dataSource()).inbox(i -> i.workers(1));
  }

  private static WebhookRuntime started(WebhookRuntimeBuilder builder) {
    WebhookRuntime runtime = builder.build();
    runtime.migrate();
    runtime.start();
    return runtime;
  }

  private static String post(TestServer server, String path, InboundDelivery signed) {
    WebhookClient client = new WebhookClient(server.uri("/"));
    return client.send(InboundDelivery.of("POST", path, signed.headers(), signed.bodyBytes())).toString();
  }

  private record Case(ProviderAdapter adapter, String secret, InboundDelivery delivery) {}
}
