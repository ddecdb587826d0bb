package dev.hookledger.samples.traffic;

import dev.hookledger.InboundDelivery;
import dev.hookledger.github.GitHubTestSigner;
import dev.hookledger.samples.server.SampleSecrets;
import dev.hookledger.shopify.ShopifyTestSigner;
import dev.hookledger.stripe.StripeTestSigner;
import java.time.Instant;

/**
 * Signs sample event bodies as Stripe, GitHub and Shopify would, with the providers' public test
 * signers and the secrets the sample server was given. Immutable and thread-safe.
 */
public final class SampleSigners {
  /** The shop every sample Shopify delivery comes from. */
  public static final String SHOP = "hookledger-demo.myshopify.com";

  private final StripeTestSigner stripe;
  private final GitHubTestSigner github;
  private final ShopifyTestSigner shopify;

  public SampleSigners(SampleSecrets secrets) {
    this.stripe = StripeTestSigner.withSecrets(secrets.signingValueOf(SampleSecrets.STRIPE_ENV));
    this.github = GitHubTestSigner.withSecret(secrets.signingValueOf(SampleSecrets.GITHUB_ENV)).withoutSha1();
    this.shopify = ShopifyTestSigner.withSecret(secrets.signingValueOf(SampleSecrets.SHOPIFY_ENV)).shop(SHOP);
  }

  /** A Stripe delivery of {@code body} signed at {@code signedAt}; every retry is signed afresh. */
  public InboundDelivery stripe(String body, Instant signedAt) {
    return stripe.delivery(body, signedAt);
  }

  /**
   * A GitHub delivery of {@code event} with the GUID {@code deliveryId}, which GitHub keeps when a
   * delivery is redelivered.
   */
  public InboundDelivery github(String event, String deliveryId, String body) {
    return github.deliveryId(deliveryId).delivery(event, body);
  }

  /**
   * A Shopify delivery of {@code topic} with the webhook id {@code webhookId}, which Shopify keeps
   * across the retries of one delivery.
   */
  public InboundDelivery shopify(String topic, String webhookId, String body) {
    return shopify.webhookId(webhookId).delivery(topic, body);
  }
}
