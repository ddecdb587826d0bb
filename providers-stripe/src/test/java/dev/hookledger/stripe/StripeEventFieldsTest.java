package dev.hookledger.stripe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.hookledger.Secrets;
import dev.hookledger.WebhookEvent;
import dev.hookledger.spi.json.JsonDocuments;
import dev.hookledger.spi.testing.TextMutations;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

/** The Stripe mapping shared by the adapter and replay sources. */
class StripeEventFieldsTest {

  @Test
  void connectEventIsScopedToItsAccount() throws Exception {
    StripeEventFields f = StripeEventFields.from(JsonDocuments.parse(bytes(
        "{\"id\":\"evt_c\",\"type\":\"payment_intent.succeeded\",\"account\":\"acct_1Abc\",\"created\":1700000001,"
            + "\"livemode\":true,\"data\":{\"object\":{\"id\":\"pi_1\",\"object\":\"payment_intent\"}}}")));
    assertEquals(new StripeEventFields("evt_c", "acct_1Abc", "payment_intent.succeeded", null,
        "payment_intent:pi_1", 1_700_000_001_000_000L, Instant.ofEpochSecond(1700000001), true), f);
  }

  @Test
  void theIdentitySelectionKeepsTheIdentifyingMembersOnly() throws Exception {
    String json = "{\"id\":\"evt_s\",\"type\":\"invoice.paid\",\"created\":1700000001,\"customer_email\":\"a@b.c\","
        + "\"data\":{\"object\":{\"id\":\"in_1\",\"object\":\"invoice\",\"amount_paid\":4200}}}";
    assertEquals("{\"id\":\"evt_s\",\"type\":\"invoice.paid\",\"created\":1700000001,"
        + "\"data\":{\"object\":{\"id\":\"in_1\",\"object\":\"invoice\"}}}",
        StripeAdapter.identitySelection().read(bytes(json)).toString());
  }

  @Test
  void eventFetchedFromTheEventsApiGetsTheSameIdentityAsTheDelivery() throws Exception {
    String json = "{\"id\":\"evt_3\",\"object\":\"event\",\"api_version\":\"2024-06-20\",\"created\":1700000600,"
        + "\"livemode\":false,\"pending_webhooks\":0,\"request\":{\"id\":null,\"idempotency_key\":null},"
        + "\"type\":\"invoice.paid\",\"data\":{\"object\":{\"id\":\"in_1\",\"object\":\"invoice\"}}}";
    WebhookEvent received = new StripeAdapter().verify(
        StripeTestSigner.withSecrets("whsec_x").delivery(json, Instant.ofEpochSecond(1700000600)),
        Secrets.of("whsec_x"), Clock.fixed(Instant.ofEpochSecond(1700000600), ZoneOffset.UTC));
    WebhookEvent fetched = StripeEventFields.from(JsonDocuments.parse(bytes(json))).applyTo(WebhookEvent.builder())
        .body(bytes(json)).build();

    assertEquals(received.provider(), fetched.provider());
    assertEquals(received.scope(), fetched.scope());
    assertEquals(received.eventId(), fetched.eventId());
    assertEquals(received.type(), fetched.type());
    assertEquals(received.apiVersion(), fetched.apiVersion());
    assertEquals(received.entityKey(), fetched.entityKey());
    assertEquals(received.entityVersion(), fetched.entityVersion());
    assertEquals(received.occurredAt(), fetched.occurredAt());
    assertEquals(received.livemode(), fetched.livemode());
  }

  @Test
  void thinV2EventReadsItsIsoCreatedRelatedObjectAndContext() throws Exception {
    StripeEventFields f = StripeEventFields.from(JsonDocuments.parse(bytes(
        "{\"id\":\"evt_test_65R\",\"object\":\"v2.core.event\",\"type\":\"v1.billing.meter.error_report_triggered\","
            + "\"livemode\":false,\"created\":\"2024-09-17T06:20:52.246Z\",\"context\":\"acct_ctx\","
            + "\"related_object\":{\"id\":\"mtr_1\",\"type\":\"billing.meter\",\"url\":\"/v1/billing/meters/mtr_1\"}}")));
    assertEquals("acct_ctx", f.scope());
    assertEquals("billing.meter:mtr_1", f.entityKey());
    assertEquals(Instant.parse("2024-09-17T06:20:52.246Z"), f.occurredAt());
    assertEquals(1_726_554_052_246_000L, f.entityVersion());
  }

  @Test
  void eventWithoutObjectOrCreatedHasNoEntityVersion() throws Exception {
    StripeEventFields f = StripeEventFields.from(JsonDocuments.parse(bytes("{\"id\":\"evt_m\",\"type\":\"account.updated\",\"api_version\":null}")));
    assertEquals("", f.scope());
    assertNull(f.entityKey());
    assertNull(f.entityVersion());
    assertNull(f.occurredAt());
    assertNull(f.livemode());
    assertNull(f.apiVersion());
  }

  private static byte[] bytes(String s) {
    return s.getBytes(java.nio.charset.StandardCharsets.UTF_8);
  }


  /**
   * The adapter reads only {@link StripeEventFields#SELECTION} of a body: over thousands of mutated
   * events (members twice, data that is not an object, a created of every type, cut or broken JSON,
   * roots that are not objects) it finds exactly what the whole tree gives, or refuses with the same
   * message.
   */
  @Test
  void readingOnlyTheSelectedMembersFindsWhatTheWholeTreeFinds() {
    java.util.List<String> seeds = java.util.List.of(
        "{\"id\":\"evt_1\",\"type\":\"invoice.paid\",\"created\":1700000001,\"livemode\":true,"
            + "\"data\":{\"object\":{\"id\":\"in_1\",\"object\":\"invoice\",\"lines\":{\"data\":[1,2,{\"id\":3}]}}},"
            + "\"api_version\":\"2024-06-20\",\"account\":\"acct_1\"}",
        "{\"id\":\"evt_2\",\"type\":\"v2.thin\",\"created\":\"2024-05-01T12:00:00.123Z\",\"context\":\"acct_2\","
            + "\"related_object\":{\"type\":\"invoice\",\"id\":\"in_2\",\"url\":\"/v1/invoices/in_2\"},"
            + "\"data\":[{\"object\":{\"id\":\"x\"}}],\"id\":\"evt_2b\"}",
        "{\"data\":{\"object\":null},\"data\":{\"object\":{\"object\":\"charge\",\"id\":\"ch_1\"}},"
            + "\"type\":{\"nested\":true},\"id\":\"evt_3\",\"livemode\":\"yes\"}");
    String alphabet = "{}[]\":,0123456789abcdeftrulnsidobjectypedata \\";
    int compared = 0;
    for (String text : TextMutations.of(seeds, alphabet, 3, 6_000, 11)) {
      byte[] body = bytes(text);
      assertEquals(outcome(() -> StripeEventFields.from(dev.hookledger.spi.DeliveryChecks.parseJson(body, "the body"))),
          outcome(() -> StripeEventFields.from(StripeEventFields.SELECTION.readBody(body, "the body"))), text);
      compared++;
    }
    assertEquals(6_000, compared);
  }

  private static Object outcome(java.util.function.Supplier<StripeEventFields> read) {
    try {
      return read.get();
    } catch (dev.hookledger.DeliveryRejectedException e) {
      return e.reason() + ": " + e.getMessage();
    }
  }
}
