/**
 * The Stripe adapter (id {@code stripe}), its test signer, its replay source and stripe-java's types
 * as handler parameters, found by {@code ServiceLoader}.
 */
module dev.hookledger.stripe {
  requires transitive dev.hookledger.sdk.api;
  requires org.slf4j;

  exports dev.hookledger.stripe;

  provides dev.hookledger.spi.ProviderAdapter with dev.hookledger.stripe.StripeAdapter;
  provides dev.hookledger.spi.ReplaySourceFactory with dev.hookledger.stripe.StripeReplaySourceFactory;
  // stripe-java's types as handler parameters, reached by name: no requires of a jar's file name
  provides dev.hookledger.spi.LibraryParameters with dev.hookledger.stripe.StripeJavaParameters;
}
