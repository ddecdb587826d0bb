package dev.hookledger;

import static java.util.Objects.requireNonNull;

/**
 * Finds the secrets for a delivery, per provider and per tenant: the Stripe account, the Shopify
 * shop, the GitHub hook. The tenant is read from headers or the path, never from the unverified
 * body; see each adapter's {@link dev.hookledger.spi.ProviderAdapter#tenantOf tenantOf}.
 *
 * <p>Called once per delivery, on the receive path: implementations should answer from memory
 * and must be thread-safe.
 */
@FunctionalInterface
public interface SecretResolver {

  /**
   * The secrets to try for one delivery.
   *
   * @param provider the adapter id
   * @param tenant the tenant the adapter read from the request; empty (never null) if none
   * @return never null; {@link Secrets#none()} when nothing is configured
   */
  Secrets resolve(String provider, String tenant);

  /** The same secrets for every tenant. */
  static SecretResolver of(Secrets secrets) {
    requireNonNull(secrets, "secrets");
    return (provider, tenant) -> secrets;
  }
}
