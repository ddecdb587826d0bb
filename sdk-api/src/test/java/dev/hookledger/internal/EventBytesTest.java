package dev.hookledger.internal;

import static org.junit.jupiter.api.Assertions.assertSame;

import dev.hookledger.WebhookEvent;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class EventBytesTest {

  @Test
  void theLedgerReadsTheEventsOwnArraysNotCopies() {
    byte[] body = "payload=%7B%7D".getBytes(StandardCharsets.UTF_8);
    byte[] json = "{}".getBytes(StandardCharsets.UTF_8);
    WebhookEvent wrapped = event().body(body).payloadJson(json).build();
    WebhookEvent plain = event().body(json).build();

    assertSame(body, EventBytes.body(wrapped));
    assertSame(json, EventBytes.payloadJson(wrapped));
    assertSame(json, EventBytes.payloadJson(plain));
  }

  private static WebhookEvent.Builder event() {
    return WebhookEvent.builder().provider("test").eventId("evt_1").type("thing.done");
  }
}
