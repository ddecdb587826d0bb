package dev.hookledger.shopify;

import dev.hookledger.InboundDelivery;
import dev.hookledger.spi.ProviderAdapter;
import dev.hookledger.spi.testkit.AdapterContractTest;
import java.time.Instant;
import java.util.Set;

/** The adapter contract kit applied to {@link ShopifyAdapter} with its defaults. */
class ShopifyAdapterContractTest extends AdapterContractTest {

  @Override
  protected ProviderAdapter adapter() {
    return new ShopifyAdapter();
  }

  @Override
  protected String signatureHeader() {
    return "X-Shopify-Hmac-Sha256";
  }

  @Override
  protected InboundDelivery sign(String secret, byte[] body, Instant signedAt) {
    return ShopifyTestSigner.withSecret(secret).triggeredAt(signedAt).delivery("orders/create", body);
  }

  @Override
  protected String validBody() {
    return "{\"id\":820982911946154508,\"admin_graphql_api_id\":\"gid://shopify/Order/820982911946154508\","
        + "\"name\":\"#1001\",\"updated_at\":\"2024-09-10T11:14:00-04:00\",\"financial_status\":\"paid\"}";
  }

  @Override
  protected String nonAsciiBody() {
    return "{\"id\":632910392,\"title\":\"Crème brûlée — 抹茶 🍵\",\"updated_at\":\"2024-09-10T11:14:00-04:00\"}";
  }

  /** Id, topic and shop come from headers: nothing in the payload identifies the event. */
  @Override
  protected Set<String> unsignedOrderingHeaders() {
    return Set.of("X-Shopify-Triggered-At", "X-Shopify-API-Version");
  }
}
