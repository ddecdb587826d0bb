package dev.hookledger.spi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.Signature;
import java.security.spec.ECGenParameterSpec;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * Bouncy Castle verification against signatures made by the JDK's own providers with keys
 * generated here, so that the two implementations check each other.
 */
class AsymmetricSignaturesTest {
  private static final byte[] PREFIX = "msg_1.1700000000.".getBytes(StandardCharsets.US_ASCII);
  // longer than the 8 KiB chunk the helpers feed, so chunking is exercised
  private static final byte[] BODY = ("{\"data\":\"" + "Zoë 東京 ".repeat(2000) + "\"}").getBytes(StandardCharsets.UTF_8);

  @Test
  void ed25519SignatureFromTheJdkVerifies() throws Exception {
    KeyPair pair = KeyPairGenerator.getInstance("Ed25519").generateKeyPair();
    byte[] signature = sign("Ed25519", pair);
    VerificationKey key = PublicKeys.fromDer(pair.getPublic().getEncoded());

    assertTrue(AsymmetricSignatures.verifyEd25519(key, signature, ByteBuffer.wrap(PREFIX), ByteBuffer.wrap(BODY)));
    assertTrue(AsymmetricSignatures.verifyEd25519(key, signature, ByteBuffer.wrap(concat(PREFIX, BODY))), "parts concatenate");
  }

  @Test
  void ed25519RejectsATamperedBodyAnotherKeyAndABadLength() throws Exception {
    KeyPair pair = KeyPairGenerator.getInstance("Ed25519").generateKeyPair();
    KeyPair other = KeyPairGenerator.getInstance("Ed25519").generateKeyPair();
    byte[] signature = sign("Ed25519", pair);
    VerificationKey key = PublicKeys.fromDer(pair.getPublic().getEncoded());
    byte[] tampered = BODY.clone();
    tampered[BODY.length - 2] ^= 0x01;

    assertFalse(AsymmetricSignatures.verifyEd25519(key, signature, ByteBuffer.wrap(PREFIX), ByteBuffer.wrap(tampered)));
    assertFalse(AsymmetricSignatures.verifyEd25519(
        PublicKeys.fromDer(other.getPublic().getEncoded()), signature, ByteBuffer.wrap(PREFIX), ByteBuffer.wrap(BODY)));
    assertFalse(AsymmetricSignatures.verifyEd25519(key, Arrays.copyOf(signature, 63), ByteBuffer.wrap(PREFIX), ByteBuffer.wrap(BODY)));
  }

  @Test
  void ecdsaP256VerifiesInDerAndRawForms() throws Exception {
    KeyPair pair = p256();
    VerificationKey key = PublicKeys.fromDer(pair.getPublic().getEncoded());
    byte[] der = sign("SHA256withECDSA", pair);
    byte[] raw = sign("SHA256withECDSAinP1363Format", pair);
    assertEquals(64, raw.length);

    assertTrue(AsymmetricSignatures.verifyEcdsaP256Der(key, der, ByteBuffer.wrap(PREFIX), ByteBuffer.wrap(BODY)));
    assertTrue(AsymmetricSignatures.verifyEcdsaP256Raw(key, raw, ByteBuffer.wrap(PREFIX), ByteBuffer.wrap(BODY)));
    assertFalse(AsymmetricSignatures.verifyEcdsaP256Raw(key, der, ByteBuffer.wrap(PREFIX), ByteBuffer.wrap(BODY)), "DER is not raw");
    assertFalse(AsymmetricSignatures.verifyEcdsaP256Der(key, raw, ByteBuffer.wrap(PREFIX), ByteBuffer.wrap(BODY)), "raw is not DER");
  }

  @Test
  void ecdsaP256RejectsATamperedBodyAndGarbage() throws Exception {
    KeyPair pair = p256();
    VerificationKey key = PublicKeys.fromDer(pair.getPublic().getEncoded());
    byte[] der = sign("SHA256withECDSA", pair);
    byte[] tampered = BODY.clone();
    tampered[0] ^= 0x01;

    assertFalse(AsymmetricSignatures.verifyEcdsaP256Der(key, der, ByteBuffer.wrap(PREFIX), ByteBuffer.wrap(tampered)));
    assertFalse(AsymmetricSignatures.verifyEcdsaP256Der(key, new byte[] {0x30, 0x02, 0x01}, ByteBuffer.wrap(BODY)));
    assertFalse(AsymmetricSignatures.verifyEcdsaP256Raw(key, new byte[64], ByteBuffer.wrap(BODY)));
  }

  @Test
  void keyOfTheWrongAlgorithmIsAProgrammingError() throws Exception {
    VerificationKey ec = PublicKeys.fromDer(p256().getPublic().getEncoded());
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> AsymmetricSignatures.verifyEd25519(ec, new byte[64], ByteBuffer.wrap(BODY)));
    assertEquals("a ECDSA_P256 key cannot verify ED25519 signatures", e.getMessage());
  }

  static KeyPair p256() throws Exception {
    KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
    generator.initialize(new ECGenParameterSpec("secp256r1"));
    return generator.generateKeyPair();
  }

  private static byte[] sign(String algorithm, KeyPair pair) throws Exception {
    Signature signer = Signature.getInstance(algorithm);
    signer.initSign(pair.getPrivate());
    signer.update(PREFIX);
    signer.update(BODY);
    return signer.sign();
  }

  private static byte[] concat(byte[] a, byte[] b) {
    byte[] out = Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, out, a.length, b.length);
    return out;
  }
}
