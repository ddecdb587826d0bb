package dev.hookledger.samples.bench;

import dev.hookledger.EventContext;
import dev.hookledger.HttpEffect;
import dev.hookledger.OnEvent;
import dev.hookledger.Outbox;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * {@code bench --effects}: {@link NoopHandlers}' types, each handler sending one HTTP effect to the
 * destination {@value #SINK} (a local no-op sink), or nothing: the two sides of the outbox's cost.
 * Each effect carries its event's key in the header {@value #EVENT_HEADER}, and the moment its
 * handler's transaction committed is noted (an {@code afterCommit} action, on this JVM's
 * {@link System#nanoTime()}), so that the sink can tell the time from commit to send.
 */
final class EffectHandlers {
  /** The destination the effects go to. */
  static final String SINK = "sink";
  /** The header that names an effect's event ({@code provider/event id}) to the sink. */
  static final String EVENT_HEADER = "X-Bench-Event";
  private static final byte[] BODY = "{}".getBytes(java.nio.charset.StandardCharsets.UTF_8);

  private final boolean sends;
  private final Map<String, Long> committedAt = new ConcurrentHashMap<>();

  /** @param sends whether each event sends one effect */
  EffectHandlers(boolean sends) {
    this.sends = sends;
  }

  @OnEvent(value = "invoice.paid", provider = "stripe")
  void paid(Outbox outbox, EventContext context) {
    send(outbox, context);
  }

  @OnEvent(value = "push", provider = "github")
  void pushed(Outbox outbox, EventContext context) {
    send(outbox, context);
  }

  @OnEvent(value = {"orders/create", "orders/updated"}, provider = "shopify", skipStale = true)
  void changed(Outbox outbox, EventContext context) {
    send(outbox, context);
  }

  /** Whether each event sends one effect. */
  boolean sends() {
    return sends;
  }

  /** When the transaction that enqueued the effect of {@code event} ({@code provider/event id}) committed; null if unknown. */
  Long committedAt(String event) {
    return committedAt.get(event);
  }

  private void send(Outbox outbox, EventContext context) {
    if (sends) {
      String event = context.event().provider() + "/" + context.event().eventId();
      outbox.send(HttpEffect.to(SINK, "/").header(EVENT_HEADER, event).body(BODY, "application/json").name("sink")
          .build());
      context.afterCommit(() -> committedAt.putIfAbsent(event, System.nanoTime()));
    }
  }
}
