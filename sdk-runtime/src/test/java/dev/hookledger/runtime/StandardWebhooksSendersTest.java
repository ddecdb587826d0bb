package dev.hookledger.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.hookledger.OnEvent;
import dev.hookledger.Secrets;
import dev.hookledger.WebhookEvent;
import dev.hookledger.runtime.testing.LedgerRows;
import dev.hookledger.runtime.testing.TestDatabase;
import dev.hookledger.standardwebhooks.StandardWebhooksAdapter;
import dev.hookledger.standardwebhooks.StandardWebhooksTestSigner;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * Standard Webhooks as senders really send it, end to end through the runtime: Svix-named headers,
 * a payload without {@code type} (recorded with the empty type, which {@code @OnEvent("*")}
 * receives and no exact type does), and a secret given without its {@code whsec_} prefix.
 */
class StandardWebhooksSendersTest {
  // SW-1, the official libraries' vector: its body has no "type"
  private static final String SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
  private static final String BODY = "{\"test\": 2432232314}";
  private static final Instant SIGNED = Instant.ofEpochSecond(1614265330);

  @Test
  void aSvixSignedTypelessDeliveryReachesTheWildcardHandlerOnly() {
    TestDatabase.Database db = TestDatabase.create();
    Everything everything = new Everything();
    try (WebhookRuntime runtime = WebhookRuntime.builder()
        .dataSource(db.dataSource())
        .schema("sw_senders")
        .provider(StandardWebhooksAdapter.named("clerk"), Secrets.of(SECRET.substring("whsec_".length())))
        .handlers(everything)
        .mode(ProcessingMode.INLINE)
        .clock(Clock.fixed(SIGNED, ZoneOffset.UTC))
        .build()) {
      runtime.migrate();
      runtime.start();

      Receipt receipt = runtime.receive("clerk", StandardWebhooksTestSigner.withSecrets(SECRET).provider("clerk")
          .svixHeaders().delivery("msg_p5jXN8AQM9LWM0D4loKWxJek", BODY, SIGNED));

      assertEquals(Receipt.Outcome.PROCESSED, receipt.outcome());
      assertEquals(List.of("msg_p5jXN8AQM9LWM0D4loKWxJek '' {\"test\":2432232314}"), everything.seen);
      assertEquals("done", LedgerRows.event(db.dataSource(), "sw_senders", "msg_p5jXN8AQM9LWM0D4loKWxJek")
          .orElseThrow().get("status"));
    }
  }

  static final class Everything {
    final List<String> seen = new CopyOnWriteArrayList<>();

    @OnEvent("*")
    void any(WebhookEvent event) {
      seen.add(event.eventId() + " '" + event.type() + "' " + event.payload());
    }

    @OnEvent("user.created")
    void created(WebhookEvent event) {
      seen.add("user.created must not see a typeless event");
    }
  }
}
