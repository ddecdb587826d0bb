package dev.hookledger.stripe;

import dev.hookledger.InboundDelivery;
import dev.hookledger.spi.ProviderAdapter;
import dev.hookledger.spi.testkit.AdapterContractTest;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.Set;

/** The adapter contract kit applied to {@link StripeAdapter} with its defaults. */
class StripeAdapterContractTest extends AdapterContractTest {

  @Override
  protected ProviderAdapter adapter() {
    return new StripeAdapter();
  }

  @Override
  protected String signatureHeader() {
    return "Stripe-Signature";
  }

  @Override
  protected InboundDelivery sign(String secret, byte[] body, Instant signedAt) {
    return StripeTestSigner.withSecrets(secret).delivery(body, signedAt);
  }

  @Override
  protected String secretValue(String name) {
    return "whsec_contract_" + name + "_7f3a9c";
  }

  @Override
  protected String validBody() {
    return "{\"id\":\"evt_contract_1\",\"object\":\"event\",\"api_version\":\"2024-06-20\",\"created\":1717243200,"
        + "\"livemode\":false,\"type\":\"invoice.paid\",\"data\":{\"object\":{\"id\":\"in_contract_1\",\"object\":\"invoice\"}}}";
  }

  @Override
  protected String nonAsciiBody() {
    return "{\"id\":\"evt_contract_2\",\"object\":\"event\",\"created\":1717243200,\"livemode\":false,"
        + "\"type\":\"customer.updated\",\"data\":{\"object\":{\"id\":\"cus_1\",\"object\":\"customer\",\"name\":\"Zoë Ångström 東京 💳\"}}}";
  }

  @Override
  protected Optional<Duration> timestampTolerance() {
    return Optional.of(StripeAdapter.DEFAULT_TOLERANCE);
  }

  @Override
  protected Set<String> identifyingFields() {
    return Set.of("/id", "/type");
  }
}
