package dev.hookledger.samples.server;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.hookledger.samples.app.SampleState;
import dev.hookledger.samples.testing.RunningSample;
import dev.hookledger.samples.traffic.SampleEvents;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Events of one entity arriving out of order at the sample app: the handlers with
 * {@code skipStale = true} overwrite blindly, so only the ordering guard keeps the newest state.
 */
class ServeOrderingTest {
  private RunningSample sample;

  @BeforeEach
  void start() {
    sample = new RunningSample();
  }

  @AfterEach
  void stop() {
    sample.close();
  }

  @Test
  void olderSubscriptionVersionArrivingLastIsSkippedAsStale() {
    Instant base = Instant.now().truncatedTo(ChronoUnit.SECONDS);
    sendSettled("evt_s1", SampleEvents.subscription("evt_s1", "created", "sub_1", "cus_ada", "trialing", "basic", base.plusSeconds(1)));
    sendSettled("evt_s3", SampleEvents.subscription("evt_s3", "updated", "sub_1", "cus_ada", "active", "pro", base.plusSeconds(3)));
    sendSettled("evt_s2", SampleEvents.subscription("evt_s2", "updated", "sub_1", "cus_ada", "past_due", "basic", base.plusSeconds(2)));
    assertEquals("stale", sample.status("evt_s2"));
    assertEquals(Map.of("sub_1", new SampleState.Subscription("active", "pro")), sample.state().subscriptions());
  }

  @Test
  void shopifyOrderUpdateArrivingBeforeItsCreateKeepsTheUpdate() {
    Instant created = Instant.now().truncatedTo(ChronoUnit.SECONDS).minusSeconds(60);
    String update = UUID.randomUUID().toString();
    String create = UUID.randomUUID().toString();
    String updateBody = SampleEvents.order(42L, "#1042", "27.50", "paid", created.plusSeconds(30));
    assertEquals("200 accepted", sample.client.send(sample.sign.shopify("orders/updated", update, updateBody)).toString());
    sample.awaitSettled(update);
    assertEquals("200 accepted", sample.client.send(sample.sign.shopify("orders/create", create,
        SampleEvents.order(42L, "#1042", "25.00", "pending", created))).toString());
    sample.awaitSettled(create);
    assertEquals("200 duplicate", sample.client.send(sample.sign.shopify("orders/updated", update, updateBody)).toString());
    assertEquals("stale", sample.status(create));
    assertEquals(Map.of("42", new SampleState.Order("27.50", "paid")), sample.state().orders());
  }

  private void sendSettled(String eventId, String stripeBody) {
    assertEquals("200 accepted", sample.client.send(sample.sign.stripe(stripeBody, Instant.now())).toString());
    sample.awaitSettled(eventId);
  }
}
