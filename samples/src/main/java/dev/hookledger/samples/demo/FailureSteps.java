package dev.hookledger.samples.demo;

import static dev.hookledger.samples.demo.DemoContext.describe;

import dev.hookledger.runtime.admin.EventSummary;
import dev.hookledger.samples.traffic.SampleEvents;
import dev.hookledger.samples.traffic.WebhookClient.Answer;

/** A handler that fails every time: retried with backoff, then kept as dead for an operator. */
final class FailureSteps {
  private final DemoContext ctx;
  private final Narrator n;
  private final int maxAttempts;

  FailureSteps(DemoContext ctx, int maxAttempts) {
    this.ctx = ctx;
    this.n = ctx.narrator();
    this.maxAttempts = maxAttempts;
  }

  /**
   * The handler's own message from the ledger's {@code last_error} (its first line names the method
   * and event, then the exception): {@code invoice in_demo_eur is in EUR; ...}.
   */
  static String cause(String lastError) {
    String first = lastError.lines().findFirst().orElse("");
    int at = first.lastIndexOf("Exception: ");
    return at < 0 ? first : first.substring(at + "Exception: ".length());
  }

  /** An invoice in euros, which the sample's billing handler refuses. */
  void poisonEvent() {
    String id = "evt_demo_invoice_eur";
    String body = SampleEvents.invoicePaid(id, "in_demo_eur", "cus_bob", 900, "eur", ctx.clock().instant());
    n.step("A poison event: invoice.paid " + id + " in EUR, which the billing handler refuses"
        + " every time");
    Answer answer = ctx.send(ctx.sign().stripe(body, ctx.clock().instant()));
    EventSummary row = ctx.settled("stripe", id);
    n.say("server", describe(answer) + " (the answer never waits for a handler)");
    n.say("ledger", describe(row) + row.lastError().map(e -> "; last error: " + cause(e)).orElse(""));
    n.check(answer.status() == 200 && DemoContext.status(row).equals("dead") && row.attempts() == maxAttempts,
        "rolled back on each of " + maxAttempts + " attempts, then set aside as dead; nothing booked");
  }
}
