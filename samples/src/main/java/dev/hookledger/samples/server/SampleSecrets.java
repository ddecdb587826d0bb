package dev.hookledger.samples.server;

import static java.util.Objects.requireNonNull;

import dev.hookledger.github.GitHubAdapter;
import dev.hookledger.internal.UnusableSecrets;
import dev.hookledger.shopify.ShopifyAdapter;
import dev.hookledger.stripe.StripeAdapter;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The webhook signing secrets the sample server verifies with, and the token its admin page asks
 * for. {@link #toString()} never shows a value.
 *
 * @param stripe the Stripe endpoint's signing secret ({@code whsec_...}); during a rotation, the new
 *     and the old one, comma-separated ({@code new,old}), as {@code Secrets.fromEnvironment} reads them
 * @param github the GitHub webhook's secret, or {@code new,old}
 * @param shopify the Shopify app's client secret, or {@code new,old}
 * @param standard the Standard Webhooks secret ({@code whsec_<base64>}); empty when
 *     {@value #STANDARD_ENV} is unset, and then provider {@code standard} is not served (it is never
 *     generated: a sender shows its own secret)
 * @param adminToken the token of {@code /admin}, sent as {@code Authorization: Bearer <token>}
 * @param generated the variables whose value was generated for development, not configured
 */
public record SampleSecrets(String stripe, String github, String shopify, String standard, String adminToken,
    List<String> generated) {
  /** The environment variables read by {@link #fromEnvironment}. */
  public static final String STRIPE_ENV = "STRIPE_WEBHOOK_SECRET";
  public static final String GITHUB_ENV = "GITHUB_WEBHOOK_SECRET";
  public static final String SHOPIFY_ENV = "SHOPIFY_WEBHOOK_SECRET";
  public static final String STANDARD_ENV = "STANDARD_WEBHOOK_SECRET";
  public static final String ADMIN_TOKEN_ENV = "HOOKLEDGER_ADMIN_TOKEN";

  private static final SecureRandom RANDOM = new SecureRandom();

  public SampleSecrets {
    requireNonNull(stripe, "stripe");
    requireNonNull(github, "github");
    requireNonNull(shopify, "shopify");
    requireNonNull(standard, "standard");
    requireNonNull(adminToken, "adminToken");
    generated = List.copyOf(generated);
  }

  /** Fresh random secrets for the three built-in providers and the admin page, as the demo and the benchmark use. */
  public static SampleSecrets generate() {
    return fromEnvironment(Map.of());
  }

  /**
   * The secrets named by {@value #STRIPE_ENV}, {@value #GITHUB_ENV}, {@value #SHOPIFY_ENV} and
   * {@value #ADMIN_TOKEN_ENV} in {@code env}; each one unset or blank is generated, and listed in
   * {@link #generated()}. Also {@value #STANDARD_ENV}, if set (never generated).
   */
  public static SampleSecrets fromEnvironment(Map<String, String> env) {
    List<String> generated = new ArrayList<>();
    String stripe = orGenerate(env, STRIPE_ENV, "whsec_", generated);
    String github = orGenerate(env, GITHUB_ENV, "", generated);
    String shopify = orGenerate(env, SHOPIFY_ENV, "shpss_", generated);
    String standard = env.getOrDefault(STANDARD_ENV, "").strip();
    String adminToken = orGenerate(env, ADMIN_TOKEN_ENV, "", generated);
    return new SampleSecrets(stripe, github, shopify, standard, adminToken, generated);
  }

  private static String orGenerate(Map<String, String> env, String name, String prefix,
      List<String> generated) {
    String value = env.get(name);
    if (value != null && !value.isBlank()) {
      return value.strip();
    }
    byte[] random = new byte[24];
    RANDOM.nextBytes(random);
    generated.add(name);
    return prefix + "dev_" + HexFormat.of().formatHex(random);
  }

  /**
   * Why a configured (not generated) provider secret cannot be real, naming its variable: blank, an
   * unresolved {@code ${...}} placeholder, a published example, or shorter than the provider's secrets.
   */
  public Optional<String> unusable() {
    Map<String, Integer> minimum = Map.of(STRIPE_ENV, new StripeAdapter().minimumSecretLength(),
        GITHUB_ENV, new GitHubAdapter().minimumSecretLength(), SHOPIFY_ENV, new ShopifyAdapter().minimumSecretLength());
    for (String name : List.of(STRIPE_ENV, GITHUB_ENV, SHOPIFY_ENV)) {
      if (!generated.contains(name)) {
        for (String secret : valueOf(name).split(",")) { // each of new,old during a rotation
          Optional<String> problem = UnusableSecrets.problem(secret.strip(), minimum.get(name));
          if (problem.isPresent()) {
            return Optional.of(name + " " + problem.get());
          }
        }
      }
    }
    if (!standard.isEmpty()) {
      return UnusableSecrets.problem(standard).map(problem -> STANDARD_ENV + " " + problem);
    }
    return Optional.empty();
  }

  /** The secret a sender signs with now: the first of {@code new,old} during a rotation. */
  public String signingValueOf(String name) {
    return valueOf(name).split(",")[0].strip();
  }

  /** The value of the secret that environment variable {@code name} configures. */
  public String valueOf(String name) {
    return switch (name) {
      case STRIPE_ENV -> stripe;
      case GITHUB_ENV -> github;
      case SHOPIFY_ENV -> shopify;
      case STANDARD_ENV -> standard;
      case ADMIN_TOKEN_ENV -> adminToken;
      default -> throw new IllegalArgumentException("unknown secret variable " + name);
    };
  }

  @Override
  public String toString() {
    return "SampleSecrets[generated=" + generated + "]";
  }
}
