package dev.hookledger.spi;

import dev.hookledger.DeliveryRejectedException;
import dev.hookledger.RejectionReason;
import dev.hookledger.Secret;
import dev.hookledger.Secrets;
import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.Optional;
import javax.crypto.Mac;

/**
 * HMAC helpers for adapters, on the JDK's {@code javax.crypto.Mac} (its SHA-256 runs on CPU
 * intrinsics, several times faster than a pure-Java HMAC). Each helper works on bytes: signed
 * content is passed as buffers, expected signatures are decoded to bytes and compared in constant
 * time, so verification builds no strings from the body.
 *
 * <p>Thread-safe: each thread keeps its own {@code Mac} instances.
 */
public final class Signatures {
  private static final ThreadLocal<Mac> SHA256 = ThreadLocal.withInitial(() -> mac("HmacSHA256"));
  private static final ThreadLocal<Mac> SHA1 = ThreadLocal.withInitial(() -> mac("HmacSHA1"));

  private Signatures() {}

  /** HMAC-SHA256 of the concatenated parts under {@code secret}. */
  public static byte[] hmacSha256(Secret secret, ByteBuffer... parts) {
    return compute(SHA256.get(), secret, true, parts);
  }

  /** HMAC-SHA1 of the concatenated parts (GitHub's legacy {@code X-Hub-Signature} only). */
  public static byte[] hmacSha1(Secret secret, ByteBuffer... parts) {
    return compute(SHA1.get(), secret, false, parts);
  }

  /**
   * The first secret, in order, whose HMAC-SHA256 over {@code parts} equals any of the
   * {@code candidates}; empty when none does. Each secret's HMAC is computed once.
   */
  public static Optional<Secret> matchSha256(Secrets secrets, byte[][] candidates, ByteBuffer... parts) {
    return match(secrets, candidates, true, parts);
  }

  /**
   * Like {@link #matchSha256} with HMAC-SHA1, for GitHub's legacy {@code X-Hub-Signature}; nothing
   * else should accept SHA-1.
   */
  public static Optional<Secret> matchSha1(Secrets secrets, byte[][] candidates, ByteBuffer... parts) {
    return match(secrets, candidates, false, parts);
  }

  private static Optional<Secret> match(Secrets secrets, byte[][] candidates, boolean sha256, ByteBuffer... parts) {
    for (Secret secret : secrets.list()) {
      byte[] expected = sha256 ? hmacSha256(secret, parts) : hmacSha1(secret, parts);
      for (byte[] candidate : candidates) {
        if (equal(expected, candidate)) {
          return Optional.of(secret);
        }
      }
    }
    return Optional.empty();
  }

  /** Constant-time equality of two byte arrays (time depends on length only). */
  public static boolean equal(byte[] a, byte[] b) {
    return MessageDigest.isEqual(a, b);
  }

  /**
   * Decodes lowercase or uppercase hex of exactly {@code expectedBytes} bytes.
   *
   * @throws DeliveryRejectedException {@link RejectionReason#SIGNATURE_MALFORMED} naming {@code what}
   */
  public static byte[] decodeHex(CharSequence hex, int expectedBytes, String what) {
    if (hex.length() != expectedBytes * 2) {
      throw malformed(what + " must be " + expectedBytes * 2 + " hex characters, but was "
          + hex.length() + " characters long");
    }
    if (!isHex(hex, expectedBytes)) {
      throw malformed(what + " is not hexadecimal");
    }
    byte[] out = new byte[expectedBytes];
    for (int i = 0; i < expectedBytes; i++) {
      out[i] = (byte) ((hexDigit(hex.charAt(2 * i)) << 4) | hexDigit(hex.charAt(2 * i + 1)));
    }
    return out;
  }

  /**
   * Whether {@code text} is exactly {@code bytes * 2} ASCII hex digits (either case). Other scripts'
   * digits, which {@link Character#digit} would accept, are not hex here.
   */
  public static boolean isHex(CharSequence text, int bytes) {
    if (text.length() != bytes * 2) {
      return false;
    }
    for (int i = 0; i < text.length(); i++) {
      if (hexDigit(text.charAt(i)) < 0) {
        return false;
      }
    }
    return true;
  }

  private static int hexDigit(char c) {
    if (c >= '0' && c <= '9') {
      return c - '0';
    }
    if (c >= 'a' && c <= 'f') {
      return c - 'a' + 10;
    }
    return c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
  }

  /**
   * Decodes standard base64 (with padding) of exactly {@code expectedBytes} bytes.
   *
   * @throws DeliveryRejectedException {@link RejectionReason#SIGNATURE_MALFORMED} naming {@code what}
   */
  public static byte[] decodeBase64(String base64, int expectedBytes, String what) {
    byte[] out;
    try {
      out = Base64.getDecoder().decode(base64.trim());
    } catch (IllegalArgumentException e) {
      throw malformed(what + " is not base64");
    }
    if (out.length != expectedBytes) {
      throw malformed(what + " must decode to " + expectedBytes + " bytes, but decoded to " + out.length);
    }
    return out;
  }

  /** Lowercase hex of {@code bytes}; for test signers. */
  public static String hex(byte[] bytes) {
    char[] digits = "0123456789abcdef".toCharArray();
    char[] out = new char[bytes.length * 2];
    for (int i = 0; i < bytes.length; i++) {
      out[2 * i] = digits[(bytes[i] >> 4) & 0xf];
      out[2 * i + 1] = digits[bytes[i] & 0xf];
    }
    return new String(out);
  }

  private static DeliveryRejectedException malformed(String message) {
    return new DeliveryRejectedException(RejectionReason.SIGNATURE_MALFORMED, message);
  }

  private static byte[] compute(Mac mac, Secret secret, boolean sha256, ByteBuffer... parts) {
    try {
      mac.init(sha256 ? secret.hmacSha256Key() : secret.hmacSha1Key());
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("cannot initialise " + mac.getAlgorithm() + " with secret " + secret.id(), e);
    }
    for (ByteBuffer part : parts) {
      mac.update(part.duplicate());
    }
    return mac.doFinal();
  }

  private static Mac mac(String algorithm) {
    try {
      return Mac.getInstance(algorithm);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(algorithm + " is not available in this JDK", e);
    }
  }
}
