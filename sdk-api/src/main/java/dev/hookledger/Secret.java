package dev.hookledger;

import static java.util.Objects.requireNonNull;

import java.util.Arrays;
import javax.crypto.spec.SecretKeySpec;

/**
 * One signing secret with an id that may be logged. The key bytes are never printed.
 * Immutable and thread-safe.
 */
public final class Secret {
  private final String id;
  private final byte[] key;
  private final SecretKeySpec hmacSha256;
  private final SecretKeySpec hmacSha1;

  private Secret(String id, byte[] key) {
    this.id = id;
    this.key = key;
    // built once: verification on the receive path must not rebuild keys per request
    this.hmacSha256 = new SecretKeySpec(key, "HmacSHA256");
    this.hmacSha1 = new SecretKeySpec(key, "HmacSHA1");
  }

  /** A secret with the given key bytes (copied). */
  public static Secret of(String id, byte[] key) {
    requireNonNull(id, "id");
    requireNonNull(key, "key");
    if (id.isBlank()) {
      throw new IllegalArgumentException("secret id must not be blank");
    }
    if (key.length == 0) {
      throw new IllegalArgumentException("secret '" + id + "' is empty");
    }
    return new Secret(id, Arrays.copyOf(key, key.length));
  }

  /** The id recorded with each event this secret verified; safe to log. */
  public String id() {
    return id;
  }

  /** A copy of the key bytes. */
  public byte[] keyBytes() {
    return Arrays.copyOf(key, key.length);
  }

  /** The key for {@code HmacSHA256}, built once. */
  public SecretKeySpec hmacSha256Key() {
    return hmacSha256;
  }

  /** The key for {@code HmacSHA1}, built once (GitHub's legacy header only). */
  public SecretKeySpec hmacSha1Key() {
    return hmacSha1;
  }

  @Override
  public String toString() {
    return "Secret[" + id + "]";
  }
}
