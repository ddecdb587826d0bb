package dev.hookledger.github;

import dev.hookledger.DeliveryRejectedException;
import dev.hookledger.HttpHeaders;
import dev.hookledger.Secret;
import dev.hookledger.Secrets;
import dev.hookledger.spi.Rejections;
import dev.hookledger.spi.Signatures;
import java.nio.ByteBuffer;
import java.util.Optional;

/**
 * GitHub's body signature: {@code X-Hub-Signature-256: sha256=<64 hex>}, HMAC-SHA256 of the raw
 * body keyed with the secret's UTF-8 bytes; optionally the legacy {@code X-Hub-Signature:
 * sha1=<40 hex>} when the SHA-256 header is absent. GitHub signs no timestamp.
 */
final class GitHubSignatureCheck {
  static final String SHA256_HEADER = "X-Hub-Signature-256";
  static final String SHA1_HEADER = "X-Hub-Signature";
  private static final String MISMATCH_HINT =
      "it must be the secret set on this webhook in GitHub's settings (each hook has its own)";

  private final boolean acceptSha1;

  GitHubSignatureCheck(boolean acceptSha1) {
    this.acceptSha1 = acceptSha1;
  }

  /** The signature a delivery carries: which header, and the decoded HMAC. */
  record Expected(String header, byte[] hmac) {
    boolean sha256() {
      return header.equals(SHA256_HEADER);
    }
  }

  /**
   * The secret whose HMAC matches.
   *
   * @throws DeliveryRejectedException {@code SIGNATURE_MISSING}, {@code SIGNATURE_MALFORMED} or
   *     {@code SIGNATURE_MISMATCH}
   */
  Secret verify(HttpHeaders headers, ByteBuffer body, Secrets secrets) {
    Expected expected = expected(headers);
    byte[][] candidates = {expected.hmac()};
    return (expected.sha256() ? Signatures.matchSha256(secrets, candidates, body)
            : Signatures.matchSha1(secrets, candidates, body))
        .orElseThrow(() -> Rejections.signatureMismatch(expected.header(), secrets, MISMATCH_HINT));
  }

  /**
   * The signature header to check, read from the headers alone (no body needed).
   *
   * @throws DeliveryRejectedException {@code SIGNATURE_MISSING} or {@code SIGNATURE_MALFORMED}
   */
  Expected expected(HttpHeaders headers) {
    Optional<String> sha256 = value(headers, SHA256_HEADER);
    if (sha256.isPresent()) {
      return new Expected(SHA256_HEADER, decode(sha256.get(), SHA256_HEADER, "sha256=", 32));
    }
    Optional<String> sha1 = value(headers, SHA1_HEADER);
    if (sha1.isEmpty()) {
      throw Rejections.signatureMissing(
          SHA256_HEADER, "GitHub sends it only when the webhook has a secret; set one in the webhook's settings");
    }
    if (!acceptSha1) {
      throw Rejections.signatureMissing(
          SHA256_HEADER,
          "only the legacy SHA-1 " + SHA1_HEADER + " is present, which is refused unless enabled with"
              + " GitHubAdapter.builder().acceptSha1(true)");
    }
    return new Expected(SHA1_HEADER, decode(sha1.get(), SHA1_HEADER, "sha1=", 20));
  }

  private static Optional<String> value(HttpHeaders headers, String name) {
    return headers.first(name).map(String::trim).filter(v -> !v.isEmpty());
  }

  private static byte[] decode(String value, String header, String prefix, int bytes) {
    if (!value.startsWith(prefix)) {
      throw Rejections.signatureMalformed(header, "must start with '" + prefix + "'");
    }
    String hex = value.substring(prefix.length());
    if (!Signatures.isHex(hex, bytes)) {
      throw Rejections.signatureMalformed(header, "must be '" + prefix + "' followed by " + bytes * 2 + " hex characters");
    }
    return Signatures.decodeHex(hex, bytes, header);
  }
}
