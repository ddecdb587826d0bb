package dev.hookledger.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.hookledger.RejectionReason;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class CompositeWebhookListenerTest {

  @Test
  void callsEveryListenerInOrderEvenAfterOneThrows() {
    List<String> calls = new ArrayList<>();
    WebhookListener first = new WebhookListener() {
      @Override
      public void rejected(String provider, RejectionReason reason) {
        calls.add("first " + provider);
        throw new IllegalStateException("broken listener");
      }
    };
    WebhookListener second = new WebhookListener() {
      @Override
      public void rejected(String provider, RejectionReason reason) {
        calls.add("second " + reason);
      }
    };

    WebhookListener.composite(first, second).rejected("stripe", RejectionReason.TOO_LARGE);

    assertEquals(List.of("first stripe", "second TOO_LARGE"), calls);
  }

  @Test
  void aSingleListenerIsReturnedAsItIs() {
    assertSame(WebhookListener.NONE, WebhookListener.composite(WebhookListener.NONE));
  }
}
