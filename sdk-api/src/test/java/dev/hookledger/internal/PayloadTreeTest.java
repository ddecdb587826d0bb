package dev.hookledger.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hookledger.WebhookEvent;
import dev.hookledger.WebhookException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class PayloadTreeTest {

  @Test
  void theRuntimeReadsTheEventsOneParsedTreeWhileHandlersGetCopies() {
    WebhookEvent event = event("{\"data\":{\"object\":{\"id\":\"in_1\"}}}");

    assertSame(PayloadTree.of(event), PayloadTree.of(event), "parsed once, not copied");
    assertNotSame(PayloadTree.of(event), event.payload(), "payload() still hands out a copy of its own");
    assertEquals(event.payload(), PayloadTree.of(event));
    assertEquals("in_1", PayloadTree.of(event).at("/data/object/id").asText());
  }

  @Test
  void aPayloadThatIsNotJsonFailsAsPayloadDoes() {
    WebhookException e = assertThrows(WebhookException.class, () -> PayloadTree.of(event("not json")));
    assertTrue(e.getMessage().startsWith("payload of test event evt_1 is not JSON: "), e.getMessage());
  }

  private static WebhookEvent event(String body) {
    return WebhookEvent.builder().provider("test").eventId("evt_1").type("thing.done")
        .body(body.getBytes(StandardCharsets.UTF_8)).build();
  }
}
