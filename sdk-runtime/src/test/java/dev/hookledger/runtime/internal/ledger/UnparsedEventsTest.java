package dev.hookledger.runtime.internal.ledger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.hookledger.WebhookEvent;
import dev.hookledger.internal.EventBytes;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** A queued work item keeps every fact of its event and shares its body, but not the adapter's parsed tree. */
class UnparsedEventsTest {

  @Test
  void theCopyKeepsEveryFieldSharesTheBodyAndParsesItsPayloadFromTheBytes() {
    byte[] body = "{\"id\":\"evt_1\",\"n\":1}".getBytes(StandardCharsets.UTF_8);
    WebhookEvent parsed = WebhookEvent.builder().provider("stripe").scope("acct_1").eventId("evt_1").type("invoice.paid")
        .apiVersion("2024-06-20").entityKey("in_1").entityVersion(7L).occurredAt(Instant.ofEpochSecond(1_700_000_000))
        .livemode(false).deliveryId("d1").secretId("0").signedAt(Instant.ofEpochSecond(1_700_000_001)).body(body)
        // a tree that differs from the bytes shows which one the copy reads
        .payload(JsonNodeFactory.instance.objectNode().put("from", "the adapter's tree"))
        .header("Stripe-Signature", "t=1,v1=00").header("Content-Type", "application/json")
        .build();

    WebhookEvent queued = UnparsedEvents.of(parsed);

    assertEquals(parsed.toString(), queued.toString());
    assertEquals(parsed.apiVersion(), queued.apiVersion());
    assertEquals(parsed.entityKey(), queued.entityKey());
    assertEquals(parsed.entityVersion(), queued.entityVersion());
    assertEquals(parsed.occurredAt(), queued.occurredAt());
    assertEquals(parsed.livemode(), queued.livemode());
    assertEquals(parsed.deliveryId(), queued.deliveryId());
    assertEquals(parsed.secretId(), queued.secretId());
    assertEquals(parsed.signedAt(), queued.signedAt());
    assertEquals(parsed.headers(), queued.headers());
    assertSame(EventBytes.body(parsed), EventBytes.body(queued), "the body is shared, not copied");
    assertEquals("the adapter's tree", parsed.payload().get("from").asText());
    assertEquals(1, queued.payload().get("n").asInt(), "the copy parses its own bytes");
  }
}
