package dev.hookledger.standardwebhooks;

import static java.util.Objects.requireNonNull;

import dev.hookledger.Secret;
import dev.hookledger.Secrets;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;

/**
 * The HMAC keys that Standard Webhooks secrets stand for. The spec keys its HMAC with the
 * base64-decoded bytes after the {@code whsec_} prefix, while {@link Secrets#of(String...)} keeps a
 * string's UTF-8 bytes; so a secret configured as text (from an environment variable, {@code web.xml}
 * or a Spring property) is decoded here as the reference libraries decode it (standard-webhooks' and
 * Svix's {@code Webhook(String)}: strip {@code whsec_} if it is there, then base64-decode), and a
 * secret whose bytes are not printable text is taken as the key itself (their {@code Webhook(byte[])}).
 *
 * <p>Thread-safe. The last decoded {@link Secrets} is remembered by identity, so that the usual case
 * (the same instance on every request) decodes once rather than per delivery.
 */
final class WhsecKeys {
  static final String PREFIX = "whsec_";
  /** The shortest key accepted: the spec's senders issue 24 to 64 random bytes; fewer is a typo or guessable. */
  static final int MIN_KEY_BYTES = 16;

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
    if (!printable(bytes)) {
      requireLong(secret.id(), bytes.length, "is", provider);
      return secret;
    }
    String text = new String(bytes, StandardCharsets.US_ASCII);
    Arrays.fill(bytes, (byte) 0);
    return Secret.of(secret.id(), decode(secret.id(), text, provider));
  }

  /** A key as the {@code whsec_<base64>} text this class decodes back to it, so that it is never decoded twice. */
  static Secret canonical(String id, byte[] key) {
    return Secret.of(id, (PREFIX + Base64.getEncoder().encodeToString(key)).getBytes(StandardCharsets.US_ASCII));
  }

  /**
   * The key bytes of one {@code whsec_<base64>} text (the prefix is optional, as the reference
   * libraries allow).
   *
   * @param provider names the provider in the message; empty for none
   *
   * @throws IllegalArgumentException if it is not base64 or its key is shorter than {@value #MIN_KEY_BYTES} bytes,
   *     naming the secret's id, never its value
   */
  static byte[] decode(String id, String whsec, String provider) {
    requireNonNull(whsec, "value of secret '" + id + "'");
    String base64 = whsec.strip();
    boolean prefixed = base64.startsWith(PREFIX);
    if (prefixed) {
      base64 = base64.substring(PREFIX.length());
    }
    byte[] key;
    try {
      key = Base64.getDecoder().decode(base64);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("secret '" + id + "'" + of(provider)
          + " is not a Standard Webhooks secret: " + (prefixed ? "the text after whsec_" : "without the whsec_ prefix,"
          + " the whole text") + " must be base64 (copy the whole secret from the sender's dashboard)");
    }
    if (key.length == 0) {
      throw new IllegalArgumentException("secret '" + id + "'" + of(provider) + " is empty");
    }
    requireLong(id, key.length, "(" + (prefixed ? "the base64 after whsec_" : "the whole text, base64") + ") decodes to",
        provider);
    return key;
  }

  private static void requireLong(String id, int length, String is, String provider) {
    if (length < MIN_KEY_BYTES) {
      throw new IllegalArgumentException("secret '" + id + "'" + of(provider) + " is too short for Standard Webhooks:"
          + " its key " + is + " " + length + (length == 1 ? " byte" : " bytes") + ", but must be at least "
          + MIN_KEY_BYTES + " (senders issue 24 to 64; copy the whole secret from the sender's dashboard)");
    }
  }

  private static String of(String provider) {
    return provider.isEmpty() ? "" : " of provider '" + provider + "'";
  }

  /** Whether the bytes are printable ASCII text, as a configured secret is; raw key bytes almost never are. */
  private static boolean printable(byte[] bytes) {
    for (byte b : bytes) {
      if (b < 0x20 || b > 0x7e) {
        return false;
      }
    }
    return bytes.length > 0;
  }
}
