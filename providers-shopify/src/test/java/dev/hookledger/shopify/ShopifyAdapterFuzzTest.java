package dev.hookledger.shopify;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.hookledger.Secrets;
import dev.hookledger.spi.testkit.FuzzedDelivery;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;

/**
 * Fuzzes {@link ShopifyAdapter}'s header check, HMAC header decoding and header and payload reading
 * (both header flavours, unsigned timestamps): any input ends in an event or a
 * {@code DeliveryRejectedException}. A plain build runs it over {@code ShopifyAdapterFuzzTestInputs/};
 * see the README to fuzz for a fixed time.
 */
class ShopifyAdapterFuzzTest {
  private static final String SECRET = "shpss_fuzz_secret";
  private static final Clock CLOCK = Clock.fixed(Instant.parse("2024-06-01T12:00:00Z"), ZoneOffset.UTC);
  private static final ShopifyAdapter BY_WEBHOOK_ID = new ShopifyAdapter();
  private static final ShopifyAdapter BY_EVENT_ID =
      ShopifyAdapter.builder().identity(ShopifyEventIdentity.EVENT_ID_AND_TOPIC).build();
  private static final ShopifyTestSigner SIGNER = ShopifyTestSigner.withSecret(SECRET);

  @FuzzTest(maxDuration = "3m")
  void anyDeliveryEndsInAnEventOrARejection(byte[] input) {
    FuzzedDelivery fuzzed = FuzzedDelivery.parse(input, "/webhooks/shopify");
    for (ShopifyAdapter adapter : new ShopifyAdapter[] {BY_WEBHOOK_ID, BY_EVENT_ID}) {
      fuzzed.check(adapter, Secrets.of(SECRET), CLOCK,
          (d, body) -> new String[] {"X-Shopify-Hmac-Sha256", SIGNER.hmac(body)});
    }
  }
}
