package dev.hookledger.samples.bench;

import dev.hookledger.HttpEffect;
import dev.hookledger.OnEvent;
import dev.hookledger.Outbox;

/**
 * {@code bench --effects}: {@link NoopHandlers}' types, each handler sending one HTTP effect to the
 * destination {@value #SINK} (a local no-op sink), or nothing: the two sides of the outbox's cost.
 */
final class EffectHandlers {
  /** The destination the effects go to. */
  static final String SINK = "sink";
  private static final byte[] BODY = "{}".getBytes(java.nio.charset.StandardCharsets.UTF_8);

  private final boolean sends;

  /** @param sends whether each event sends one effect */
  EffectHandlers(boolean sends) {
    this.sends = sends;
  }

  @OnEvent(value = "invoice.paid", provider = "stripe")
  void paid(Outbox outbox) {
    send(outbox);
  }

  @OnEvent(value = "push", provider = "github")
  void pushed(Outbox outbox) {
    send(outbox);
  }

  @OnEvent(value = {"orders/create", "orders/updated"}, provider = "shopify", skipStale = true)
  void changed(Outbox outbox) {
    send(outbox);
  }

  private void send(Outbox outbox) {
    if (sends) {
      outbox.send(HttpEffect.to(SINK, "/").body(BODY, "application/json").name("sink").build());
    }
  }
}
