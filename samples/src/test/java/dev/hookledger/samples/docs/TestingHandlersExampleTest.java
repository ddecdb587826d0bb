package dev.hookledger.samples.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.hookledger.InboundDelivery;
import dev.hookledger.OnEvent;
import dev.hookledger.Secrets;
import dev.hookledger.runtime.EventStatus;
import dev.hookledger.runtime.WebhookRuntime;
import dev.hookledger.runtime.admin.EventSummary;
import dev.hookledger.runtime.testing.TestDatabase;
import dev.hookledger.runtime.testkit.SignedDeliveries;
import dev.hookledger.samples.traffic.SampleEvents;
import dev.hookledger.stripe.StripeAdapter;
import dev.hookledger.stripe.StripeTestSigner;
import java.net.URI;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * docs/getting-started.md's "Testing your handlers" runs as written: a delivery signed by Stripe's test
 * signer, handed to a started runtime, settles {@code done} once its handler committed.
 */
class TestingHandlersExampleTest {
  private static final String STRIPE_SECRET = "whsec_docs_0123456789abcdef0123456789ab";

  static final class Paid {
    @OnEvent("invoice.paid")
    void paid() {}
  }

  @Test
  void aSignedDeliverySettlesDoneThroughTheHandler() {
    TestDatabase.Database db = TestDatabase.create();
    try (WebhookRuntime runtime = WebhookRuntime.builder().dataSource(db.dataSource())
        .provider(new StripeAdapter(), Secrets.of(STRIPE_SECRET)).handlers(new Paid()).build()) {
      runtime.migrate();
      runtime.start();
      String invoicePaidJson = SampleEvents.invoicePaid("evt_docs_1", "in_docs_1", "cus_ada", 4200, "usd",
          Instant.now());

      SignedDeliveries deliveries = SignedDeliveries.to(runtime);                  // a started runtime
      EventSummary settled = deliveries.deliverAndSettle("stripe",
          StripeTestSigner.withSecrets(STRIPE_SECRET).delivery(invoicePaidJson, Instant.now()));   // the runtime's secret
      assertEquals(EventStatus.DONE, settled.status());                                // the handler committed
    }
  }

  /** The page's second half, compiled: the same delivery through a running filter over HTTP. */
  static void overHttp(InboundDelivery delivery) {
    // or through your running filter, over HTTP, as the provider would post it:
    SignedDeliveries.Answer answer = SignedDeliveries.post(URI.create("http://127.0.0.1:8080"), delivery);
    assertEquals(200, answer.status());
  }
}
