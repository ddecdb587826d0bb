package dev.hookledger.internal;

import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The one owner of the rule "this secret or token cannot be real": every front door (the builder,
 * {@code Secrets}, web.xml, Spring properties, the command line, the admin token) asks it, and words
 * its refusal with the name of its own setting. A refusal never holds the value: it says what is wrong
 * with it.
 *
 * <p>Why: Spring leaves {@code ${STRIPE_WEBHOOK_SECRET}} as the literal value when the variable is
 * unset, and a signing key anyone can read (a placeholder, a value printed in a provider's docs or in
 * ours) lets anyone forge a delivery that is then processed.
 */
public final class UnusableSecrets {
  /** {@code ${NAME}}, {@code ${NAME:default}}: a property placeholder nothing resolved. */
  private static final Pattern PLACEHOLDER = Pattern.compile("\\$\\{[^}]*}");

  /**
   * Values printed as examples, which anyone can sign with: GitHub's docs vector, Shopify's SDK test
   * key, Standard Webhooks' and Slack's published examples, and the placeholders of docs and READMEs.
   */
  private static final Set<String> DOCUMENTED_EXAMPLES = Set.of(
      "It's a Secret to Everybody",               // GitHub "Validating webhook deliveries"
      "test_secret_key",                          // shopify-app-js test-config.ts
      "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",   // Standard Webhooks' example secret
      "8f742231b10e8888abcd99yyyzzz85a5",         // Slack "Verifying requests from Slack"
      "whsec_...", "whsec_…", "shpss_...", "changeme", "change-me", "secret", "password");

  private UnusableSecrets() {}

  /** What makes {@code value} unusable as a secret, e.g. {@code "is blank"}; empty if it may be real. */
  public static Optional<String> problem(String value) {
    return problem(value, 1);
  }

  /**
   * As {@link #problem(String)}, and also refusing a value shorter than {@code minLength} characters
   * (the shortest secret the provider issues).
   */
  public static Optional<String> problem(String value, int minLength) {
    if (value == null) {
      return Optional.of("is not set");
    }
    String v = value.strip();
    if (v.isEmpty()) {
      return Optional.of("is blank");
    }
    if (PLACEHOLDER.matcher(v).find()) {
      return Optional.of("is an unresolved placeholder (${...}): the variable or property it names is not set");
    }
    if (DOCUMENTED_EXAMPLES.contains(v)) {
      return Optional.of("is a value published as an example, which anyone can sign with");
    }
    if (v.length() < minLength) {
      return Optional.of("is shorter than " + minLength + " characters, so it is not a real secret");
    }
    return Optional.empty();
  }

  /** Whether {@code value} holds a {@code ${...}} placeholder nothing resolved. */
  public static boolean isPlaceholder(String value) {
    return value != null && PLACEHOLDER.matcher(value).find();
  }

  /**
   * Throws {@link IllegalArgumentException} saying {@code "<setting> <problem>"} if {@code value}
   * {@linkplain #problem(String, int) cannot be real}; never puts the value in the message.
   */
  public static void refuse(String setting, String value, int minLength) {
    Optional<String> problem = problem(value, minLength);
    if (problem.isPresent()) {
      throw new IllegalArgumentException(setting + " " + problem.get());
    }
  }
}
