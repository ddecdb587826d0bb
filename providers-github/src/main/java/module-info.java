/** The GitHub adapter (id {@code github}), its test signer and its replay source, found by {@code ServiceLoader}. */
module dev.hookledger.github {
  requires transitive dev.hookledger.sdk.api;
  requires org.slf4j;

  exports dev.hookledger.github;

  provides dev.hookledger.spi.ProviderAdapter with dev.hookledger.github.GitHubAdapter;
  provides dev.hookledger.spi.ReplaySourceFactory with dev.hookledger.github.GitHubReplaySourceFactory;
}
