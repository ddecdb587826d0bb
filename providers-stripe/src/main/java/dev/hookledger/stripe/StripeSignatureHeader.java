package dev.hookledger.stripe;

import dev.hookledger.HttpHeaders;
import dev.hookledger.spi.Rejections;
import dev.hookledger.spi.Signatures;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * A parsed {@code Stripe-Signature} header: {@code t=<unix seconds>,v1=<hex>[,v1=<hex>...]}.
 *
 * <p>Every {@code v1} is kept (one per active secret during a roll); {@code v0} and every other
 * scheme are ignored, as Stripe's docs require against downgrade attacks. The timestamp keeps the
 * exact digits received, because those digits are what was signed.
 */
final class StripeSignatureHeader {
  static final String NAME = "Stripe-Signature";
  private static final int MAX_TIMESTAMP_DIGITS = 12;

  private final String timestampDigits;
  private final byte[][] v1;

  private StripeSignatureHeader(String timestampDigits, byte[][] v1) {
    this.timestampDigits = timestampDigits;
    this.v1 = v1;
  }

  /**
   * Parses the header.
   *
   * @throws dev.hookledger.DeliveryRejectedException {@code SIGNATURE_MISSING} when absent or empty,
   *     {@code SIGNATURE_MALFORMED} without a decimal {@code t} or a well-formed {@code v1}
   */
  static StripeSignatureHeader parse(HttpHeaders headers) {
    String value = headers.first(NAME).map(String::trim).orElse("");
    if (value.isEmpty()) {
      throw Rejections.signatureMissing(
          NAME, "the request was not sent by Stripe, or a proxy removed the header");
    }
    String timestamp = null;
    List<byte[]> signatures = new ArrayList<>(2);
    int v1Entries = 0;
    for (String item : value.split(",")) {
      int eq = item.indexOf('=');
      String key = eq < 0 ? item.trim() : item.substring(0, eq).trim();
      String text = eq < 0 ? "" : item.substring(eq + 1).trim();
      if (key.equals("t")) {
        if (timestamp != null) {
          throw Rejections.signatureMalformed(NAME, "has more than one timestamp (t=)");
        }
        timestamp = requireDigits(text);
      } else if (key.equals("v1")) {
        v1Entries++;
        if (Signatures.isHex(text, 32)) {
          signatures.add(Signatures.decodeHex(text, 32, "a " + NAME + " v1 signature"));
        }
      }
    }
    if (timestamp == null) {
      throw Rejections.signatureMalformed(NAME, "has no timestamp (t=<unix seconds>)");
    }
    if (signatures.isEmpty()) {
      throw Rejections.signatureMalformed(
          NAME,
          v1Entries == 0
              ? "has no signature with the expected scheme v1 (v0 and other schemes are ignored)"
              : "has no well-formed v1 signature (each must be 64 hex characters)");
    }
    return new StripeSignatureHeader(timestamp, signatures.toArray(new byte[0][]));
  }

  /** The {@code v1} signatures, decoded. */
  byte[][] v1() {
    return v1;
  }

  /** The signed prefix: the timestamp's digits as received, then {@code "."}. */
  ByteBuffer signedPrefix() {
    return ByteBuffer.wrap((timestampDigits + ".").getBytes(StandardCharsets.US_ASCII));
  }

  Instant timestamp() {
    return Instant.ofEpochSecond(Long.parseLong(timestampDigits));
  }

  private static String requireDigits(String text) {
    boolean digits = !text.isEmpty() && text.length() <= MAX_TIMESTAMP_DIGITS;
    for (int i = 0; digits && i < text.length(); i++) {
      char c = text.charAt(i);
      digits = c >= '0' && c <= '9';
    }
    if (!digits) {
      throw Rejections.signatureMalformed(
          NAME, "timestamp (t=) is not a decimal number of seconds of at most " + MAX_TIMESTAMP_DIGITS + " digits");
    }
    return text;
  }
}
