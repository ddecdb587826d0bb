package dev.hookledger.samples.demo;

import dev.hookledger.runtime.ProcessingMode;
import dev.hookledger.runtime.RetryPolicy;
import dev.hookledger.runtime.WebhookRuntimeBuilder;
import dev.hookledger.samples.app.ExpectedState;
import dev.hookledger.samples.app.SampleState;
import dev.hookledger.samples.server.SampleApp;
import dev.hookledger.samples.server.SampleDatabase;
import dev.hookledger.samples.server.SampleSecrets;
import dev.hookledger.samples.traffic.SampleSigners;
import dev.hookledger.samples.traffic.WebhookClient;
import java.io.PrintStream;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * The five-minute demo: starts the sample application on an embedded PostgreSQL, sends it signed
 * Stripe, GitHub and Shopify deliveries the way real providers misbehave, narrates what the server
 * answered and what the ledger recorded, and ends with a verdict computed by comparing the business
 * state with the state the distinct events should have produced. Its last step shows an effect
 * outside the database (a receipt, through the outbox) surviving a crash between commit and send.
 */
public final class Demo {
  static final int WORKERS = 2;
  static final int MAX_ATTEMPTS = 3;

  private final PrintStream out;
  private final Clock clock;
  private final UnaryOperator<WebhookRuntimeBuilder> options;

  public Demo(PrintStream out, Clock clock) {
    this(out, clock, UnaryOperator.identity());
  }

  /** @param options what the command line sets on the server's runtime, over the demo's own tuning */
  public Demo(PrintStream out, Clock clock, UnaryOperator<WebhookRuntimeBuilder> options) {
    this.out = out;
    this.clock = clock;
    this.options = options;
  }

  /** One step of the demo. */
  @FunctionalInterface
  private interface Step {
    void run() throws InterruptedException;
  }

  /** What the demo found. */
  public record Result(boolean exactlyOnce, List<String> problems, SampleState state) {}

  /** Runs the whole demo; the result says whether every effect happened exactly once. */
  public Result run() throws InterruptedException {
    long start = System.nanoTime();
    Narrator n = new Narrator(out);
    n.title("hookledger demo: effectively-once webhooks, end to end");
    SampleSecrets secrets = SampleSecrets.generate();
    Settlements settlements = new Settlements();
    SampleDatabase database = SampleDatabase.temporary(true);
    try (SampleApp app = SampleApp.start(database, secrets, "127.0.0.1", 0,
        b -> options.apply(tune(b, settlements)))) {
      n.title("  server   " + app.uri() + " (embedded Jetty), " + WORKERS + " workers, store first");
      n.title("  ledger   " + database.description());
      n.title("  handlers Billing, Subscriptions (skipStale), Tickets, Commits, Orders (skipStale)");
      ExpectedState expected = new ExpectedState();
      WebhookClient client = new WebhookClient(app.uri());
      DemoContext ctx = new DemoContext(client, new SampleSigners(secrets), app.admin(), settlements,
          expected, n, clock);

      DuplicateSteps duplicates = new DuplicateSteps(ctx);
      OrderingSteps ordering = new OrderingSteps(ctx);
      RejectionSteps rejections = new RejectionSteps(ctx);
      FailureSteps failures = new FailureSteps(ctx, MAX_ATTEMPTS);
      ReceiptSteps receipts = new ReceiptSteps(ctx, database, secrets);
      List<Step> steps = List.of(duplicates::stripeRetries, duplicates::concurrentCopies,
          duplicates::githubRedeliveries, ordering::subscriptionOutOfOrder, ordering::orderUpdateBeforeCreate,
          rejections::tamperedBody, rejections::staleTimestamp, failures::poisonEvent, receipts::receiptSurvivesACrash);
      for (Step step : steps) {
        try {
          step.run();
        } catch (RuntimeException e) {
          // a step that cannot finish is a failed check, not the end of the report
          n.check(false, "the step did not finish: " + e.getMessage());
        }
      }

      SampleState actual = StateReport.fetch(client);
      SampleState wanted = expected.toState();
      List<String> problems = new ArrayList<>(wanted.differencesFrom(actual));
      problems.addAll(n.failedChecks());
      StateReport.print(n, actual);
      boolean holds = problems.isEmpty();
      n.blank();
      n.title("Expected state: each distinct event applied once, the newest version winning for"
          + " subscriptions and orders,");
      n.title("forged, replayed and dead events applied never. Compared with GET /sample/state.json: "
          + (wanted.differencesFrom(actual).isEmpty() ? "identical." : "DIFFERENT."));
      problems.forEach(p -> n.title("  problem: " + p));
      n.blank();
      n.title(holds
          ? "VERDICT: exactly once holds: every effect happened once, nothing stale or forged got in."
          : "VERDICT: exactly once does NOT hold: " + problems.size() + " problem(s) above.");
      n.title(String.format("(finished in %.1f s)", (System.nanoTime() - start) / 1e9));
      return new Result(holds, List.copyOf(problems), actual);
    }
  }

  private WebhookRuntimeBuilder tune(WebhookRuntimeBuilder b, Settlements settlements) {
    return b.mode(ProcessingMode.STORE_FIRST)
        .clock(clock)
        .listener(settlements)
        .inbox(i -> i.workers(WORKERS)
            // a demo cannot wait for the production backoff (10 s, x2, 12 attempts): retry within a second
            .retryPolicy(RetryPolicy.builder()
                .firstDelay(Duration.ofMillis(100))
                .factor(2)
                .maxDelay(Duration.ofMillis(400))
                .maxAttempts(MAX_ATTEMPTS)
                .build())
            .pollInterval(Duration.ofMillis(50)));
  }
}
