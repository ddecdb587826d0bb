package dev.hookledger.stripe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.hookledger.DeliveryRejectedException;
import dev.hookledger.HttpHeaders;
import dev.hookledger.InboundDelivery;
import dev.hookledger.RejectionReason;
import dev.hookledger.Secrets;
import dev.hookledger.WebhookEvent;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** {@link StripeAdapter} beyond the contract kit: exact messages, header parsing, tenant, options. */
class StripeAdapterTest {
  private static final String SECRET = "whsec_adapter_test";
  private static final Instant T = Instant.ofEpochSecond(1_717_243_200);
  private static final Clock CLOCK = Clock.fixed(T, ZoneOffset.UTC);
  private static final String BODY =
      "{\"id\":\"evt_1\",\"object\":\"event\",\"created\":1717243100,\"type\":\"invoice.paid\","
          + "\"data\":{\"object\":{\"id\":\"in_1\",\"object\":\"invoice\"}}}";

  private final StripeAdapter adapter = new StripeAdapter();
  private final StripeTestSigner signer = StripeTestSigner.withSecrets(SECRET);

  @Test
  void missingHeaderSaysWhoShouldHaveSentIt() {
    assertRejected(
        withSignature(null, BODY), RejectionReason.SIGNATURE_MISSING,
        "Stripe-Signature header is missing: the request was not sent by Stripe, or a proxy removed the header");
  }

  @Test
  void headerWithoutTimestampIsMalformed() {
    assertRejected(
        withSignature("v1=" + "a".repeat(64), BODY), RejectionReason.SIGNATURE_MALFORMED,
        "Stripe-Signature has no timestamp (t=<unix seconds>)");
  }

  @Test
  void nonDecimalTimestampIsMalformed() {
    assertRejected(
        withSignature("t=-1700000000,v1=" + "a".repeat(64), BODY), RejectionReason.SIGNATURE_MALFORMED,
        "Stripe-Signature timestamp (t=) is not a decimal number of seconds of at most 12 digits");
  }

  @Test
  void twoTimestampsAreMalformed() {
    assertRejected(
        withSignature("t=1,t=2,v1=" + "a".repeat(64), BODY), RejectionReason.SIGNATURE_MALFORMED,
        "Stripe-Signature has more than one timestamp (t=)");
  }

  @Test
  void v1OfTheWrongLengthIsMalformed() {
    assertRejected(
        withSignature("t=1717243200,v1=abc", BODY), RejectionReason.SIGNATURE_MALFORMED,
        "Stripe-Signature has no well-formed v1 signature (each must be 64 hex characters)");
  }

  @Test
  void oneWellFormedV1IsEnoughBesideAGarbledOne() {
    String good = signer.signatureHeader(BODY, T);
    WebhookEvent event = adapter.verify(withSignature(good + ",v1=zz", BODY), Secrets.of(SECRET), CLOCK);
    assertEquals("evt_1", event.eventId());
  }

  @Test
  void signatureIsCheckedBeforeTheTimestamp() {
    // stale and signed with another secret: the mismatch is the useful answer, not the clock
    InboundDelivery d = StripeTestSigner.withSecrets("whsec_other").delivery(BODY, T.minusSeconds(3600));
    assertEquals(RejectionReason.SIGNATURE_MISMATCH, reject(d, Secrets.of(SECRET)).reason());
  }

  @Test
  void timestampIsSignedWithTheExactDigitsReceived() {
    byte[] body = BODY.getBytes(StandardCharsets.UTF_8);
    String leadingZero = signer.signatureHeader(body, "0" + T.getEpochSecond());
    assertEquals("evt_1", adapter.verify(withSignature(leadingZero, BODY), Secrets.of(SECRET), CLOCK).eventId());

    // the same timestamp written without the zero is not what was signed
    String reformatted = leadingZero.replace("t=0", "t=");
    assertEquals(RejectionReason.SIGNATURE_MISMATCH, reject(withSignature(reformatted, BODY), Secrets.of(SECRET)).reason());
  }

  @Test
  void mismatchNamesEverySecretIdTried() {
    Secrets two = Secrets.builder().add("2026-11", "whsec_a").add("2026-05", "whsec_b").build();
    DeliveryRejectedException e = reject(signer.delivery(BODY, T), two);
    assertEquals(RejectionReason.SIGNATURE_MISMATCH, e.reason());
    assertEquals(
        "Stripe-Signature matches none of the 2 configured secrets (ids 2026-11, 2026-05): the body was"
            + " probably re-encoded or parsed by a framework before verification (verify the exact raw bytes),"
            + " or the secret is wrong; the whsec_ prefix is part of the key, and each endpoint and each mode"
            + " (test or live) has its own secret",
        e.getMessage());
  }

  @Test
  void tenantIsTheFirstSegmentOfThePathAfterTheProvidersOwnWhateverThePrefix() {
    assertEquals("", adapter.tenantOf(at("/webhooks/stripe", "")));
    assertEquals("", adapter.tenantOf(at("/webhooks/stripe/", "/")));
    assertEquals("acct_1", adapter.tenantOf(at("/webhooks/stripe/acct_1", "/acct_1")));
    assertEquals("acct_1", adapter.tenantOf(at("/shop/hooks/in/stripe/acct_1/extra", "/acct_1/extra")));
    // the adapter reads only what the filter hands it, never the full path's layout
    assertEquals("", adapter.tenantOf(at("/webhooks/stripe/acct_1", "")));
  }

  @Test
  void theTestSignerAddressesATenantUnderTheDefaultPath() {
    assertEquals("acct_9", adapter.tenantOf(signer.path("/webhooks/stripe/acct_9").delivery(BODY, T)));
    assertEquals("", adapter.tenantOf(signer.delivery(BODY, T)));
  }

  @Test
  void bodyThatIsNotJsonIsMalformedOnceTheSignatureHoldsWithoutQuotingIt() {
    // Jackson's own message would quote the token "evt_secretive"; the rejection gives a position only
    assertRejected(
        signer.delivery("{\"id\": evt_secretive}", T), RejectionReason.MALFORMED,
        "the Stripe body cannot be read: malformed JSON at line 1, column 8; the signature holds, so the sender signed it as is");
  }

  @Test
  void jsonThatIsNotAnObjectIsMalformed() {
    assertRejected(signer.delivery("[1,2]", T), RejectionReason.MALFORMED,
        "the Stripe event must be a JSON object, but is a JSON array");
  }

  @Test
  void eventWithoutTypeIsMalformed() {
    assertRejected(signer.delivery("{\"id\":\"evt_1\"}", T), RejectionReason.MALFORMED,
        "the Stripe event has no 'type' (a non-empty string or integer is required)");
  }

  @Test
  void aConfiguredLimitIsOnlyTheDefaultTheRuntimeEnforces() {
    StripeAdapter small = StripeAdapter.builder().maxBodyBytes(10).build();
    assertEquals(10, small.maxBodyBytes());
    // the runtime refuses a body over the limit before verify; the adapter keeps no copy of the rule
    assertEquals("evt_12", small.verify(signer.delivery("{\"id\":\"evt_12\",\"type\":\"x.y\",\"created\":1}", T),
        Secrets.of(SECRET), CLOCK).eventId());
  }

  @Test
  void configuredToleranceIsHonouredOnBothSides() {
    StripeAdapter strict = StripeAdapter.builder().tolerance(Duration.ofSeconds(60)).build();
    strict.verify(signer.delivery(BODY, T.minusSeconds(60)), Secrets.of(SECRET), CLOCK);
    strict.verify(signer.delivery(BODY, T.plusSeconds(60)), Secrets.of(SECRET), CLOCK);
    for (Instant at : new Instant[] {T.minusSeconds(61), T.plusSeconds(61)}) {
      DeliveryRejectedException e = assertThrows(DeliveryRejectedException.class,
          () -> strict.verify(signer.delivery(BODY, at), Secrets.of(SECRET), CLOCK));
      assertEquals(RejectionReason.TIMESTAMP_OUT_OF_TOLERANCE, e.reason());
    }
  }

  @Test
  void builderRefusesBadOptionsNamingTheValue() {
    assertEquals("tolerance must be at least 1 second, but was PT0S",
        assertThrows(IllegalArgumentException.class, () -> StripeAdapter.builder().tolerance(Duration.ZERO)).getMessage());
    assertEquals("tolerance must be at least 1 second, but was PT-5S",
        assertThrows(IllegalArgumentException.class, () -> StripeAdapter.builder().tolerance(Duration.ofSeconds(-5))).getMessage());
    assertEquals("maxBodyBytes must be >= 1, but was 0",
        assertThrows(IllegalArgumentException.class, () -> StripeAdapter.builder().maxBodyBytes(0)).getMessage());
    assertEquals(StripeAdapter.DEFAULT_TOLERANCE, new StripeAdapter().tolerance());
  }

  @Test
  void onlyTheUserAgentIsKeptAsEvidence() {
    WebhookEvent event = adapter.verify(signer.delivery(BODY, T), Secrets.of(SECRET), CLOCK);
    assertEquals(Map.of("user-agent", "Stripe/1.0 (+https://stripe.com/docs/webhooks)"), event.headers());
    assertEquals(Optional.empty(), event.deliveryId());
  }

  @Test
  void signerPutsOneV1PerSecretInOrder() {
    String header = StripeTestSigner.withSecrets("whsec_new", "whsec_old").signatureHeader(BODY, T);
    assertEquals(3, header.split(",").length);
    Secrets oldOnly = Secrets.builder().add("old", "whsec_old").build();
    assertEquals(Optional.of("old"), adapter.verify(withSignature(header, BODY), oldOnly, CLOCK).secretId());
  }

  @Test
  void eventOfAnotherAccountVerifiedWithOneAccountsSecretIsRefused() {
    String connect = BODY.replace("{\"id\":\"evt_1\",", "{\"id\":\"evt_1\",\"account\":\"acct_B\",");
    DeliveryRejectedException e = reject(signer.path("/webhooks/stripe/acct_A").delivery(connect, T), Secrets.of(SECRET));
    assertEquals(RejectionReason.SIGNATURE_MISMATCH, e.reason());
    assertEquals("the event's signed account 'acct_B' is not 'acct_A', whose secret verified it: the secret of one"
        + " connected account cannot vouch for another's events (check which URL each account's endpoint uses)",
        e.getMessage());
  }

  @Test
  void eventVerifiedWithAnAccountsSecretIsScopedToThatAccount() {
    String connect = BODY.replace("{\"id\":\"evt_1\",", "{\"id\":\"evt_1\",\"account\":\"acct_A\",");
    assertEquals("acct_A",
        adapter.verify(signer.path("/webhooks/stripe/acct_A").delivery(connect, T), Secrets.of(SECRET), CLOCK).scope());
    // an event without account at an account's URL still belongs to the account whose secret verified it
    assertEquals("acct_A",
        adapter.verify(signer.path("/webhooks/stripe/acct_A").delivery(BODY, T), Secrets.of(SECRET), CLOCK).scope());
    // a tenant that is no account id (one endpoint per environment, say) leaves the scope to the event
    String other = BODY.replace("{\"id\":\"evt_1\",", "{\"id\":\"evt_1\",\"account\":\"acct_B\",");
    assertEquals("acct_B",
        adapter.verify(signer.path("/webhooks/stripe/live").delivery(other, T), Secrets.of(SECRET), CLOCK).scope());
  }

  @Test
  void createdOfAnotherTypeLeavesTheEventWithoutAVersion() {
    WebhookEvent event = adapter.verify(signer.delivery(BODY.replace("1717243100", "\"yesterday\""), T),
        Secrets.of(SECRET), CLOCK);
    assertEquals(Optional.of("invoice:in_1"), event.entityKey());
    assertEquals(java.util.OptionalLong.empty(), event.entityVersion());
  }

  private static InboundDelivery at(String path, String providerPath) {
    return InboundDelivery.post(path, HttpHeaders.empty(), "").withProviderPath(providerPath);
  }

  private static InboundDelivery withSignature(String signature, String body) {
    HttpHeaders headers = signature == null ? HttpHeaders.empty() : HttpHeaders.of(Map.of("Stripe-Signature", signature));
    return InboundDelivery.post("/webhooks/stripe", headers, body);
  }

  private DeliveryRejectedException reject(InboundDelivery delivery, Secrets secrets) {
    return assertThrows(DeliveryRejectedException.class, () -> adapter.verify(delivery, secrets, CLOCK));
  }

  private void assertRejected(InboundDelivery delivery, RejectionReason reason, String message) {
    DeliveryRejectedException e = reject(delivery, Secrets.of(SECRET));
    assertEquals(reason, e.reason());
    assertEquals(message, e.getMessage());
  }
}
