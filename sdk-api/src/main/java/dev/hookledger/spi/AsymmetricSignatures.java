package dev.hookledger.spi;

import static java.util.Objects.requireNonNull;

import dev.hookledger.spi.VerificationKey.Algorithm;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import org.bouncycastle.crypto.Digest;
import org.bouncycastle.crypto.Signer;
import org.bouncycastle.crypto.digests.SHA256Digest;
import org.bouncycastle.crypto.params.ECPublicKeyParameters;
import org.bouncycastle.crypto.signers.DSAEncoding;
import org.bouncycastle.crypto.signers.ECDSASigner;
import org.bouncycastle.crypto.signers.Ed25519Signer;
import org.bouncycastle.crypto.signers.PlainDSAEncoding;
import org.bouncycastle.crypto.signers.StandardDSAEncoding;

/**
 * Public-key signature checks for adapters, on Bouncy Castle: Ed25519 (Standard Webhooks
 * {@code v1a}) and ECDSA P-256 with SHA-256 (in DER or raw {@code r || s} form). The signed content
 * is passed as buffers, concatenated in order, exactly as {@link Signatures} takes it.
 *
 * <p>Each method answers true or false and never throws for a bad signature: a signature of the
 * wrong length or a malformed encoding simply does not verify. A key of the wrong algorithm is a
 * programming error ({@link IllegalArgumentException}). Thread-safe: no state is shared.
 */
public final class AsymmetricSignatures {
  private static final int ED25519_SIGNATURE_BYTES = 64;

  private AsymmetricSignatures() {}

  /** Whether {@code signature} (64 bytes) is a valid Ed25519 signature of {@code parts} under {@code key}. */
  public static boolean verifyEd25519(VerificationKey key, byte[] signature, ByteBuffer... parts) {
    require(key, Algorithm.ED25519);
    if (requireNonNull(signature, "signature").length != ED25519_SIGNATURE_BYTES) {
      return false;
    }
    Signer signer = new Ed25519Signer();
    signer.init(false, key.parameters());
    feed(parts, signer::update);
    return signer.verifySignature(signature);
  }

  /**
   * Whether {@code derSignature} (an ASN.1 {@code SEQUENCE} of {@code r} and {@code s}, as Java's
   * {@code SHA256withECDSA} and most providers produce) is a valid ECDSA P-256 / SHA-256 signature.
   */
  public static boolean verifyEcdsaP256Der(VerificationKey key, byte[] derSignature, ByteBuffer... parts) {
    return verifyEcdsa(key, derSignature, StandardDSAEncoding.INSTANCE, parts);
  }

  /**
   * Whether {@code rawSignature} (64 bytes, {@code r || s} big-endian, as JWS ES256 and WebCrypto
   * produce) is a valid ECDSA P-256 / SHA-256 signature.
   */
  public static boolean verifyEcdsaP256Raw(VerificationKey key, byte[] rawSignature, ByteBuffer... parts) {
    return verifyEcdsa(key, rawSignature, PlainDSAEncoding.INSTANCE, parts);
  }

  private static boolean verifyEcdsa(VerificationKey key, byte[] signature, DSAEncoding encoding, ByteBuffer... parts) {
    require(key, Algorithm.ECDSA_P256);
    requireNonNull(signature, "signature");
    ECPublicKeyParameters ec = (ECPublicKeyParameters) key.parameters();
    BigInteger[] rs;
    try {
      rs = encoding.decode(ec.getParameters().getN(), signature);
    } catch (IOException | IllegalArgumentException e) {
      return false;
    }
    Digest digest = new SHA256Digest();
    feed(parts, digest::update);
    byte[] hash = new byte[digest.getDigestSize()];
    digest.doFinal(hash, 0);
    ECDSASigner verifier = new ECDSASigner();
    verifier.init(false, ec);
    return verifier.verifySignature(hash, rs[0], rs[1]);
  }

  private static void require(VerificationKey key, Algorithm algorithm) {
    if (requireNonNull(key, "key").algorithm() != algorithm) {
      throw new IllegalArgumentException("a " + key.algorithm() + " key cannot verify " + algorithm + " signatures");
    }
  }

  /** Bouncy Castle's {@code update(byte[], int, int)}, shared by signers and digests. */
  private interface Sink {
    void update(byte[] bytes, int offset, int length);
  }

  /** Feeds the parts in chunks, leaving the callers' buffers untouched and never copying a body whole. */
  private static void feed(ByteBuffer[] parts, Sink sink) {
    byte[] chunk = new byte[8192];
    for (ByteBuffer part : parts) {
      ByteBuffer view = part.duplicate();
      while (view.hasRemaining()) {
        int n = Math.min(chunk.length, view.remaining());
        view.get(chunk, 0, n);
        sink.update(chunk, 0, n);
      }
    }
  }
}
