package dev.hookledger.spi.standardwebhooks;

import dev.hookledger.HttpHeaders;
import dev.hookledger.InboundDelivery;
import dev.hookledger.Secret;
import dev.hookledger.spi.Signatures;
import dev.hookledger.standardwebhooks.StandardWebhooksAdapter;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;

/** Signs Standard Webhooks deliveries ({@code v1}) for the fourth-adapter tests. */
final class StandardWebhooksTestSigner {
  private StandardWebhooksTestSigner() {}

  /** The key a {@code whsec_<base64>} secret stands for. */
  static Secret secret(String id, String whsec) {
    return Secret.of(id, Base64.getDecoder().decode(whsec.substring("whsec_".length())));
  }

  static String v1(String whsec, String messageId, long timestamp, byte[] body) {
    byte[] mac = Signatures.hmacSha256(secret("k", whsec), prefix(messageId, timestamp), ByteBuffer.wrap(body));
    return "v1," + Base64.getEncoder().encodeToString(mac);
  }

  static ByteBuffer prefix(String messageId, long timestamp) {
    return ByteBuffer.wrap((messageId + "." + timestamp + ".").getBytes(StandardCharsets.UTF_8));
  }

  static InboundDelivery delivery(String messageId, long timestamp, String signature, byte[] body) {
    HttpHeaders headers =
        HttpHeaders.builder()
            .add(StandardWebhooksAdapter.MESSAGE_ID, messageId)
            .add(StandardWebhooksAdapter.TIMESTAMP, Long.toString(timestamp))
            .add(StandardWebhooksAdapter.SIGNATURE, signature)
            .build();
    return InboundDelivery.of("POST", "/webhooks/standard-webhooks", headers, body);
  }

  static InboundDelivery sign(String whsec, String messageId, Instant at, byte[] body) {
    long timestamp = at.getEpochSecond();
    return delivery(messageId, timestamp, v1(whsec, messageId, timestamp, body), body);
  }
}
