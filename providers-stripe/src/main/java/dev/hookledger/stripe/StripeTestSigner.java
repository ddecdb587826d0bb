package dev.hookledger.stripe;

import static java.util.Objects.requireNonNull;

import dev.hookledger.HttpHeaders;
import dev.hookledger.InboundDelivery;
import dev.hookledger.Secret;
import dev.hookledger.spi.Signatures;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Signs bodies the way Stripe does, for tests and local tools (the counterpart of stripe-node's
 * {@code generateTestHeaderString}).
 *
 * <pre>{@code
 * InboundDelivery d = StripeTestSigner.withSecrets("whsec_test")
 *     .delivery("{\"id\":\"evt_1\",\"type\":\"invoice.paid\"}", Instant.now());
 * }</pre>
 *
 * <p>With several secrets the header carries one {@code v1} per secret, in the order given, as
 * Stripe sends during a secret roll. Immutable and thread-safe.
 */
public final class StripeTestSigner {
  /** Where deliveries are addressed unless {@link #path} says otherwise. */
  public static final String DEFAULT_PATH = "/webhooks/stripe";

  private final List<Secret> secrets;
  private final String path;

  private StripeTestSigner(List<Secret> secrets, String path) {
    this.secrets = secrets;
    this.path = path;
  }

  /** A signer with one or more secrets, each used as its UTF-8 bytes (whole, {@code whsec_} included). */
  public static StripeTestSigner withSecrets(String... secrets) {
    if (secrets.length == 0) {
      throw new IllegalArgumentException("at least one secret is required");
    }
    List<Secret> list = new ArrayList<>(secrets.length);
    for (int i = 0; i < secrets.length; i++) {
      requireNonNull(secrets[i], "secret " + i);
      list.add(Secret.of(Integer.toString(i), secrets[i].getBytes(StandardCharsets.UTF_8)));
    }
    return new StripeTestSigner(List.copyOf(list), DEFAULT_PATH);
  }

  /**
   * The same signer addressing {@code path} ({@code /webhooks/stripe/acct_123} for a per-account
   * tenant). Under {@link #DEFAULT_PATH}, its deliveries carry the rest of the path as their
   * {@link InboundDelivery#providerPath()}, as the runtime's filter would set it.
   */
  public StripeTestSigner path(String path) {
    return new StripeTestSigner(secrets, requireNonNull(path, "path"));
  }

  /** The {@code Stripe-Signature} value for {@code body} signed at {@code timestamp} (whole seconds). */
  public String signatureHeader(byte[] body, Instant timestamp) {
    return signatureHeader(body, Long.toString(timestamp.getEpochSecond()));
  }

  /** The {@code Stripe-Signature} value for a UTF-8 {@code body}. */
  public String signatureHeader(String body, Instant timestamp) {
    return signatureHeader(body.getBytes(StandardCharsets.UTF_8), timestamp);
  }

  /**
   * The {@code Stripe-Signature} value with the timestamp written exactly as {@code timestampDigits}
   * (for tests of unusual digits, such as a leading zero).
   */
  public String signatureHeader(byte[] body, String timestampDigits) {
    StringBuilder header = new StringBuilder("t=").append(timestampDigits);
    byte[] prefix = (timestampDigits + ".").getBytes(StandardCharsets.US_ASCII);
    for (Secret secret : secrets) {
      byte[] mac = Signatures.hmacSha256(secret, ByteBuffer.wrap(prefix), ByteBuffer.wrap(body));
      header.append(",v1=").append(Signatures.hex(mac));
    }
    return header.toString();
  }

  /** A complete POST of {@code body} as Stripe sends it, signed at {@code timestamp}. */
  public InboundDelivery delivery(byte[] body, Instant timestamp) {
    HttpHeaders headers =
        HttpHeaders.builder()
            .add("Content-Type", "application/json; charset=utf-8")
            .add("User-Agent", "Stripe/1.0 (+https://stripe.com/docs/webhooks)")
            .add(StripeSignatureHeader.NAME, signatureHeader(body, timestamp))
            .build();
    InboundDelivery delivery = InboundDelivery.of("POST", path, headers, body.clone());
    return path.startsWith(DEFAULT_PATH + "/") ? delivery.withProviderPath(path.substring(DEFAULT_PATH.length())) : delivery;
  }

  /** A complete POST of a UTF-8 {@code body}, signed at {@code timestamp}. */
  public InboundDelivery delivery(String body, Instant timestamp) {
    return delivery(body.getBytes(StandardCharsets.UTF_8), timestamp);
  }
}
