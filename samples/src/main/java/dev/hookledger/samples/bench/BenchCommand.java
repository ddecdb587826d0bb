package dev.hookledger.samples.bench;

import dev.hookledger.runtime.admin.InboxAdmin;
import dev.hookledger.samples.app.SampleState;
import dev.hookledger.samples.server.SampleApp;
import dev.hookledger.samples.server.SampleDatabase;
import dev.hookledger.samples.server.SampleSecrets;
import dev.hookledger.samples.traffic.SampleSigners;
import dev.hookledger.samples.traffic.WebhookClient;
import java.io.PrintStream;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import org.jooq.SQLDialect;
import org.jooq.impl.DSL;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code bench}: a load generator against a {@code serve}-style setup (the sample app on an
 * embedded PostgreSQL with durable commits on), over loopback HTTP only. Bounded in count and time.
 */
@Command(
    name = "bench",
    mixinStandardHelpOptions = true,
    description = {
        "Sends N signed deliveries (Stripe, GitHub and Shopify, with a share of redeliveries) over"
            + " loopback HTTP with K concurrent clients to the sample app on an embedded PostgreSQL"
            + " with durable commits on.",
        "Reports deliveries/s, p50/p99 accept latency, heap used, the time until every event was"
            + " processed, and whether every effect happened exactly once."})
public final class BenchCommand implements Callable<Integer> {
  static final int MAX_DELIVERIES = 200_000;
  static final int MAX_CLIENTS = 256;
  static final int MAX_SECONDS = 600;

  @Option(names = {"-n", "--deliveries"}, defaultValue = "3000",
      description = "Deliveries to send, at most " + MAX_DELIVERIES + " (default: ${DEFAULT-VALUE}).")
  int deliveries;

  @Option(names = "--duplicates", defaultValue = "0.2",
      description = "Share of deliveries that redeliver an event already sent, 0 to 0.9 (default: ${DEFAULT-VALUE}).")
  double duplicates;

  @Option(names = {"-c", "--clients"}, defaultValue = "16",
      description = "Concurrent HTTP clients, at most " + MAX_CLIENTS + " (default: ${DEFAULT-VALUE}).")
  int clients;

  @Option(names = "--workers", defaultValue = "4", description = "Inbox workers (default: ${DEFAULT-VALUE}).")
  int workers;

  @Option(names = "--max-seconds", defaultValue = "120",
      description = "Stop sending, and stop waiting for processing, after this long; at most " + MAX_SECONDS
          + " (default: ${DEFAULT-VALUE}).")
  int maxSeconds;

  @Option(names = "--seed", defaultValue = "1", description = "Seed of the event mix and order (default: ${DEFAULT-VALUE}).")
  long seed;

  @Spec CommandSpec spec;

  private final PrintStream out;

  public BenchCommand() {
    this(System.out);
  }

  BenchCommand(PrintStream out) {
    this.out = out;
  }

  @Override
  public Integer call() throws InterruptedException {
    validate();
    // the report is the output: library logs only when something is wrong
    System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
    Clock clock = Clock.systemUTC();
    LoadPlan plan = LoadPlan.of(deliveries, duplicates, seed, clock);
    SampleSecrets secrets = SampleSecrets.generate();
    SampleDatabase database = SampleDatabase.temporary(true);
    try (SampleApp app = SampleApp.start(database, secrets, "127.0.0.1", 0, b -> b.workers(workers));
        HeapSampler heap = new HeapSampler()) {
      out.printf("hookledger bench: %d deliveries (%d distinct events, %.0f%% redeliveries), %d clients,"
          + " loopback HTTP%n", plan.deliveries(), plan.distinctEvents(), duplicates * 100, clients);
      line("server", app.uri() + ", " + workers + " workers, store first");
      line("database", database.description());
      long start = System.nanoTime();
      long deadline = start + Duration.ofSeconds(maxSeconds).toNanos();
      LoadGenerator.Run run = new LoadGenerator(new WebhookClient(app.uri()), new SampleSigners(secrets), clock)
          .run(plan, clients, deadline);
      Duration settledAfter = awaitProcessed(app.admin(), start, deadline);
      report(run, settledAfter, heap.peakBytes());
      boolean exact = !run.cutOff() && settledAfter != null && exactlyOnce(plan, app);
      return exact && run.answers().keySet().stream().allMatch(a -> a.startsWith("200")) ? 0 : 1;
    }
  }

  private void validate() {
    require(deliveries >= 1 && deliveries <= MAX_DELIVERIES, "deliveries must be between 1 and "
        + MAX_DELIVERIES + ", but was " + deliveries);
    require(clients >= 1 && clients <= MAX_CLIENTS, "clients must be between 1 and " + MAX_CLIENTS
        + ", but was " + clients);
    require(workers >= 1, "workers must be >= 1, but was " + workers);
    require(maxSeconds >= 1 && maxSeconds <= MAX_SECONDS, "max-seconds must be between 1 and "
        + MAX_SECONDS + ", but was " + maxSeconds);
  }

  private void require(boolean ok, String message) {
    if (!ok) {
      throw new ParameterException(spec.commandLine(), message);
    }
  }

  /** Polls the ledger's backlog (a partial-index read) until nothing waits; null if the deadline passes. */
  private static Duration awaitProcessed(InboxAdmin admin, long start, long deadline) throws InterruptedException {
    while (System.nanoTime() < deadline) {
      if (admin.backlog().waiting() == 0) {
        return Duration.ofNanos(System.nanoTime() - start);
      }
      Thread.sleep(10);
    }
    return null;
  }

  private void report(LoadGenerator.Run run, Duration settledAfter, long peakHeap) {
    line("answers", run.answers().entrySet().stream()
        .map(e -> e.getValue() + " x " + e.getKey()).collect(Collectors.joining(", ")));
    line("throughput", String.format("%.0f deliveries/s (%d in %.2f s)%s", run.perSecond(), run.sent(),
        run.elapsedNanos() / 1e9, run.cutOff() ? ", CUT OFF by --max-seconds" : ""));
    Latencies l = run.latencies();
    line("accept latency", "p50 " + Latencies.millis(l.percentile(50)) + ", p99 "
        + Latencies.millis(l.percentile(99)) + ", max " + Latencies.millis(l.max()));
    line("time to processed", settledAfter == null ? "NOT all settled before the deadline"
        : String.format("%.2f s after the first delivery (every event settled)", settledAfter.toNanos() / 1e9));
    line("heap used", String.format("peak %d MiB, now %d MiB (server and load generator share this JVM)",
        peakHeap >> 20, HeapSampler.used() >> 20));
  }

  private void line(String label, String text) {
    out.printf("  %-18s %s%n", label, text);
  }

  private boolean exactlyOnce(LoadPlan plan, SampleApp app) {
    SampleState actual = SampleState.read(DSL.using(app.dataSource(), SQLDialect.POSTGRES));
    List<String> problems = plan.expected().toState().differencesFrom(actual);
    line("effects", (problems.isEmpty()
        ? "exactly once: balances, commit counts and orders match the distinct events"
        : "NOT exactly once: " + problems.size() + " differences, e.g. " + problems.get(0)));
    return problems.isEmpty();
  }
}
