package dev.hookledger.samples.demo;

import dev.hookledger.InboundDelivery;
import dev.hookledger.samples.server.SampleSecrets;
import dev.hookledger.samples.traffic.SampleEvents;
import dev.hookledger.samples.traffic.SampleSigners;
import dev.hookledger.samples.traffic.WebhookClient;
import dev.hookledger.samples.traffic.WebhookClient.Answer;
import java.io.PrintStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.Map;

/**
 * {@code demo --target URL}: the demo's kinds of traffic sent to a {@code serve} already running,
 * signed with the secrets it uses, so that an operator can watch its admin page and commands: paid
 * invoices, a provider retry (a duplicate), a forgery (refused), and poison invoices (in EUR, which
 * the billing handler refuses on every attempt: failing, then dead after serve's
 * {@code --retry-max-attempts}). Ids are new on each run. Checks only the answers: the ledger is
 * the target's, seen on its admin page.
 */
final class TargetDemo {
  private final URI target;
  private final int poison;
  private final Map<String, String> environment;
  private final PrintStream out;
  private final Clock clock;

  TargetDemo(URI target, int poison, Map<String, String> environment, PrintStream out, Clock clock) {
    this.target = target;
    this.poison = poison;
    this.environment = environment;
    this.out = out;
    this.clock = clock;
  }

  /** Sends everything; true if every answer was the one expected. */
  boolean run() {
    String stripeSecret = environment.get(SampleSecrets.STRIPE_ENV);
    if (stripeSecret == null || stripeSecret.isBlank()) {
      throw new IllegalArgumentException("demo --target signs with the target's secrets: set "
          + SampleSecrets.STRIPE_ENV + " to the one serve uses (it prints the one it generated)");
    }
    SampleSigners sign = new SampleSigners(SampleSecrets.fromEnvironment(environment));
    WebhookClient client = new WebhookClient(target);
    String run = Long.toString(clock.millis(), 36);
    boolean ok = true;
    out.println("sending to " + target + "/webhooks/stripe (run " + run + ")");

    String paid = "evt_target_" + run + "_paid";
    String body = SampleEvents.invoicePaid(paid, "in_" + run, "cus_alice", 1200, "usd", clock.instant());
    ok &= expect(client.send(sign.stripe(body, clock.instant())), 200, "invoice.paid " + paid);
    ok &= expect(client.send(sign.stripe(body, clock.instant())), 200, "the same event again (a provider retry)");

    String forgedId = "evt_target_" + run + "_forged";
    String honest = SampleEvents.invoicePaid(forgedId, "in_" + run + "_f", "cus_mallory", 100, "usd", clock.instant());
    InboundDelivery signed = sign.stripe(honest, clock.instant());
    String forged = honest.replace("\"amount_paid\":100,", "\"amount_paid\":1000000,");
    ok &= expect(client.send(InboundDelivery.of("POST", signed.path(), signed.headers(),
        forged.getBytes(StandardCharsets.UTF_8))), 401, "a forgery of " + forgedId + " (amount changed after signing)");

    for (int i = 1; i <= poison; i++) {
      String id = "evt_target_" + run + "_eur" + i;
      String eur = SampleEvents.invoicePaid(id, "in_" + run + "_eur" + i, "cus_bob", 900, "eur", clock.instant());
      ok &= expect(client.send(sign.stripe(eur, clock.instant())), 200, "invoice.paid " + id + " in EUR (poison:"
          + " the billing handler refuses it on every attempt)");
    }
    out.println(ok ? "every answer was as expected" : "some answers were NOT as expected (above)");
    out.println("watch: " + target + "/admin (failing, then dead once serve's retries are spent),"
        + " or: hookledger-samples status");
    return ok;
  }

  private boolean expect(Answer answer, int status, String what) {
    boolean ok = answer.status() == status;
    out.println("  " + what + ": " + answer + (ok ? "" : " (expected " + status + ")"));
    return ok;
  }
}
