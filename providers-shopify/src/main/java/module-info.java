/** The Shopify adapter (id {@code shopify}), its test signer and its replay source, found by {@code ServiceLoader}. */
module dev.hookledger.shopify {
  requires transitive dev.hookledger.sdk.api;
  requires org.slf4j;

  exports dev.hookledger.shopify;

  provides dev.hookledger.spi.ProviderAdapter with dev.hookledger.shopify.ShopifyAdapter;
  provides dev.hookledger.spi.ReplaySourceFactory with dev.hookledger.shopify.ShopifyReplaySourceFactory;
}
