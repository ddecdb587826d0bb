package dev.hookledger.samples.demo;

import dev.hookledger.InboundDelivery;
import dev.hookledger.samples.traffic.SampleEvents;
import dev.hookledger.samples.traffic.WebhookClient.Answer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/** Deliveries that must change nothing: a forged body, and a captured delivery replayed late. */
final class RejectionSteps {
  private final DemoContext ctx;
  private final Narrator n;

  RejectionSteps(DemoContext ctx) {
    this.ctx = ctx;
    this.n = ctx.narrator();
  }

  /** Someone changes the amount in a validly signed body. */
  void tamperedBody() {
    String id = "evt_demo_tampered";
    String body = SampleEvents.invoicePaid(id, "in_demo_mallory", "cus_mallory", 100, "usd",
        ctx.clock().instant());
    InboundDelivery signed = ctx.sign().stripe(body, ctx.clock().instant());
    String forged = body.replace("\"amount_paid\":100,", "\"amount_paid\":1000000,");
    if (forged.equals(body)) {
      throw new IllegalStateException("the demo's forgery did not change the body");
    }
    n.step("A forgery: invoice.paid " + id + " signed for $1.00, its amount changed to $10,000.00"
        + " after signing");
    Answer answer = ctx.send(InboundDelivery.of("POST", signed.path(), signed.headers(),
        forged.getBytes(StandardCharsets.UTF_8)));
    boolean recorded = ctx.ledger("stripe", "", id).isPresent();
    n.say("server", DemoContext.describe(answer));
    n.say("ledger", recorded ? "recorded it" : "nothing recorded");
    n.check(answer.status() == 401 && !recorded, "refused before anything was stored");
  }

  /** A delivery captured ten minutes ago is sent again: Stripe's signed timestamp is too old. */
  void staleTimestamp() {
    String id = "evt_demo_replayed";
    Duration age = Duration.ofMinutes(10);
    String body = SampleEvents.invoicePaid(id, "in_demo_replayed", "cus_mallory", 5000, "usd",
        ctx.clock().instant().minus(age));
    n.step("A replay attack: invoice.paid " + id + " with a valid signature made " + age.toMinutes()
        + " minutes ago (Stripe's tolerance is 5 minutes)");
    Answer answer = ctx.send(ctx.sign().stripe(body, ctx.clock().instant().minus(age)));
    boolean recorded = ctx.ledger("stripe", "", id).isPresent();
    n.say("server", DemoContext.describe(answer));
    n.say("ledger", recorded ? "recorded it" : "nothing recorded");
    n.check(answer.status() == 401 && !recorded, "refused before anything was stored");
  }
}
