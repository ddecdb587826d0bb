package dev.hookledger;

import static java.util.Objects.requireNonNull;

import dev.hookledger.internal.UnusableSecrets;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

/**
 * The secrets one endpoint accepts, in the order they are tried. Several at once support rotation:
 * during a roll, deliveries signed with the old or the new secret both verify, and the event records
 * the {@linkplain WebhookEvent#secretId() id} of the one that matched, so that an operator can see
 * when the old one stops being used.
 *
 * <pre>{@code
 * Secrets.fromEnvironment("STRIPE_WEBHOOK_SECRET");               // fails now, naming the variable, if unset
 * Secrets.of(configuredValue);                                     // id "0"
 * Secrets.builder().add("2026-11", newSecret).add("2026-05", oldSecret).build();
 * }</pre>
 *
 * <p>Immutable and thread-safe. {@link #toString()} shows ids, never values.
 */
public final class Secrets {
  private static final Secrets NONE = new Secrets(List.of());

  private final List<Secret> secrets;

  private Secrets(List<Secret> secrets) {
    this.secrets = secrets;
  }

  /** No secret: every delivery is rejected with {@link RejectionReason#NO_SECRET_CONFIGURED}. */
  public static Secrets none() {
    return NONE;
  }

  /**
   * Secrets from UTF-8 strings, with ids {@code "0"}, {@code "1"}, ... in the order given.
   *
   * @throws IllegalArgumentException if a value is null, blank (an unset environment variable
   *     read with {@code System.getenv}, typically: {@link #fromEnvironment} names it) or an unresolved
   *     {@code ${...}} placeholder (what Spring leaves when the variable it names is unset)
   */
  public static Secrets of(String... values) {
    requireNonNull(values, "values");
    Builder b = builder();
    for (int i = 0; i < values.length; i++) {
      b.add(Integer.toString(i), values[i]);
    }
    return b.build();
  }

  public static Builder builder() {
    return new Builder();
  }

  /**
   * The secrets in environment variable {@code variable}: one value, or several separated by commas
   * during a rotation (ids {@code "0"}, {@code "1"}, ...), each trimmed.
   *
   * @throws IllegalArgumentException naming the variable (never a value) when it is unset, blank or
   *     an unresolved {@code ${...}} placeholder, so that a missing secret stops the application at
   *     start-up rather than failing every delivery or, worse, verifying with a public string
   */
  public static Secrets fromEnvironment(String variable) {
    return fromEnvironment(variable, System::getenv);
  }

  /**
   * As {@link #fromEnvironment(String)}, reading {@code variable} from {@code environment} rather
   * than the process's: a map of the variables an application was given, or its configuration
   * ({@code name -> properties.get(name)}). One grammar for every door: several secrets are
   * comma-separated, each trimmed.
   *
   * @throws IllegalArgumentException as {@link #fromEnvironment(String)} does
   */
  public static Secrets fromEnvironment(String variable, Function<String, String> environment) {
    requireNonNull(environment, "environment");
    requireNonNull(variable, "variable");
    String value = environment.apply(variable);
    List<String> values = new ArrayList<>();
    if (value != null) {
      for (String part : value.split(",")) {
        if (!part.isBlank()) {
          values.add(part.strip());
        }
      }
    }
    if (values.isEmpty()) {
      throw new IllegalArgumentException("environment variable " + variable + " is " + (value == null ? "not set" : "blank")
          + ": set it to the provider's webhook signing secret (several, comma-separated, during a rotation)");
    }
    if (UnusableSecrets.isPlaceholder(value)) {
      throw new IllegalArgumentException("environment variable " + variable + " holds an unresolved placeholder"
          + " (${...}): set it to the provider's webhook signing secret itself");
    }
    return of(values.toArray(String[]::new));
  }

  /** The secrets in the order they are tried; never null. */
  public List<Secret> list() {
    return secrets;
  }

  public boolean isEmpty() {
    return secrets.isEmpty();
  }

  @Override
  public String toString() {
    List<String> ids = new ArrayList<>();
    secrets.forEach(s -> ids.add(s.id()));
    return "Secrets" + ids;
  }

  /** Builds {@link Secrets}; not thread-safe. */
  public static final class Builder {
    private final List<Secret> secrets = new ArrayList<>();
    private final Set<String> ids = new HashSet<>();

    private Builder() {}

    /**
     * Adds a secret used as its UTF-8 bytes (Stripe, GitHub, Shopify).
     *
     * @throws IllegalArgumentException if the value is null, blank or an unresolved {@code ${...}}
     *     placeholder, naming the id (never a value)
     */
    public Builder add(String id, String value) {
      if (value == null || value.isBlank()) {
        throw new IllegalArgumentException("secret '" + id + "' is " + (value == null ? "null" : "blank")
            + ": if it is read with System.getenv, the variable is not set (Secrets.fromEnvironment(name) says which)");
      }
      if (UnusableSecrets.isPlaceholder(value)) {
        throw new IllegalArgumentException("secret '" + id + "' is an unresolved placeholder (${...}): the variable"
            + " or property it names is not set");
      }
      return add(Secret.of(id, value.getBytes(StandardCharsets.UTF_8)));
    }

    /** Adds a secret whose key bytes are already decoded (Standard Webhooks' base64 {@code whsec_}). */
    public Builder add(Secret secret) {
      requireNonNull(secret, "secret");
      if (!ids.add(secret.id())) {
        throw new IllegalArgumentException("duplicate secret id '" + secret.id() + "'");
      }
      secrets.add(secret);
      return this;
    }

    public Secrets build() {
      return new Secrets(List.copyOf(secrets));
    }
  }
}
