package dev.hookledger.samples.traffic;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.stripe.model.Event;
import com.stripe.net.Webhook;
import dev.hookledger.InboundDelivery;
import dev.hookledger.samples.server.SampleSecrets;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** What the demo and the benchmark send is what Stripe sends: stripe-java accepts it. */
class StripeInteropTest {

  @Test
  void stripeJavaVerifiesTheSamplesStripeDeliveriesAndReadsTheirEvent() throws Exception {
    SampleSecrets secrets = SampleSecrets.generate();
    String body = SampleEvents.invoicePaid("evt_interop", "in_interop", "cus_1", 4200, "usd", Instant.now());
    InboundDelivery delivery = new SampleSigners(secrets).stripe(body, Instant.now());
    String header = delivery.headers().first("Stripe-Signature").orElseThrow();

    Event event = Webhook.constructEvent(new String(delivery.bodyBytes(), StandardCharsets.UTF_8), header,
        secrets.stripe());

    assertEquals("evt_interop", event.getId());
    assertEquals("invoice.paid", event.getType());
  }
}
