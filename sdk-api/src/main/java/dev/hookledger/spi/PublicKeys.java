package dev.hookledger.spi;

import static java.util.Objects.requireNonNull;

import dev.hookledger.spi.VerificationKey.Algorithm;
import java.io.IOException;
import java.io.StringReader;
import org.bouncycastle.asn1.sec.SECObjectIdentifiers;
import org.bouncycastle.asn1.x509.SubjectPublicKeyInfo;
import org.bouncycastle.asn1.x9.ECNamedCurveTable;
import org.bouncycastle.asn1.x9.X9ECParameters;
import org.bouncycastle.crypto.params.AsymmetricKeyParameter;
import org.bouncycastle.crypto.params.ECNamedDomainParameters;
import org.bouncycastle.crypto.params.ECPublicKeyParameters;
import org.bouncycastle.crypto.params.Ed25519PublicKeyParameters;
import org.bouncycastle.crypto.util.PublicKeyFactory;
import org.bouncycastle.crypto.util.SubjectPublicKeyInfoFactory;
import org.bouncycastle.math.ec.ECPoint;
import org.bouncycastle.util.io.pem.PemObject;
import org.bouncycastle.util.io.pem.PemReader;

/**
 * Reads the public keys providers publish, in the forms they publish them: PEM
 * ({@code -----BEGIN PUBLIC KEY-----}), DER (X.509 SubjectPublicKeyInfo), a raw 32-byte Ed25519
 * key, or a raw P-256 point. Built on Bouncy Castle, so it does not depend on which algorithms the
 * running JDK's providers happen to offer.
 *
 * <p>These are configuration-time calls: a bad key fails with an {@link IllegalArgumentException}
 * that says what is wrong with it, never with the key material.
 */
public final class PublicKeys {
  private static final X9ECParameters P256 = ECNamedCurveTable.getByOID(SECObjectIdentifiers.secp256r1);
  private static final ECNamedDomainParameters P256_DOMAIN =
      new ECNamedDomainParameters(SECObjectIdentifiers.secp256r1, P256);

  private PublicKeys() {}

  /**
   * A key from one PEM {@code PUBLIC KEY} block (Ed25519 or EC P-256); text around the block is
   * ignored.
   */
  public static VerificationKey fromPem(String pem) {
    requireNonNull(pem, "pem");
    PemObject block;
    try (PemReader reader = new PemReader(new StringReader(pem))) {
      block = reader.readPemObject();
    } catch (IOException | RuntimeException e) {
      throw new IllegalArgumentException("the PEM text has a malformed block (bad base64 or missing END line)");
    }
    if (block == null) {
      throw new IllegalArgumentException("the PEM text holds no -----BEGIN PUBLIC KEY----- block");
    }
    if (!block.getType().equals("PUBLIC KEY")) {
      throw new IllegalArgumentException(
          "the PEM block is a '" + block.getType() + "', but a 'PUBLIC KEY' (X.509 SubjectPublicKeyInfo) is required");
    }
    return fromDer(block.getContent());
  }

  /** A key from X.509 SubjectPublicKeyInfo DER bytes (Ed25519 or EC P-256). */
  public static VerificationKey fromDer(byte[] der) {
    requireNonNull(der, "der");
    SubjectPublicKeyInfo info;
    AsymmetricKeyParameter key;
    try {
      info = SubjectPublicKeyInfo.getInstance(der);
      key = PublicKeyFactory.createKey(info);
    } catch (IOException | RuntimeException e) {
      throw new IllegalArgumentException(
          "the DER bytes are not an X.509 SubjectPublicKeyInfo of a supported key (Ed25519, EC P-256)");
    }
    if (key instanceof Ed25519PublicKeyParameters ed) {
      return new VerificationKey(Algorithm.ED25519, ed, der.clone());
    }
    if (key instanceof ECPublicKeyParameters ec) {
      if (!ec.getParameters().getCurve().equals(P256.getCurve())) {
        throw new IllegalArgumentException("the EC key is not on P-256 (secp256r1), the only curve supported");
      }
      return new VerificationKey(Algorithm.ECDSA_P256, ec, der.clone());
    }
    throw new IllegalArgumentException(
        "unsupported key algorithm (OID " + info.getAlgorithm().getAlgorithm().getId()
            + "); supported: Ed25519, EC P-256");
  }

  /** An Ed25519 key from its raw 32 bytes (RFC 8032), as Standard Webhooks' {@code whpk_} keys hold. */
  public static VerificationKey ed25519(byte[] raw) {
    requireNonNull(raw, "raw");
    if (raw.length != Ed25519PublicKeyParameters.KEY_SIZE) {
      throw new IllegalArgumentException("an Ed25519 public key is 32 bytes, but was " + raw.length);
    }
    Ed25519PublicKeyParameters key = new Ed25519PublicKeyParameters(raw, 0);
    return new VerificationKey(Algorithm.ED25519, key, encode(key));
  }

  /**
   * A P-256 key from its SEC 1 point encoding: 65 bytes uncompressed ({@code 04 || x || y}) or 33
   * compressed. The point is checked to lie on the curve.
   */
  public static VerificationKey p256(byte[] point) {
    requireNonNull(point, "point");
    ECPoint q;
    try {
      q = P256.getCurve().decodePoint(point).normalize();
    } catch (RuntimeException e) {
      throw new IllegalArgumentException(
          "the bytes are not a valid P-256 point (65 bytes uncompressed or 33 compressed, on the curve)");
    }
    ECPublicKeyParameters key = new ECPublicKeyParameters(q, P256_DOMAIN);
    return new VerificationKey(Algorithm.ECDSA_P256, key, encode(key));
  }

  private static byte[] encode(AsymmetricKeyParameter key) {
    try {
      return SubjectPublicKeyInfoFactory.createSubjectPublicKeyInfo(key).getEncoded();
    } catch (IOException e) {
      throw new IllegalStateException("cannot encode a public key", e);
    }
  }
}
