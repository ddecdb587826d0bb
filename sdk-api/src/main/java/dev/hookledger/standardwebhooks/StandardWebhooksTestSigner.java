package dev.hookledger.standardwebhooks;

import static java.util.Objects.requireNonNull;

import dev.hookledger.HttpHeaders;
import dev.hookledger.InboundDelivery;
import dev.hookledger.Secret;
import dev.hookledger.spi.Signatures;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/**
 * Signs bodies the way a Standard Webhooks sender does ({@code v1}, HMAC-SHA256), for tests and
 * local tools.
 *
 * <pre>{@code
 * InboundDelivery d = StandardWebhooksTestSigner.withSecrets("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw")
 *     .provider("clerk")
 *     .delivery("msg_1", "{\"type\":\"user.created\",\"data\":{}}", Instant.now());
 * }</pre>
 *
 * <p>With several secrets the header carries one {@code v1} entry per secret, in the order given,
 * as a sender does while a secret rotates. Immutable and thread-safe.
 */
public final class StandardWebhooksTestSigner {
  private final List<Secret> keys;
  private final String provider;
  private final boolean svix;

  private StandardWebhooksTestSigner(List<Secret> keys, String provider, boolean svix) {
    this.keys = keys;
    this.provider = provider;
    this.svix = svix;
  }

  /** A signer with one or more {@code whsec_<base64>} secrets, addressing {@code /webhooks/standard}. */
  public static StandardWebhooksTestSigner withSecrets(String... whsec) {
    if (whsec.length == 0) {
      throw new IllegalArgumentException("at least one secret is required");
    }
    List<Secret> keys = new ArrayList<>(whsec.length);
    for (int i = 0; i < whsec.length; i++) {
      keys.add(Secret.of(Integer.toString(i), WhsecKeys.decode(Integer.toString(i), whsec[i], "")));
    }
    return new StandardWebhooksTestSigner(List.copyOf(keys), StandardWebhooksAdapter.DEFAULT_ID, false);
  }

  /** The same signer addressing {@code /webhooks/<provider>}. */
  public StandardWebhooksTestSigner provider(String provider) {
    return new StandardWebhooksTestSigner(keys, requireNonNull(provider, "provider"), svix);
  }

  /** The same signer naming its headers {@code svix-id}, {@code svix-timestamp}, {@code svix-signature}, as Svix-based senders do. */
  public StandardWebhooksTestSigner svixHeaders() {
    return new StandardWebhooksTestSigner(keys, provider, true);
  }

  /** The {@code webhook-signature} value for {@code body} of message {@code messageId} signed at {@code timestamp}. */
  public String signatureHeader(String messageId, byte[] body, Instant timestamp) {
    ByteBuffer prefix = ByteBuffer.wrap(
        (messageId + "." + timestamp.getEpochSecond() + ".").getBytes(StandardCharsets.UTF_8));
    StringBuilder header = new StringBuilder();
    for (Secret key : keys) {
      byte[] mac = Signatures.hmacSha256(key, prefix, ByteBuffer.wrap(body));
      header.append(header.length() == 0 ? "" : " ").append("v1,").append(Base64.getEncoder().encodeToString(mac));
    }
    return header.toString();
  }

  /** A complete delivery: the three {@code webhook-*} (or {@code svix-*}) headers, {@code Content-Type} and the body. */
  public InboundDelivery delivery(String messageId, byte[] body, Instant timestamp) {
    requireNonNull(messageId, "messageId");
    StandardWebhooksSignatureHeader.Names names =
        svix ? StandardWebhooksSignatureHeader.Names.SVIX : StandardWebhooksSignatureHeader.Names.WEBHOOK;
    HttpHeaders headers = HttpHeaders.builder()
        .add("Content-Type", "application/json")
        .add(names.messageId(), messageId)
        .add(names.timestamp(), Long.toString(timestamp.getEpochSecond()))
        .add(names.signature(), signatureHeader(messageId, body, timestamp))
        .build();
    return InboundDelivery.of("POST", "/webhooks/" + provider, headers, body);
  }

  /** Like {@link #delivery(String, byte[], Instant)} with a UTF-8 body. */
  public InboundDelivery delivery(String messageId, String body, Instant timestamp) {
    return delivery(messageId, body.getBytes(StandardCharsets.UTF_8), timestamp);
  }
}
