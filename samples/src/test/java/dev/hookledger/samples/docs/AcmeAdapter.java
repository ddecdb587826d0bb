package dev.hookledger.samples.docs;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hookledger.InboundDelivery;
import dev.hookledger.Secret;
import dev.hookledger.Secrets;
import dev.hookledger.WebhookEvent;
import dev.hookledger.spi.DeliveryChecks;
import dev.hookledger.spi.ProviderAdapter;
import dev.hookledger.spi.Rejections;
import dev.hookledger.spi.Signatures;
import java.time.Clock;

/**
 * The adapter of docs/adapters.md, compiled as written ({@code DocSnippetsTest} checks that the page's
 * block is made of these lines, in this order).
 */
public final class AcmeAdapter implements ProviderAdapter {
  public AcmeAdapter() {}                                   // ServiceLoader needs it

  @Override public String id() { return "acme"; }           // lower case; also /webhooks/acme

  @Override
  public WebhookEvent verify(InboundDelivery delivery, Secrets secrets, Clock clock) {
    // the runtime has already refused a body over the limit and a tenant without secrets
    String header = delivery.headers().first("Acme-Signature")
        .orElseThrow(() -> Rejections.signatureMissing("Acme-Signature", "was the request sent by Acme?"));
    byte[] expected = Signatures.decodeHex(header, 32, "Acme-Signature");      // SIGNATURE_MALFORMED if not
    Secret secret = Signatures.matchSha256(secrets, new byte[][] {expected}, delivery.body())
        .orElseThrow(() -> Rejections.signatureMismatch("Acme-Signature", secrets, ""));
    byte[] body = delivery.bodyBytes();
    JsonNode json = DeliveryChecks.parseJson(body, "the Acme body");           // only now is JSON read
    return WebhookEvent.builder()
        .provider(id()).eventId(json.path("id").asText()).type(json.path("type").asText())
        .secretId(secret.id()).body(body).payload(json)
        .build();
  }
}
