package dev.hookledger.spi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hookledger.spi.VerificationKey.Algorithm;
import java.math.BigInteger;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.interfaces.ECPublicKey;
import java.security.spec.ECGenParameterSpec;
import java.util.Arrays;
import java.util.Base64;
import org.junit.jupiter.api.Test;

/** Reading public keys in the forms providers publish them, with keys generated here. */
class PublicKeysTest {

  @Test
  void ed25519KeyReadsFromPemDerAndRawBytesAlike() throws Exception {
    KeyPair pair = KeyPairGenerator.getInstance("Ed25519").generateKeyPair();
    byte[] der = pair.getPublic().getEncoded();
    byte[] raw = Arrays.copyOfRange(der, der.length - 32, der.length);

    VerificationKey fromPem = PublicKeys.fromPem("issuer: acme\n" + pem("PUBLIC KEY", der) + "trailing text\n");
    VerificationKey fromDer = PublicKeys.fromDer(der);
    VerificationKey fromRaw = PublicKeys.ed25519(raw);

    assertEquals(Algorithm.ED25519, fromPem.algorithm());
    assertEquals(fromDer, fromPem);
    assertEquals(fromDer, fromRaw);
    assertEquals(fromDer.hashCode(), fromRaw.hashCode());
    assertTrue(Arrays.equals(der, fromRaw.encoded()));
    assertTrue(fromPem.toString().matches("VerificationKey\\[ED25519 sha256:[0-9a-f]{16}]"), fromPem.toString());
  }

  @Test
  void p256KeyReadsFromDerAndFromItsUncompressedPoint() throws Exception {
    KeyPair pair = AsymmetricSignaturesTest.p256();
    ECPublicKey ec = (ECPublicKey) pair.getPublic();
    byte[] point = new byte[65];
    point[0] = 0x04;
    put(ec.getW().getAffineX(), point, 1);
    put(ec.getW().getAffineY(), point, 33);

    VerificationKey fromDer = PublicKeys.fromDer(ec.getEncoded());
    assertEquals(Algorithm.ECDSA_P256, fromDer.algorithm());
    assertEquals(fromDer, PublicKeys.p256(point));
    assertEquals(fromDer, PublicKeys.fromPem(pem("PUBLIC KEY", ec.getEncoded())));
  }

  @Test
  void distinctKeysAreNotEqual() throws Exception {
    assertNotEquals(
        PublicKeys.fromDer(KeyPairGenerator.getInstance("Ed25519").generateKeyPair().getPublic().getEncoded()),
        PublicKeys.fromDer(KeyPairGenerator.getInstance("Ed25519").generateKeyPair().getPublic().getEncoded()));
  }

  @Test
  void unsupportedOrBrokenKeysAreRefusedWithAReason() throws Exception {
    KeyPairGenerator p384 = KeyPairGenerator.getInstance("EC");
    p384.initialize(new ECGenParameterSpec("secp384r1"));
    KeyPairGenerator rsa = KeyPairGenerator.getInstance("RSA");
    rsa.initialize(1024);
    KeyPair rsaPair = rsa.generateKeyPair();

    assertEquals("the EC key is not on P-256 (secp256r1), the only curve supported",
        refused(() -> PublicKeys.fromDer(p384.generateKeyPair().getPublic().getEncoded())));
    assertEquals("unsupported key algorithm (OID 1.2.840.113549.1.1.1); supported: Ed25519, EC P-256",
        refused(() -> PublicKeys.fromDer(rsaPair.getPublic().getEncoded())));
    assertEquals("the PEM block is a 'PRIVATE KEY', but a 'PUBLIC KEY' (X.509 SubjectPublicKeyInfo) is required",
        refused(() -> PublicKeys.fromPem(pem("PRIVATE KEY", rsaPair.getPrivate().getEncoded()))));
    assertEquals("the PEM text holds no -----BEGIN PUBLIC KEY----- block", refused(() -> PublicKeys.fromPem("hello")));
    assertEquals("the DER bytes are not an X.509 SubjectPublicKeyInfo of a supported key (Ed25519, EC P-256)",
        refused(() -> PublicKeys.fromDer(new byte[] {0x30, 0x03, 0x02, 0x01, 0x01})));
    assertEquals("an Ed25519 public key is 32 bytes, but was 31", refused(() -> PublicKeys.ed25519(new byte[31])));
    byte[] offCurve = new byte[65];
    offCurve[0] = 0x04;
    offCurve[64] = 0x01;
    assertEquals("the bytes are not a valid P-256 point (65 bytes uncompressed or 33 compressed, on the curve)",
        refused(() -> PublicKeys.p256(offCurve)));
  }

  @Test
  void privateKeyMaterialNeverAppearsInARefusal() throws Exception {
    KeyPair pair = KeyPairGenerator.getInstance("Ed25519").generateKeyPair();
    String privatePem = pem("PRIVATE KEY", pair.getPrivate().getEncoded());
    String message = refused(() -> PublicKeys.fromPem(privatePem));
    String base64 = Base64.getEncoder().encodeToString(pair.getPrivate().getEncoded());
    assertFalse(message.contains(base64.substring(0, 20)), message);
  }

  private static String refused(Runnable call) {
    return assertThrows(IllegalArgumentException.class, call::run).getMessage();
  }

  private static String pem(String type, byte[] der) {
    String body = Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(der);
    return "-----BEGIN " + type + "-----\n" + body + "\n-----END " + type + "-----\n";
  }

  private static void put(BigInteger value, byte[] into, int offset) {
    byte[] bytes = value.toByteArray();
    int start = Math.max(0, bytes.length - 32);
    int len = bytes.length - start;
    System.arraycopy(bytes, start, into, offset + 32 - len, len);
  }
}
