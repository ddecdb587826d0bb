/** The Stripe adapter (id {@code stripe}), its test signer and its replay source, found by {@code ServiceLoader}. */
module dev.hookledger.stripe {
  requires transitive dev.hookledger.sdk.api;
  requires org.slf4j;

  exports dev.hookledger.stripe;

  provides dev.hookledger.spi.ProviderAdapter with dev.hookledger.stripe.StripeAdapter;
  provides dev.hookledger.spi.ReplaySourceFactory with dev.hookledger.stripe.StripeReplaySourceFactory;
}
