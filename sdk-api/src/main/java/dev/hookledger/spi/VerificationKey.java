package dev.hookledger.spi;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import org.bouncycastle.crypto.params.AsymmetricKeyParameter;

/**
 * A public key that verifies provider signatures: Ed25519 or ECDSA on P-256. Obtained from
 * {@link PublicKeys}; used with {@link AsymmetricSignatures}.
 *
 * <p>Immutable and thread-safe. Equal when the keys are; {@link #toString()} shows the algorithm
 * and a short fingerprint (public keys are not secret, but a fingerprint is what a log needs).
 */
public final class VerificationKey {
  /** The signature algorithms a {@link VerificationKey} can verify. */
  public enum Algorithm {
    /** EdDSA over Curve25519 (RFC 8032), as Standard Webhooks' {@code v1a}. */
    ED25519,
    /** ECDSA over NIST P-256 (secp256r1) with SHA-256. */
    ECDSA_P256
  }

  private final Algorithm algorithm;
  private final AsymmetricKeyParameter parameters;
  private final byte[] encoded;

  VerificationKey(Algorithm algorithm, AsymmetricKeyParameter parameters, byte[] encoded) {
    this.algorithm = algorithm;
    this.parameters = parameters;
    this.encoded = encoded;
  }

  public Algorithm algorithm() {
    return algorithm;
  }

  /** The key in X.509 SubjectPublicKeyInfo DER form, a copy. */
  public byte[] encoded() {
    return encoded.clone();
  }

  AsymmetricKeyParameter parameters() {
    return parameters;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof VerificationKey k && k.algorithm == algorithm && Arrays.equals(k.encoded, encoded);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(encoded);
  }

  @Override
  public String toString() {
    return "VerificationKey[" + algorithm + " sha256:" + fingerprint() + "]";
  }

  private String fingerprint() {
    try {
      byte[] digest = MessageDigest.getInstance("SHA-256").digest(encoded);
      return Signatures.hex(Arrays.copyOf(digest, 8));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is not available in this JDK", e);
    }
  }
}
