package dev.hookledger.samples.demo;

import static dev.hookledger.samples.demo.DemoContext.describe;

import dev.hookledger.InboundDelivery;
import dev.hookledger.runtime.admin.EventSummary;
import dev.hookledger.samples.traffic.SampleEvents;
import dev.hookledger.samples.traffic.WebhookClient.Answer;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/** Providers deliver at least once: retries, redeliveries, and copies that arrive together. */
final class DuplicateSteps {
  static final int CONCURRENT_COPIES = 20;

  private final DemoContext ctx;
  private final Narrator n;

  DuplicateSteps(DemoContext ctx) {
    this.ctx = ctx;
    this.n = ctx.narrator();
  }

  /** Stripe retries an event it thinks was not received (a timeout, a 5xx). */
  void stripeRetries() {
    String id = "evt_demo_invoice_ada";
    String body = SampleEvents.invoicePaid(id, "in_demo_ada", "cus_ada", 4200, "usd", ctx.clock().instant());
    ctx.expected().invoicePaid("cus_ada", 4200);
    n.step("Stripe retries: invoice.paid " + id + " (cus_ada pays $42.00), sent 3 times,"
        + " each retry signed afresh");
    List<Answer> answers = new ArrayList<>();
    answers.add(ctx.send(ctx.sign().stripe(body, ctx.clock().instant())));
    ctx.settled("stripe", id);
    answers.add(ctx.send(ctx.sign().stripe(body, ctx.clock().instant())));
    answers.add(ctx.send(ctx.sign().stripe(body, ctx.clock().instant())));
    EventSummary row = ctx.ledger("stripe", "", id).orElseThrow();
    n.say("server", describe(answers));
    n.say("ledger", describe(row));
    n.check(allOk(answers) && DemoContext.status(row).equals("done") && row.attempts() == 1,
        "every delivery acknowledged, the payment booked once");
  }

  /** Twenty copies of one event arrive at the same instant, on twenty connections. */
  void concurrentCopies() throws InterruptedException {
    String id = "evt_demo_invoice_grace";
    String body = SampleEvents.invoicePaid(id, "in_demo_grace", "cus_grace", 1999, "usd",
        ctx.clock().instant());
    ctx.expected().invoicePaid("cus_grace", 1999);
    n.step("A burst: invoice.paid " + id + " (cus_grace pays $19.99), " + CONCURRENT_COPIES
        + " copies released at the same instant on " + CONCURRENT_COPIES + " connections");
    InboundDelivery delivery = ctx.sign().stripe(body, ctx.clock().instant());
    List<Answer> answers = sendTogether(delivery, CONCURRENT_COPIES);
    EventSummary row = ctx.settled("stripe", id);
    n.say("server", describe(answers));
    n.say("ledger", describe(row));
    n.check(allOk(answers) && accepted(answers) == 1 && DemoContext.status(row).equals("done") && row.attempts() == 1,
        "one copy recorded and processed, " + (CONCURRENT_COPIES - 1) + " turned away as duplicates");
  }

  private List<Answer> sendTogether(InboundDelivery delivery, int copies) throws InterruptedException {
    ExecutorService senders = Executors.newFixedThreadPool(copies);
    try {
      CountDownLatch ready = new CountDownLatch(copies);
      CountDownLatch go = new CountDownLatch(1);
      List<Future<Answer>> futures = new ArrayList<>();
      for (int i = 0; i < copies; i++) {
        futures.add(senders.submit(() -> {
          ready.countDown();
          go.await();
          return ctx.send(delivery);
        }));
      }
      ready.await();
      go.countDown(); // every sender is parked at the gate: release them together
      List<Answer> answers = new ArrayList<>();
      for (Future<Answer> f : futures) {
        answers.add(f.get());
      }
      return answers;
    } catch (ExecutionException e) {
      throw new IllegalStateException("a concurrent delivery failed: " + e.getCause(), e.getCause());
    } finally {
      senders.shutdownNow();
    }
  }

  /** GitHub never retries by itself, but "Redeliver" sends the same delivery GUID again. */
  void githubRedeliveries() {
    String issueGuid = UUID.randomUUID().toString();
    String pushGuid = UUID.randomUUID().toString();
    String repo = "octo-org/demo";
    String issue = SampleEvents.issueOpened(repo, 9001, 42, "Checkout page times out",
        ctx.clock().instant());
    String push = SampleEvents.push(repo, "5a1b7c".repeat(6) + "abcd", 3);
    ctx.expected().issueOpened();
    ctx.expected().push(repo, 3);
    n.step("GitHub redeliveries: issues.opened (" + repo + "#42) and a push of 3 commits,"
        + " each sent twice with the same X-GitHub-Delivery");
    List<Answer> answers = new ArrayList<>();
    answers.add(ctx.send(ctx.sign().github("issues", issueGuid, issue)));
    answers.add(ctx.send(ctx.sign().github("push", pushGuid, push)));
    answers.add(ctx.send(ctx.sign().github("issues", issueGuid, issue)));
    answers.add(ctx.send(ctx.sign().github("push", pushGuid, push)));
    EventSummary opened = ctx.settled("github", issueGuid);
    EventSummary pushed = ctx.settled("github", pushGuid);
    n.say("server", describe(answers));
    n.say("ledger", "issues.opened " + describe(opened) + "; push " + describe(pushed));
    n.check(allOk(answers) && DemoContext.status(opened).equals("done") && DemoContext.status(pushed).equals("done"),
        "one ticket opened and 3 commits counted, the redeliveries turned away");
  }

  private static long accepted(List<Answer> answers) {
    return answers.stream().filter(a -> a.body().strip().equals("accepted")).count();
  }

  static boolean allOk(List<Answer> answers) {
    return answers.stream().allMatch(a -> a.status() == 200);
  }
}
