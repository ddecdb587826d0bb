package dev.hookledger;

import static java.util.Objects.requireNonNull;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The secrets one endpoint accepts, in the order they are tried. Several at once support rotation:
 * during a roll, deliveries signed with the old or the new secret both verify, and the event records
 * the {@linkplain WebhookEvent#secretId() id} of the one that matched, so that an operator can see
 * when the old one stops being used.
 *
 * <pre>{@code
 * Secrets.of(System.getenv("STRIPE_WEBHOOK_SECRET"));            // id "0"
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

  /** Secrets from UTF-8 strings, with ids {@code "0"}, {@code "1"}, ... in the order given. */
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

    /** Adds a secret used as its UTF-8 bytes (Stripe, GitHub, Shopify). */
    public Builder add(String id, String value) {
      requireNonNull(value, "value of secret '" + id + "'");
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
