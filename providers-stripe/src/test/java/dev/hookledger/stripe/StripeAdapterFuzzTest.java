package dev.hookledger.stripe;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.hookledger.Secrets;
import dev.hookledger.spi.testkit.FuzzedDelivery;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;

/**
 * Fuzzes {@link StripeAdapter}'s header check, {@code Stripe-Signature} parsing, timestamp window,
 * event reading and tenant check: any input ends in an event or a {@code DeliveryRejectedException}.
 * A plain build runs it over {@code StripeAdapterFuzzTestInputs/}; see the README to fuzz for a fixed
 * time. {@code @sign: yes} signs at the fixed clock's now, so the fuzzer reaches the JSON.
 */
class StripeAdapterFuzzTest {
  private static final String SECRET = "whsec_fuzz_secret";
  private static final Instant NOW = Instant.parse("2024-06-01T12:00:00Z");
  private static final Clock CLOCK = Clock.fixed(NOW, ZoneOffset.UTC);
  private static final StripeAdapter ADAPTER = new StripeAdapter();
  private static final StripeTestSigner SIGNER = StripeTestSigner.withSecrets(SECRET);

  @FuzzTest(maxDuration = "3m")
  void anyDeliveryEndsInAnEventOrARejection(byte[] input) {
    FuzzedDelivery.parse(input, "/webhooks/stripe").check(ADAPTER, Secrets.of(SECRET), CLOCK,
        (d, body) -> new String[] {"Stripe-Signature", SIGNER.signatureHeader(body, NOW)});
  }
}
