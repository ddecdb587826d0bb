package dev.hookledger.samples.demo;

import static dev.hookledger.samples.demo.DemoContext.describe;

import dev.hookledger.runtime.admin.EventSummary;
import dev.hookledger.samples.traffic.SampleEvents;
import dev.hookledger.samples.traffic.WebhookClient.Answer;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/** Providers do not deliver in order: an older version of an entity can arrive after a newer one. */
final class OrderingSteps {
  private final DemoContext ctx;
  private final Narrator n;

  OrderingSteps(DemoContext ctx) {
    this.ctx = ctx;
    this.n = ctx.narrator();
  }

  /** One version of a subscription as the demo sends it. */
  private record Version(int number, String eventId, String type, String status, String plan) {}

  /** Three versions of one Stripe subscription arrive as 1, 3, 2. */
  void subscriptionOutOfOrder() {
    String sub = "sub_demo_ada";
    Instant base = ctx.clock().instant().truncatedTo(ChronoUnit.SECONDS);
    List<Version> arrival = List.of(
        new Version(1, "evt_demo_sub_v1", "created", "trialing", "basic"),
        new Version(3, "evt_demo_sub_v3", "updated", "active", "pro"),
        new Version(2, "evt_demo_sub_v2", "updated", "past_due", "basic"));
    n.step("Out of order: three versions of subscription " + sub + " arrive as 1, 3, 2"
        + " (v1 trialing/basic, v2 past_due/basic, v3 active/pro)");
    List<Answer> answers = new ArrayList<>();
    List<String> ledger = new ArrayList<>();
    List<String> statuses = new ArrayList<>();
    for (Version v : arrival) {
      // Stripe's "created" is the version the ordering guard compares
      Instant created = base.plusSeconds(v.number());
      ctx.expected().subscription(sub, v.number(), v.status(), v.plan());
      String body = SampleEvents.subscription(v.eventId(), v.type(), sub, "cus_ada", v.status(), v.plan(),
          created);
      answers.add(ctx.send(ctx.sign().stripe(body, ctx.clock().instant())));
      EventSummary row = ctx.settled("stripe", v.eventId());
      ledger.add("v" + v.number() + " " + DemoContext.status(row));
      statuses.add(DemoContext.status(row));
    }
    n.say("server", describe(answers));
    n.say("ledger", String.join(", ", ledger)
        + (statuses.get(2).equals("stale") ? " (v2 is older than v3, already applied)" : ""));
    n.check(DuplicateSteps.allOk(answers) && statuses.equals(List.of("done", "done", "stale")),
        "v2 skipped as stale, the subscription keeps v3's status and plan");
  }

  /** Shopify's orders/updated overtakes the orders/create of the same order, then is retried. */
  void orderUpdateBeforeCreate() {
    long order = 820982911946154508L;
    Instant created = ctx.clock().instant().truncatedTo(ChronoUnit.SECONDS).minusSeconds(120);
    Instant paid = created.plusSeconds(60);
    String createWebhook = UUID.randomUUID().toString();
    String updateWebhook = UUID.randomUUID().toString();
    String createBody = SampleEvents.order(order, "#1001", "25.00", "pending", created);
    String updateBody = SampleEvents.order(order, "#1001", "27.50", "paid", paid);
    ctx.expected().order(order, created.getEpochSecond(), "25.00", "pending");
    ctx.expected().order(order, paid.getEpochSecond(), "27.50", "paid");
    n.step("Shopify overtakes itself: order #1001's orders/updated (paid, $27.50) arrives before its"
        + " orders/create (pending, $25.00), then is retried");
    List<Answer> answers = new ArrayList<>();
    answers.add(ctx.send(ctx.sign().shopify("orders/updated", updateWebhook, updateBody)));
    EventSummary updated = ctx.settled("shopify", updateWebhook);
    answers.add(ctx.send(ctx.sign().shopify("orders/create", createWebhook, createBody)));
    EventSummary create = ctx.settled("shopify", createWebhook);
    answers.add(ctx.send(ctx.sign().shopify("orders/updated", updateWebhook, updateBody)));
    n.say("server", describe(answers));
    n.say("ledger", "orders/updated " + describe(updated) + "; orders/create " + DemoContext.status(create)
        + (DemoContext.status(create).equals("stale") ? " (older than the update already applied)" : ""));
    n.check(DuplicateSteps.allOk(answers) && DemoContext.status(updated).equals("done")
        && DemoContext.status(create).equals("stale"), "the order stays paid at $27.50");
  }
}
