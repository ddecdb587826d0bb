package dev.hookledger.standardwebhooks;

import static java.util.Objects.requireNonNull;

import dev.hookledger.Secret;
import dev.hookledger.Secrets;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;

/**
 * The HMAC keys that {@code whsec_} secrets stand for. Standard Webhooks keys its HMAC with the
 * base64-decoded bytes after the {@code whsec_} prefix, while {@link Secrets#of(String...)} keeps a
 * string's UTF-8 bytes; so a secret configured as the whole {@code whsec_...} text (from an
 * environment variable, {@code web.xml} or a Spring property) is decoded here, and any other secret
 * is taken as the key bytes themselves.
 *
 * <p>Thread-safe. The last decoded {@link Secrets} is remembered by identity, so that the usual case
 * (the same instance on every request) decodes once rather than per delivery.
 */
final class WhsecKeys {
  static final String PREFIX = "whsec_";
  private static final byte[] PREFIX_BYTES = PREFIX.getBytes(StandardCharsets.US_ASCII);

  private record Decoded(Secrets given, Secrets keys) {}

  private final String provider;
  private volatile Decoded last;

  WhsecKeys(String provider) {
    this.provider = provider;
  }

  /** The HMAC keys of {@code given}, in the same order and with the same ids. */
  Secrets of(Secrets given) {
    Decoded d = last;
    if (d != null && d.given() == given) {
      return d.keys();
    }
    Secrets.Builder keys = Secrets.builder();
    for (Secret secret : given.list()) {
      keys.add(decode(secret));
    }
    Secrets decoded = keys.build();
    last = new Decoded(given, decoded);
    return decoded;
  }

  private Secret decode(Secret secret) {
    byte[] bytes = secret.keyBytes();
    if (!startsWithPrefix(bytes)) {
      return secret;
    }
    String base64 = new String(bytes, PREFIX_BYTES.length, bytes.length - PREFIX_BYTES.length, StandardCharsets.US_ASCII);
    Arrays.fill(bytes, (byte) 0);
    return Secret.of(secret.id(), decode(secret.id(), base64, provider));
  }

  /**
   * The key bytes of one {@code whsec_<base64>} text (the prefix is optional, as the reference
   * libraries allow).
   *
   * @param provider names the provider in the message; empty for none
   *
   * @throws IllegalArgumentException naming the secret's id, never its value
   */
  static byte[] decode(String id, String whsec, String provider) {
    requireNonNull(whsec, "value of secret '" + id + "'");
    String base64 = whsec.strip();
    if (base64.startsWith(PREFIX)) {
      base64 = base64.substring(PREFIX.length());
    }
    byte[] key;
    try {
      key = Base64.getDecoder().decode(base64);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("secret '" + id + "'" + of(provider)
          + " is not a Standard Webhooks secret: the text after whsec_ must be base64"
          + " (copy the whole secret from the sender's dashboard)");
    }
    if (key.length == 0) {
      throw new IllegalArgumentException("secret '" + id + "'" + of(provider) + " is empty");
    }
    return key;
  }

  private static String of(String provider) {
    return provider.isEmpty() ? "" : " of provider '" + provider + "'";
  }

  private static boolean startsWithPrefix(byte[] bytes) {
    if (bytes.length < PREFIX_BYTES.length) {
      return false;
    }
    for (int i = 0; i < PREFIX_BYTES.length; i++) {
      if (bytes[i] != PREFIX_BYTES[i]) {
        return false;
      }
    }
    return true;
  }
}
