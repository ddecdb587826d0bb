package dev.hookledger.standardwebhooks;

import dev.hookledger.HttpHeaders;
import dev.hookledger.spi.Rejections;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/**
 * The three signed headers of a Standard Webhooks delivery, parsed: {@code webhook-id},
 * {@code webhook-timestamp} and {@code webhook-signature}, a space-separated list of
 * {@code <version>,<base64>} entries; or the same three named {@code svix-id}, {@code svix-timestamp}
 * and {@code svix-signature}, as senders built on Svix (Clerk, Resend, ...) name them. As Svix's own
 * libraries do, the {@code svix-*} set is read when all three are there, else the {@code webhook-*} set.
 *
 * <p>Every {@code v1} (HMAC-SHA256, 32 bytes) and {@code v1a} (Ed25519, 64 bytes) entry is kept, so
 * that a sender signing with several secrets during a rotation is verified by any of them; other
 * versions and entries that do not decode to the right length are ignored, as the reference
 * libraries ignore them. The timestamp keeps the exact digits received, because they were signed.
 * Reads headers only, so it serves the check before the body as well as verification.
 */
final class StandardWebhooksSignatureHeader {
  /** More entries than any rotation needs; bounds the work a forged header can cause. */
  static final int MAX_ENTRIES = 16;
  private static final int MAX_TIMESTAMP_DIGITS = 12;
  private static final String HINT = "Standard Webhooks senders sign with webhook-id, webhook-timestamp and"
      + " webhook-signature (senders built on Svix: svix-id, svix-timestamp and svix-signature)";

  /** The names of one set of the three headers. */
  record Names(String messageId, String timestamp, String signature) {
    static final Names WEBHOOK = new Names(StandardWebhooksAdapter.MESSAGE_ID, StandardWebhooksAdapter.TIMESTAMP,
        StandardWebhooksAdapter.SIGNATURE);
    static final Names SVIX = new Names(StandardWebhooksAdapter.SVIX_MESSAGE_ID, StandardWebhooksAdapter.SVIX_TIMESTAMP,
        StandardWebhooksAdapter.SVIX_SIGNATURE);

    boolean allIn(HttpHeaders headers) {
      return present(headers, messageId) && present(headers, timestamp) && present(headers, signature);
    }

    boolean anyIn(HttpHeaders headers) {
      return present(headers, messageId) || present(headers, timestamp) || present(headers, signature);
    }

    private static boolean present(HttpHeaders headers, String name) {
      return headers.first(name).filter(v -> !v.isBlank()).isPresent();
    }
  }

  private final Names names;
  private final String messageId;
  private final String timestampDigits;
  private final byte[][] v1;
  private final List<byte[]> v1a;

  private StandardWebhooksSignatureHeader(Names names, String messageId, String timestampDigits, byte[][] v1,
      List<byte[]> v1a) {
    this.names = names;
    this.messageId = messageId;
    this.timestampDigits = timestampDigits;
    this.v1 = v1;
    this.v1a = v1a;
  }

  /**
   * Parses the headers.
   *
   * @throws dev.hookledger.DeliveryRejectedException {@code SIGNATURE_MISSING} when one of the three
   *     is absent or blank (named from the {@code svix-*} set when only that set is partly there);
   *     {@code SIGNATURE_MALFORMED} for a timestamp that is not decimal seconds, too many entries, or
   *     no well-formed {@code v1} or {@code v1a} entry
   */
  static StandardWebhooksSignatureHeader parse(HttpHeaders headers) {
    Names names = Names.SVIX.allIn(headers) || (Names.SVIX.anyIn(headers) && !Names.WEBHOOK.anyIn(headers))
        ? Names.SVIX : Names.WEBHOOK;
    String signature = required(headers, names.signature());
    String messageId = required(headers, names.messageId());
    String timestamp = required(headers, names.timestamp());
    if (timestamp.length() > MAX_TIMESTAMP_DIGITS || !timestamp.chars().allMatch(c -> c >= '0' && c <= '9')) {
      throw Rejections.signatureMalformed(names.timestamp(), "is not a decimal number of seconds");
    }
    String[] entries = signature.split("\\s+");
    if (entries.length > MAX_ENTRIES) {
      throw Rejections.signatureMalformed(names.signature(),
          "has " + entries.length + " entries; at most " + MAX_ENTRIES + " are accepted");
    }
    List<byte[]> v1 = new ArrayList<>(2);
    List<byte[]> v1a = new ArrayList<>(0);
    for (String entry : entries) {
      int comma = entry.indexOf(',');
      if (comma < 0) {
        continue;
      }
      String version = entry.substring(0, comma);
      byte[] value = base64(entry.substring(comma + 1));
      if (version.equals("v1") && value != null && value.length == 32) {
        v1.add(value);
      } else if (version.equals("v1a") && value != null && value.length == 64) {
        v1a.add(value);
      }
    }
    if (v1.isEmpty() && v1a.isEmpty()) {
      throw Rejections.signatureMalformed(names.signature(), "has no well-formed v1 or v1a entry");
    }
    return new StandardWebhooksSignatureHeader(names, messageId, timestamp, v1.toArray(new byte[0][]),
        List.copyOf(v1a));
  }

  /** The names of the header set this delivery was signed with. */
  Names names() {
    return names;
  }

  /** The message id, the same on every retry of one message. */
  String messageId() {
    return messageId;
  }

  Instant timestamp() {
    return Instant.ofEpochSecond(Long.parseLong(timestampDigits));
  }

  /** The HMAC-SHA256 signatures ({@code v1}). */
  byte[][] v1() {
    return v1;
  }

  /** The Ed25519 signatures ({@code v1a}). */
  List<byte[]> v1a() {
    return v1a;
  }

  /** {@code <webhook-id>.<webhook-timestamp>.}, the bytes signed before the body. */
  ByteBuffer signedPrefix() {
    return ByteBuffer.wrap((messageId + "." + timestampDigits + ".").getBytes(StandardCharsets.UTF_8));
  }

  private static String required(HttpHeaders headers, String name) {
    return headers.first(name).map(String::trim).filter(v -> !v.isEmpty())
        .orElseThrow(() -> Rejections.signatureMissing(name, HINT));
  }

  private static byte[] base64(String text) {
    try {
      return Base64.getDecoder().decode(text);
    } catch (IllegalArgumentException e) {
      return null;
    }
  }
}
