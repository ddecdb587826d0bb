package dev.hookledger.runtime.testing;

import dev.hookledger.HttpHeaders;
import dev.hookledger.InboundDelivery;
import dev.hookledger.Secrets;
import dev.hookledger.spi.Signatures;
import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/** Signs deliveries for {@link TestHookAdapter}, as HTTP requests or as {@link InboundDelivery} values. */
public final class TestHookSigner {
  private final String secret;

  public TestHookSigner(String secret) {
    this.secret = secret;
  }

  /** The signature header's value for {@code body}. */
  public String signature(String body) {
    byte[] mac = Signatures.hmacSha256(Secrets.of(secret).list().get(0),
        ByteBuffer.wrap(body.getBytes(StandardCharsets.UTF_8)));
    return "sha256=" + Signatures.hex(mac);
  }

  /** A signed POST with a Content-Length. */
  public HttpRequest request(URI uri, String eventId, String type, String body) {
    return HttpRequest.newBuilder(uri)
        .header(TestHookAdapter.SIGNATURE, signature(body))
        .header(TestHookAdapter.EVENT_ID, eventId)
        .header(TestHookAdapter.EVENT_TYPE, type)
        .POST(HttpRequest.BodyPublishers.ofString(body))
        .build();
  }

  /** A signed delivery for {@code WebhookRuntime.receive}, to {@code /webhooks/{provider}}. */
  public InboundDelivery delivery(String provider, String eventId, String type, String body) {
    return InboundDelivery.post("/webhooks/" + provider, headers(eventId, type, body).build(), body);
  }

  /** As {@link #delivery(String, String, String, String)}, for one version of an entity (the ordering guard's input). */
  public InboundDelivery delivery(String provider, String eventId, String type, String body, String entityKey,
      long entityVersion) {
    HttpHeaders headers = headers(eventId, type, body)
        .add(TestHookAdapter.ENTITY_KEY, entityKey)
        .add(TestHookAdapter.ENTITY_VERSION, Long.toString(entityVersion))
        .build();
    return InboundDelivery.post("/webhooks/" + provider, headers, body);
  }

  private HttpHeaders.Builder headers(String eventId, String type, String body) {
    return HttpHeaders.builder()
        .add(TestHookAdapter.SIGNATURE, signature(body))
        .add(TestHookAdapter.EVENT_ID, eventId)
        .add(TestHookAdapter.EVENT_TYPE, type);
  }
}
