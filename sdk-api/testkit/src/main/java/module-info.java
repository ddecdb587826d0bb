/**
 * The adapter contract kit, for a {@code ProviderAdapter}'s own tests: {@code AdapterContractTest},
 * the providers' published vectors, body mutations and fuzzed deliveries
 * ({@code dev.hookledger.spi.testkit}), and test helpers for replay sources
 * ({@code dev.hookledger.spi.testing}).
 */
module dev.hookledger.adapter.testkit {
  requires transitive dev.hookledger.sdk.api;
  // AdapterContractTest is JUnit tests that an adapter's test class inherits
  requires transitive org.junit.jupiter.api;

  exports dev.hookledger.spi.testkit;
  exports dev.hookledger.spi.testing;
  // JUnit finds and calls the inherited test methods reflectively
  opens dev.hookledger.spi.testkit to org.junit.platform.commons;

  // adapterIdIsLowerCaseAndTheAdapterIsFoundByServiceLoader
  uses dev.hookledger.spi.ProviderAdapter;
}
