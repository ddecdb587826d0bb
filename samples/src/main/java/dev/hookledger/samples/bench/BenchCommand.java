package dev.hookledger.samples.bench;

import dev.hookledger.LedgerUnavailableException;
import dev.hookledger.runtime.ProcessingMode;
import dev.hookledger.runtime.WebhookRuntimeBuilder;
import dev.hookledger.runtime.admin.InboxAdmin;
import dev.hookledger.runtime.cli.RuntimeOptions;
import dev.hookledger.samples.Main;
import dev.hookledger.samples.app.ExpectedState;
import dev.hookledger.samples.app.SampleHandlers;
import dev.hookledger.samples.app.SampleState;
import dev.hookledger.samples.server.SampleApp;
import dev.hookledger.samples.server.SampleDatabase;
import dev.hookledger.samples.server.SampleSecrets;
import dev.hookledger.samples.traffic.SampleSigners;
import java.io.PrintStream;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.UnaryOperator;
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
 * embedded PostgreSQL with durable commits on), over loopback HTTP from a second process (a child
 * JVM, {@link LoadProcess}), measured in the same run against the database's own limit and against
 * the inline design written by hand. Bounded in count and time.
 *
 * <p>Phases: (a) the raw limit, durable single-row inserts over as many JDBC connections as there
 * are clients (and over half as many, and one); (i) the inline design at the database alone, ledger
 * row and the handler's effect in one transaction per event over as many connections; (h) the same
 * behind a hand-written servlet on the same Jetty and clients; (b) hookledger at full load:
 * acknowledged deliveries/s, latency, then one client while the backlog is processed, and (c) settled
 * events/s end to end with the server JVM's CPU per settled event; (d) latency at half the clients
 * and at one client on an idle server; (e) peak heap; then whether every effect of every phase
 * happened exactly once. Invoices and pushes are spread over {@code --entities} rows.
 */
@Command(
    name = "bench",
    mixinStandardHelpOptions = true,
    // every runtime setting as an option (--batch-size, --ledger-writers, ...), else its HOOKLEDGER_* variable
    modelTransformer = RuntimeOptions.class,
    description = {
        "Sends N signed deliveries (Stripe, GitHub and Shopify, with a share of redeliveries, spread over"
            + " --entities customers and repositories) over loopback HTTP with K concurrent clients in a second"
            + " process to the sample app on an embedded PostgreSQL with durable commits on, after measuring on"
            + " the same database its own limit (durable single-row inserts over K connections) and the inline"
            + " design (ledger row and effect in one transaction per event) at the database alone and behind a"
            + " hand-written servlet.",
        "Reports every rate with its ratio to those, accept latency at full load, while a backlog is"
            + " processed, at half load and at one client, the server JVM's CPU per settled event, heap used,"
            + " and whether every effect happened exactly once."})
public final class BenchCommand implements Callable<Integer> {
  /** The report is the output: library logs only when something is wrong. */
  public static final String LOG_LEVEL = "warn";
  static final int MAX_DELIVERIES = 200_000;
  static final int MAX_CLIENTS = 256;
  static final int MAX_SECONDS = 600;
  static final int MAX_ENTITIES = 1_000_000;
  static final int MAX_ROUNDS = 20;
  /** The second database {@code --history} fills, on the bench's embedded server. */
  static final String HISTORY_DATABASE = "history";
  /** Deliveries sent one at a time to measure the latency of a lone delivery. */
  static final int SINGLE_CLIENT_DELIVERIES = 300;

  @Option(names = {"-n", "--deliveries"}, defaultValue = "3000",
      description = "Deliveries to send at full load, at most " + MAX_DELIVERIES + " (default: ${DEFAULT-VALUE}).")
  int deliveries;

  @Option(names = "--warmup", defaultValue = "5000",
      description = "Deliveries sent, and settled, before anything is measured, so that the figures are those"
          + " of a JIT-compiled server rather than of its first seconds; 0 for none (default: ${DEFAULT-VALUE}).")
  int warmup;

  @Option(names = "--duplicates", defaultValue = "0.2",
      description = "Share of deliveries that redeliver an event already sent, 0 to 0.9 (default: ${DEFAULT-VALUE}).")
  double duplicates;

  @Option(names = "--entities", defaultValue = "" + LoadPlan.DEFAULT_ENTITIES,
      description = "Customers and repositories the invoices and pushes are spread over, each a row their handler"
          + " updates: 1 makes one hot row, the database's lock then the limit; 1 to " + MAX_ENTITIES
          + " (default: ${DEFAULT-VALUE}).")
  int entities;
  @Option(names = {"-c", "--clients"}, defaultValue = "16",
      description = "Concurrent HTTP clients at full load, at most " + MAX_CLIENTS + " (default: ${DEFAULT-VALUE}).")
  int clients;

  @Option(names = "--workers", defaultValue = "4", description = "Inbox workers (default: ${DEFAULT-VALUE}).")
  int workers;

  @Option(names = "--max-seconds", defaultValue = "120",
      description = "Stop sending, and stop waiting for processing, after this long per phase; at most "
          + MAX_SECONDS + " (default: ${DEFAULT-VALUE}).")
  int maxSeconds;

  @Option(names = "--target", paramLabel = "URL",
      description = "Send to a hookledger server already running at URL (e.g. serve's http://127.0.0.1:8080, signed"
          + " with the secrets in STRIPE_WEBHOOK_SECRET, GITHUB_WEBHOOK_SECRET and SHOPIFY_WEBHOOK_SECRET, as serve"
          + " reads them) instead of starting one: the load then comes from a second process. Measures what a"
          + " client sees (acknowledged deliveries/s, latency); the database's limit, settling and the effects are"
          + " the server's to report.")
  URI target;

  @Option(names = "--database-url", paramLabel = "URL",
      description = "Run on the PostgreSQL at URL (jdbc:postgresql://host:port/db?user=..), an existing database"
          + " with no ledger yet, instead of an embedded one: e.g. a database on a Citus coordinator with its"
          + " workers added, where the ledger's migrate distributes it. The baselines' tables are made there too"
          + " (plain tables, on the coordinator). Not with --history, which needs the embedded server.")
  String databaseUrl;

  @Option(names = "--history", defaultValue = "0", paramLabel = "N",
      description = "After the phases on the empty ledger, fill a second database on the same server with N settled"
          + " events (a month of a store's traffic, written by the database itself), give it a runtime and server of"
          + " its own and send the same full load to both ledgers in alternating rounds (see --rounds): each run's"
          + " acked and settled events/s and latency, the median and range of hist/empty, the operator's reads on"
          + " the filled ledger, then a prune of 70%% of it while one client sends; at most " + HistoryFill.MAX_ROWS
          + " (default: ${DEFAULT-VALUE}, none).")
  long history;

  @Option(names = "--rounds", defaultValue = "2", paramLabel = "R",
      description = "With --history or --peers: pairs of runs of the full load, the empty ledger's and the history's"
          + " alternating E H, H E, ... (ABBA), each with a seed of its own and drained before the next; the report"
          + " gives each run and the median and range of the pairs' ratios, 1 to " + MAX_ROUNDS
          + " (default: ${DEFAULT-VALUE}).")
  int rounds;

  @Option(names = "--backfill", defaultValue = "0", paramLabel = "N",
      description = "After the phases on the empty ledger, store N settled events a new handler never applied and"
          + " measure one client's ack latency idle and while a backfill of that handler runs over them (the aim:"
          + " within 1.5x); see BackfillPhase (default: ${DEFAULT-VALUE}, none).")
  int backfill;

  @Option(names = "--bookkeeping-ab",
      description = "After the phases on the empty ledger, settle the full load four times with and without recording"
          + " the handlers that applied each event (A/B/A/B; a switch for benchmarks only): see BookkeepingPhase.")
  boolean bookkeepingAb;

  @Option(names = "--floor",
      description = "Also measure the store-first design's floor at the database alone (f): per event a transaction"
          + " inserting the ledger row, then one claiming it, applying the effect and settling it, over as many"
          + " connections as clients; and the raw insert loop while --workers connections process such rows.")
  boolean floor;

  @Option(names = "--noop-handlers",
      description = "Register handlers for the plan's types that do nothing instead of the sample's (no effect's"
          + " statement, no payload mapping): the framework's own cost per event. Effects are then not checked.")
  boolean noopHandlers;

  @Option(names = "--effects",
      description = "After the phases on the empty ledger, run the full load on two fresh ledgers, one whose handlers"
          + " send one HTTP effect per event through the outbox to a local no-op sink and one whose handlers send"
          + " nothing, and report them side by side: see EffectsPhase.")
  boolean effects;

  @Option(names = "--effects-stored", defaultValue = "0", paramLabel = "N",
      description = "With --effects: also measure the dispatcher on a ledger holding N settled effects (each with its"
          + " attempt, written by the database before the load) against the empty table's; at most "
          + EffectsPhase.MAX_STORED + " (default: ${DEFAULT-VALUE}, none).")
  long effectsStored;

  @Option(names = "--peers",
      description = "After the phases on the empty ledger, run the full load on hookledger beside the same designs"
          + " written by hand, each run drained, in alternating rounds (see --rounds): store first beside a hand-written"
          + " servlet that stores the row and a pool of --workers threads that settle it (hs), INLINE beside the"
          + " hand-written inline servlet (h); settled/s, JVM CPU per settled event and one client's p50 of each, and"
          + " their ratios: see PeersPhase.")
  boolean peers;

  @Option(names = "--load-cpus", paramLabel = "LIST",
      description = "Pin the load generator's process to these CPUs with taskset (Linux), e.g. 1; start bench"
          + " itself with taskset -c 0 so that the server and PostgreSQL keep the others (default: not pinned).")
  String loadCpus;

  @Option(names = "--seed", defaultValue = "1", description = "Seed of the event mix and order (default: ${DEFAULT-VALUE}).")
  long seed;

  @Option(names = "--provider", defaultValue = "", paramLabel = "NAME",
      description = "Send only this provider's events: stripe (invoices), github (pushes, spread over --entities"
          + " repositories) or shopify (orders); the three in turn when left out.")
  String provider;

  @Spec CommandSpec spec;

  private final PrintStream out;
  private final Map<String, String> env;

  public BenchCommand() {
    this(System.out, System.getenv());
  }

  BenchCommand(PrintStream out) {
    this(out, Map.of());
  }

  /** @param env where {@code --target}'s secrets are read, as {@code serve} reads them */
  BenchCommand(PrintStream out, Map<String, String> env) {
    this.out = out;
    this.env = env;
  }

  @Override
  public Integer call() throws Exception {
    validate();
    System.setProperty(Main.LOG_LEVEL_PROPERTY, LOG_LEVEL); // for a direct call; the jar's Main sets it first
    Clock clock = Clock.systemUTC();
    int halfClients = Math.max(1, clients / 2);
    int singles = Math.min(SINGLE_CLIENT_DELIVERIES, deliveries);
    LoadPlan.Spec fullSpec = new LoadPlan.Spec(deliveries, duplicates, seed, entities, provider);
    LoadPlan.Spec halfSpec = new LoadPlan.Spec(Math.max(1, deliveries / 2), duplicates, seed + 1, entities, provider);
    LoadPlan.Spec singleSpec = new LoadPlan.Spec(singles, duplicates, seed + 2, entities, provider);
    LoadPlan.Spec warmSpec = warmup == 0 ? null : new LoadPlan.Spec(warmup, duplicates, seed + 3, entities, provider);
    LoadPlan.Spec busySpec = new LoadPlan.Spec(singles, duplicates, seed + 4, entities, provider);
    LoadPlan full = LoadPlan.of(fullSpec, clock);
    LoadPlan half = LoadPlan.of(halfSpec, clock);
    LoadPlan single = LoadPlan.of(singleSpec, clock);
    LoadPlan warm = warmSpec == null ? null : LoadPlan.of(warmSpec, clock);
    if (target != null) {
      return sendToTarget(SampleSecrets.fromEnvironment(env), warm, full, half, single, halfClients, clock);
    }
    LoadPlan busy = LoadPlan.of(busySpec, clock);
    SampleSecrets secrets = SampleSecrets.generate();
    // the pool holds one connection per worker besides the ledger writers, poller, notifier and listener
    try (SampleDatabase database = databaseUrl != null ? SampleDatabase.external(databaseUrl, Math.max(16, workers + 8))
        : SampleDatabase.temporary(true, Math.max(16, workers + 8));
        LoadProcess load = LoadProcess.start(secrets, loadCpus)) {
      out.printf("hookledger bench: %d deliveries (%d distinct events, %.0f%% redeliveries), %d clients in a second"
          + " process, %d entities, %s, loopback HTTP%n", full.deliveries(), full.distinctEvents(), duplicates * 100,
          clients, entities, provider.isEmpty() ? "three providers" : provider + " only");
      line("database", database.description());
      if (loadCpus != null) {
        line("load generator", "pinned to CPUs " + loadCpus + " (taskset); this process to "
            + LoadProcess.affinity(ProcessHandle.current().pid()));
      }

      RawInsertLimit raw = new RawInsertLimit(database.jdbcUrl(), new byte[full.typicalBodyBytes()]);
      raw.prepare();
      RawInsertLimit.Result rawFull = raw.measure(clients, full.deliveries());
      RawInsertLimit.Result rawHalf = raw.measure(halfClients, half.deliveries());
      RawInsertLimit.Result rawOne = raw.measure(1, single.deliveries());
      rawLine("raw limit (a)", rawFull);
      rawLine("raw, half load", rawHalf);
      rawLine("raw, 1 client", rawOne);

      RawInsertLimit.Result inline = InlineLimit.measure(database.jdbcUrl(), full, clients);
      double inlinePerSecond = full.distinctEvents() * 1e9 / inline.elapsedNanos();
      line("inline, db (i)", String.format("%.0f events/s settled (%d deliveries in %.2f s, p50 %s, p99 %s): ledger row"
          + " and the handler's effect in one transaction per event over %d JDBC connections, no HTTP", inlinePerSecond,
          inline.rows(), inline.elapsedNanos() / 1e9, Latencies.millis(inline.latencies().percentile(50)),
          Latencies.millis(inline.latencies().percentile(99)), clients));

      Floor floorFigures = floor ? measureFloor(database.jdbcUrl(), raw, full, inlinePerSecond) : null;

      double handPerSecond;
      try (HandWrittenEndpoint hand = HandWrittenEndpoint.start(database.jdbcUrl(), secrets, clients)) {
        if (warmSpec != null) {
          load.run(hand.uri(), warmSpec, clients, maxSeconds);
        }
        long handCpuBefore = processCpuNanos();
        LoadGenerator.Run handFull = load.run(hand.uri(), fullSpec, clients, maxSeconds);
        long handCpu = processCpuNanos() - handCpuBefore;
        LoadGenerator.Run handOne = load.run(hand.uri(), singleSpec, 1, maxSeconds);
        handPerSecond = full.distinctEvents() * 1e9 / handFull.elapsedNanos();
        line("hand-written (h)", String.format("%.0f events/s settled (%.0f deliveries/s over HTTP), %.2f of (i): HMAC"
            + " and parse by hand, the inline design per request on HikariCP; JVM CPU %.0f us per settled event",
            handPerSecond, handFull.perSecond(), handPerSecond / inlinePerSecond,
            handCpu / 1e3 / full.distinctEvents()));
        line("  latency", String.format("p50 %s, p99 %s with %d clients; p50 %s, p99 %s with 1 client",
            Latencies.millis(handFull.latencies().percentile(50)), Latencies.millis(handFull.latencies().percentile(99)),
            clients, Latencies.millis(handOne.latencies().percentile(50)), Latencies.millis(handOne.latencies().percentile(99))));
      }

      // bench's pool sets the session timeouts on each connection (SampleDatabase): none per transaction,
      // unless --session-timeouts-from-pool false says otherwise
      try (SampleApp app = SampleApp.start(database, secrets, "127.0.0.1", 0,
          noopHandlers ? List.of(new NoopHandlers()) : SampleHandlers.all(),
          b -> runtimeOptions().apply(b.deadlines(d -> d.sessionTimeoutsFromPool(true)))
              .handlers(backfill > 0 ? new Object[] {new BackfillPhase.Probe()} : new Object[0]));
          HeapSampler heap = new HeapSampler()) {
        line("server", app.uri() + ", " + workers + " workers, "
            + app.runtime().mode().name().toLowerCase(java.util.Locale.ROOT).replace('_', ' ')
            + (noopHandlers ? ", handlers that do nothing" : ""));

        if (warmSpec != null) {
          long warmStart = System.nanoTime();
          LoadGenerator.Run warmRun = load.run(app.uri(), warmSpec, clients, maxSeconds);
          Duration warmSettled = awaitProcessed(app.admin(), warmStart, deadlineAfter(warmStart));
          line("warm-up", String.format("%d deliveries received in %.1f s, settled after %s (not measured)",
              warmRun.sent(), warmRun.elapsedNanos() / 1e9,
              warmSettled == null ? "the deadline: NOT all" : String.format("%.1f s", warmSettled.toNanos() / 1e9)));
        }

        long cpuBefore = processCpuNanos();
        long start = System.nanoTime();
        LoadGenerator.Run run = load.run(app.uri(), fullSpec, clients, maxSeconds);
        // at once, while the workers still process what the full load left waiting: first a lone durable
        // insert (short), the part of a lone client's wait that is the database's (its commits' WAL flushes
        // shared with the workers'), then one client over HTTP, the ack path's
        long backlogBeforeRaw = waiting(app.admin());
        RawInsertLimit.Result rawBusy = raw.measure(1, Math.max(50, busy.deliveries() / 2));
        long backlogBefore = waiting(app.admin());
        LoadGenerator.Run busyRun = load.run(app.uri(), busySpec, 1, maxSeconds);
        long backlogAfter = waiting(app.admin());
        Duration settledAfter = awaitProcessed(app.admin(), start, deadlineAfter(start));
        long cpu = processCpuNanos() - cpuBefore;
        int settledEvents = full.distinctEvents() + busy.distinctEvents();
        // INLINE settles each event before its answer: the full load's own span is its settled rate, not that
        // span plus the lone client's that follows (which a store-first backlog overlaps)
        boolean inlineMode = app.runtime().mode() == ProcessingMode.INLINE;
        Duration settledSpan = settledAfter == null || !inlineMode ? settledAfter : Duration.ofNanos(run.elapsedNanos());
        int settledInSpan = inlineMode ? full.distinctEvents() : settledEvents;
        reportFull(run, settledSpan, settledInSpan, rawFull);
        latencyLine("while processing", busyRun, 1, rawOne);
        line("  backlog", String.format("%d events waiting when it began, %d when it ended%s", backlogBefore,
            backlogAfter, backlogAfter == 0 ? " (NOT processing throughout)" : ""));
        rawLine("raw, 1 client busy", rawBusy);
        line("  backlog", String.format("%d events waiting when it began, %d when it ended%s", backlogBeforeRaw,
            backlogBefore, backlogBefore == 0 ? " (NOT processing throughout)" : ""));
        double cpuPerEvent = cpu > 0 ? cpu / 1e3 / settledEvents : -1;
        if (cpu > 0) {
          line("JVM CPU", String.format("%.0f us per settled event (the server's JVM: Jetty, runtime and workers;"
              + " the load generator and PostgreSQL not counted)", cpuPerEvent));
        }

        long halfStart = System.nanoTime();
        LoadGenerator.Run halfRun = load.run(app.uri(), halfSpec, halfClients, maxSeconds);
        latencyLine("at half load", halfRun, halfClients, rawHalf);
        // the lone client is measured on an idle server: the half-load phase's events settled first
        awaitProcessed(app.admin(), halfStart, deadlineAfter(halfStart));
        long oneStart = System.nanoTime();
        LoadGenerator.Run oneRun = load.run(app.uri(), singleSpec, 1, maxSeconds);
        latencyLine("at 1 client", oneRun, 1, rawOne);
        Duration allSettled = awaitProcessed(app.admin(), oneStart, deadlineAfter(oneStart));
        BackfillPhase.Result backfilled = backfill == 0 ? null : new BackfillPhase(out).run(app, load, backfill,
            new LoadPlan.Spec(singles, duplicates, seed + 20, entities, provider), maxSeconds);
        List<LoadPlan> bookkept = !bookkeepingAb ? List.of()
            : new BookkeepingPhase(out).run(app, load, fullSpec, clients, maxSeconds);
        EffectsPhase.Result effected = !effects ? null : new EffectsPhase(out).run(database, secrets, load, fullSpec,
            full, clients, Math.max(16, workers + 8), maxSeconds,
            b -> runtimeOptions().apply(b.deadlines(d -> d.sessionTimeoutsFromPool(true))), rawFull.perSecond(),
            effectsStored);
        PeersPhase.Result peered = !peers ? null : new PeersPhase(out, load, clients, maxSeconds, clock).run(database,
            secrets, fullSpec, singleSpec, warmSpec == null ? null
                : new LoadPlan.Spec(Math.min(warmup, deliveries), duplicates, seed + 3, entities, provider),
            workers, Math.max(16, workers + 8), rounds,
            b -> runtimeOptions().apply(b.deadlines(d -> d.sessionTimeoutsFromPool(true))));
        List<LoadGenerator.Run> historyRuns = new java.util.ArrayList<>();
        List<LoadPlan> historyPlans = new java.util.ArrayList<>();
        boolean historyOk = true;
        if (history > 0) {
          HistoryOutcome outcome = measureHistory(database, app, secrets, load, clock);
          historyOk = outcome.ok();
          historyRuns.addAll(outcome.empty().runs());
          historyPlans.addAll(outcome.empty().plans());
          allSettled = outcome.empty().drained() ? allSettled : null; // the effects are checked only when all settled
        }

        if (settledSpan != null) {
          double settledPerSecond = settledInSpan * 1e9 / settledSpan.toNanos();
          line("targets", String.format("settled (c)/(i) %.2f (target >= 0.8), (c)/(h) %.2f, (h)/(i) %.2f;"
              + " acked (b)/(a) %.2f (target >= 0.8)", settledPerSecond / inlinePerSecond,
              settledPerSecond / handPerSecond, handPerSecond / inlinePerSecond, run.perSecond() / rawFull.perSecond()));
          if (floorFigures != null) {
            line("  floor", String.format("(f)/(i) %.2f: what any store-first design reaches here; (c)/(f) %.2f: what"
                + " hookledger loses to it; raw while (f) processes / raw idle %.2f: what any store-first design's acks"
                + " keep (target >= 0.8 of (b)/(a))", floorFigures.perSecond() / inlinePerSecond,
                settledPerSecond / floorFigures.perSecond(), floorFigures.busyShare()));
          }
        }
        double rawP50 = rawOne.latencies().percentile(50).toNanos();
        line("  1-client p50", String.format("%.1fx one raw insert idle, %.1fx while processing (target <= 1.5),"
            + " %.1fx a raw insert while processing; CPU %.0f us per settled event (target < 500)",
            oneRun.latencies().percentile(50).toNanos() / rawP50, busyRun.latencies().percentile(50).toNanos() / rawP50,
            busyRun.latencies().percentile(50).toNanos() / (double) rawBusy.latencies().percentile(50).toNanos(),
            cpuPerEvent));

        line("heap used", String.format("peak %d MiB, now %d MiB (the server's JVM)",
            heap.peakBytes() >> 20, HeapSampler.used() >> 20));
        List<LoadGenerator.Run> runs = new java.util.ArrayList<>(List.of(run, busyRun, halfRun, oneRun));
        runs.addAll(historyRuns);
        if (backfilled != null) {
          runs.addAll(backfilled.runs());
        }
        if (effected != null) {
          runs.addAll(effected.runs()); // answers checked; their effects are each side's own ledger's
        }
        if (peered != null) {
          runs.addAll(peered.runs()); // answers checked; their effects are each design's own, checked by PeersPhase
        }
        boolean complete = runs.stream().noneMatch(LoadGenerator.Run::cutOff) && settledAfter != null && allSettled != null;
        List<LoadPlan> plans = new java.util.ArrayList<>(
            warm == null ? List.of(full, busy, half, single) : List.of(warm, full, busy, half, single));
        plans.addAll(historyPlans);
        if (backfilled != null) {
          plans.addAll(backfilled.plans());
        }
        plans.addAll(bookkept);
        boolean exact = complete && (noopHandlers ? noEffectsChecked() : exactlyOnce(plans, app));
        boolean allOk = allAnswered200(runs);
        return exact && allOk && historyOk && (backfilled == null || backfilled.ok())
            && (effected == null || effected.ok()) && (peered == null || peered.ok()) ? 0 : 1;
      }
    }
  }

  /**
   * {@code --history}: a second database on the same server with a runtime and server of its own,
   * filled, then measured beside {@code empty} ({@link SideBySide}), its operator reads timed and a
   * prune run on it while one client sends. Its effects are checked here, before it closes.
   *
   * @return the empty side's runs and plans, and whether the history's side settled every event
   *     exactly once with every answer a 200
   */
  private HistoryOutcome measureHistory(SampleDatabase database, SampleApp empty, SampleSecrets secrets,
      LoadProcess load, Clock clock) throws Exception {
    try (SampleApp app = SampleApp.start(database.beside(HISTORY_DATABASE, Math.max(16, workers + 8)), secrets,
        "127.0.0.1", 0, noopHandlers ? List.of(new NoopHandlers()) : SampleHandlers.all(),
        b -> runtimeOptions().apply(b.deadlines(d -> d.sessionTimeoutsFromPool(true))))) {
      HistoryFill fill = new HistoryFill(app.dataSource(), SampleApp.LEDGER_SCHEMA);
      HistoryFill.Result filled = fill.fill(history, out);
      line("history", String.format("%d settled events in %.0f s, ledger %d MiB (database %s, server %s)",
          filled.rows(), filled.elapsedNanos() / 1e9, filled.ledgerBytes() >> 20, HISTORY_DATABASE, app.uri()));
      List<LoadGenerator.Run> runs = new java.util.ArrayList<>();
      List<LoadPlan> plans = new java.util.ArrayList<>();
      if (warmup > 0) { // the JIT is shared with the empty side's server; this warms the history's pool and caches
        LoadPlan.Spec warm = new LoadPlan.Spec(Math.min(warmup, deliveries), duplicates, seed + 6, entities, provider);
        long warmStart = System.nanoTime();
        runs.add(load.run(app.uri(), warm, clients, maxSeconds));
        plans.add(LoadPlan.of(warm, clock));
        awaitProcessed(app.admin(), warmStart, deadlineAfter(warmStart));
      }
      SideBySide.Result sides = new SideBySide(out, load, clients, maxSeconds, clock).run(empty, app, history,
          new LoadPlan.Spec(deliveries, duplicates, seed, entities, provider), rounds);
      runs.addAll(sides.history().runs());
      plans.addAll(sides.history().plans());
      fill.timeReads(app.admin(), app.uri(), secrets.adminToken(), out);
      // its rounds' seeds above the side-by-side runs': a plan's event ids are made from its seed
      PrunePhase.Result pruned = new PrunePhase(out).run(app, load, new LoadPlan.Spec(
          Math.min(SINGLE_CLIENT_DELIVERIES, deliveries), duplicates,
          seed + SideBySide.SEED_STEP * (2L * rounds + 1), entities, provider), maxSeconds, clock);
      runs.addAll(pruned.runs());
      plans.addAll(pruned.plans());
      // the deadline runs from the prune's end: it takes minutes, and one client's events settle as sent
      long pruneEnd = System.nanoTime();
      boolean settled = sides.history().drained()
          && awaitProcessed(app.admin(), pruneEnd, deadlineAfter(pruneEnd)) != null
          && runs.stream().noneMatch(LoadGenerator.Run::cutOff);
      if (!settled) {
        line("effects, history", "NOT checked: NOT all settled before the deadline");
      }
      boolean exact = settled && (noopHandlers ? noEffectsChecked() : exactlyOnce(plans, app, "effects, history"));
      boolean allOk = allAnswered200(runs);
      return new HistoryOutcome(sides.empty(), exact && allOk);
    }
  }

  private record HistoryOutcome(SideBySide.Side empty, boolean ok) {}

  /** Whether every delivery of every run was answered 200 (accepted or a duplicate). */
  private static boolean allAnswered200(List<LoadGenerator.Run> runs) {
    return runs.stream().allMatch(r -> r.answers().keySet().stream().allMatch(a -> a.startsWith("200")));
  }

  /** The store-first floor's figures: its settled rate, and the raw insert rate while its processors run. */
  private record Floor(double perSecond, double busyShare) {}

  private Floor measureFloor(String jdbcUrl, RawInsertLimit raw, LoadPlan full, double inlinePerSecond)
      throws Exception {
    StoreFirstFloor floorDesign = new StoreFirstFloor(jdbcUrl);
    RawInsertLimit.Result f = floorDesign.measure(full, clients);
    double perSecond = full.distinctEvents() * 1e9 / f.elapsedNanos();
    line("floor, db (f)", String.format("%.0f events/s settled (%d deliveries in %.2f s, p50 %s, p99 %s), %.2f of (i):"
        + " ledger row in one transaction, then claim, effect and settle in a second, over %d JDBC connections",
        perSecond, f.rows(), f.elapsedNanos() / 1e9, Latencies.millis(f.latencies().percentile(50)),
        Latencies.millis(f.latencies().percentile(99)), perSecond / inlinePerSecond, clients));
    StoreFirstFloor.Busy busy = floorDesign.rawWhileProcessing(raw, full, clients, full.deliveries(), workers);
    line("raw, floor busy", String.format("%.0f durable single-row inserts/s over %d connections (%d in %.2f s), p50 %s,"
        + " %.2f of the same loop just before (%.0f/s, p50 %s), while %d connections settled %d events as (f) does"
        + " (%.0f/s; %d still waiting at the end%s)",
        busy.raw().perSecond(), clients, busy.raw().rows(), busy.raw().elapsedNanos() / 1e9,
        Latencies.millis(busy.raw().latencies().percentile(50)), busy.raw().perSecond() / busy.idle().perSecond(),
        busy.idle().perSecond(), Latencies.millis(busy.idle().latencies().percentile(50)), workers,
        busy.processed(), busy.processedPerSecond(), busy.waitingAtEnd(),
        busy.waitingAtEnd() == 0 ? ": NOT processing throughout" : ""));
    return new Floor(perSecond, busy.raw().perSecond() / busy.idle().perSecond());
  }

  private boolean noEffectsChecked() {
    line("effects", "not checked: --noop-handlers apply none (every event settled)");
    return true;
  }

  /** The plan's phases against a server already running: what its clients see. */
  private int sendToTarget(SampleSecrets secrets, LoadPlan warm, LoadPlan full, LoadPlan half, LoadPlan single,
      int halfClients, Clock clock) throws InterruptedException {
    out.printf("hookledger bench: %d deliveries (%d distinct events, %.0f%% redeliveries), %d clients, to %s%n",
        full.deliveries(), full.distinctEvents(), duplicates * 100, clients, target);
    LoadGenerator load = new LoadGenerator(target, new SampleSigners(secrets), clock);
    List<LoadGenerator.Run> runs = new java.util.ArrayList<>();
    if (warm != null) {
      LoadGenerator.Run warmRun = load.run(warm, clients, deadline());
      line("warm-up", String.format("%d deliveries received in %.1f s (not measured)", warmRun.sent(),
          warmRun.elapsedNanos() / 1e9));
      runs.add(warmRun);
    }
    LoadGenerator.Run run = load.run(full, clients, deadline());
    line("answers", run.answers().entrySet().stream()
        .map(e -> e.getValue() + " x " + e.getKey()).collect(Collectors.joining(", ")));
    line("throughput", String.format("%.0f deliveries/s (%d in %.2f s)%s", run.perSecond(), run.sent(),
        run.elapsedNanos() / 1e9, run.cutOff() ? ", CUT OFF by --max-seconds" : ""));
    runs.add(run);
    latencyLine("accept latency", run, clients, null);
    LoadGenerator.Run halfRun = load.run(half, halfClients, deadline());
    latencyLine("at half load", halfRun, halfClients, null);
    runs.add(halfRun);
    LoadGenerator.Run oneRun = load.run(single, 1, deadline());
    latencyLine("at 1 client", oneRun, 1, null);
    runs.add(oneRun);
    boolean allOk = allAnswered200(runs) && runs.stream().noneMatch(LoadGenerator.Run::cutOff);
    return allOk ? 0 : 1;
  }

  private long deadline() {
    return deadlineAfter(System.nanoTime());
  }

  /** When a phase that started at {@code startNanos} is cut off: {@code --max-seconds} later. */
  private long deadlineAfter(long startNanos) {
    return startNanos + Duration.ofSeconds(maxSeconds).toNanos();
  }

  private void validate() {
    require(deliveries >= 1 && deliveries <= MAX_DELIVERIES, "deliveries must be between 1 and "
        + MAX_DELIVERIES + ", but was " + deliveries);
    require(clients >= 1 && clients <= MAX_CLIENTS, "clients must be between 1 and " + MAX_CLIENTS
        + ", but was " + clients);
    require(workers >= 1, "workers must be >= 1, but was " + workers);
    require(warmup >= 0 && warmup <= MAX_DELIVERIES, "warmup must be between 0 and " + MAX_DELIVERIES
        + ", but was " + warmup);
    require(entities >= 1 && entities <= MAX_ENTITIES, "entities must be between 1 and " + MAX_ENTITIES
        + ", but was " + entities);
    require(history >= 0 && history <= HistoryFill.MAX_ROWS, "history must be between 0 and "
        + HistoryFill.MAX_ROWS + ", but was " + history);
    require(rounds >= 1 && rounds <= MAX_ROUNDS, "rounds must be between 1 and " + MAX_ROUNDS + ", but was " + rounds);
    require(effectsStored >= 0 && effectsStored <= EffectsPhase.MAX_STORED, "effects-stored must be between 0 and "
        + EffectsPhase.MAX_STORED + ", but was " + effectsStored);
    require(effectsStored == 0 || effects, "effects-stored needs --effects");
    require(backfill >= 0, "backfill must be >= 0, but was " + backfill);
    require(databaseUrl == null || history == 0, "history needs the embedded server: leave out --database-url");
    require(databaseUrl == null || target == null, "database-url and target exclude each other: the server at the"
        + " target keeps its own database");
    require(loadCpus == null || loadCpus.matches("\\d+(-\\d+)?(,\\d+(-\\d+)?)*"),
        "load-cpus must be a CPU list such as 1 or 0-1,3, but was " + loadCpus);
    require(maxSeconds >= 1 && maxSeconds <= MAX_SECONDS, "max-seconds must be between 1 and "
        + MAX_SECONDS + ", but was " + maxSeconds);
    require(provider.isEmpty() || LoadPlan.PROVIDERS.contains(provider), "provider must be one of "
        + String.join(", ", LoadPlan.PROVIDERS) + ", but was " + provider);
  }

  private void require(boolean ok, String message) {
    if (!ok) {
      throw new ParameterException(spec.commandLine(), message);
    }
  }

  /** This JVM's CPU time so far, or -1 where the platform does not say. */
  static long processCpuNanos() {
    return java.lang.management.ManagementFactory.getOperatingSystemMXBean()
        instanceof com.sun.management.OperatingSystemMXBean os ? os.getProcessCpuTime() : -1;
  }

  /**
   * Polls the ledger's backlog (a partial-index read) until nothing waits; null if the deadline passes.
   * A read past the admin's own time bound is polled again: on a machine loaded beyond its cores the
   * bound can pass while the workers are busy, and the bench waits for them, not for one read.
   */
  static Duration awaitProcessed(InboxAdmin admin, long start, long deadline) throws InterruptedException {
    while (System.nanoTime() < deadline) {
      try {
        if (admin.backlog().waiting() == 0) {
          return Duration.ofNanos(System.nanoTime() - start);
        }
      } catch (LedgerUnavailableException e) {
        // polled again below, until the deadline
      }
      Thread.sleep(20);
    }
    return null;
  }

  /** The backlog now, or -1 if the admin's bounded read did not answer in time. */
  private static long waiting(InboxAdmin admin) {
    try {
      return admin.backlog().waiting();
    } catch (LedgerUnavailableException e) {
      return -1;
    }
  }

  private void rawLine(String label, RawInsertLimit.Result r) {
    Latencies l = r.latencies();
    line(label, String.format("%.0f durable single-row inserts/s over %d connections (%d in %.2f s), p50 %s, p99 %s",
        r.perSecond(), r.connections(), r.rows(), r.elapsedNanos() / 1e9, Latencies.millis(l.percentile(50)),
        Latencies.millis(l.percentile(99))));
  }

  private void reportFull(LoadGenerator.Run run, Duration settledAfter, int settled, RawInsertLimit.Result raw) {
    line("answers", run.answers().entrySet().stream()
        .map(e -> e.getValue() + " x " + e.getKey()).collect(Collectors.joining(", ")));
    line("throughput", String.format("%.0f deliveries/s (%d in %.2f s)%s", run.perSecond(), run.sent(),
        run.elapsedNanos() / 1e9, run.cutOff() ? ", CUT OFF by --max-seconds" : ""));
    line("acked (b)/(a)", String.format("%.2f of the raw limit", run.perSecond() / raw.perSecond()));
    latencyLine("accept latency", run, clients, raw);
    if (settledAfter == null) {
      line("time to processed", "NOT all settled before the deadline");
      return;
    }
    double settledPerSecond = settled * 1e9 / settledAfter.toNanos();
    line("time to processed", String.format("%.2f s after the first delivery (every event settled, %d of them)",
        settledAfter.toNanos() / 1e9, settled));
    line("settled (c)", String.format("%.0f events/s end to end", settledPerSecond));
    line("settled (c)/(a)", String.format("%.2f of the raw limit", settledPerSecond / raw.perSecond()));
  }

  /** A run's latencies, beside the raw insert's at the same concurrency when {@code raw} is measured (not with {@code --target}). */
  private void latencyLine(String label, LoadGenerator.Run run, int clientCount, RawInsertLimit.Result raw) {
    Latencies l = run.latencies();
    String beside = raw == null ? "" : String.format(" (raw insert p50 %s, p99 %s)",
        Latencies.millis(raw.latencies().percentile(50)), Latencies.millis(raw.latencies().percentile(99)));
    line(label, String.format("p50 %s, p99 %s, max %s with %d clients%s%s",
        Latencies.millis(l.percentile(50)), Latencies.millis(l.percentile(99)), Latencies.millis(l.max()), clientCount,
        beside, run.cutOff() ? ", CUT OFF by --max-seconds" : ""));
  }

  private void line(String label, String text) {
    out.printf("  %-18s %s%n", label, text);
  }

  /** What the options (--workers, and every other runtime setting) and environment set on the server's runtime. */
  public UnaryOperator<WebhookRuntimeBuilder> runtimeOptions() {
    return b -> RuntimeOptions.configure(spec, b, env);
  }

  private boolean exactlyOnce(List<LoadPlan> plans, SampleApp app) {
    return exactlyOnce(plans, app, "effects");
  }

  private boolean exactlyOnce(List<LoadPlan> plans, SampleApp app, String label) {
    SampleState actual = SampleState.read(DSL.using(app.dataSource(), SQLDialect.POSTGRES));
    ExpectedState expected = new ExpectedState();
    plans.forEach(p -> p.addExpected(expected));
    List<String> problems = expected.toState().differencesFrom(actual);
    line(label, (problems.isEmpty()
        ? "exactly once: balances, commit counts and orders match the distinct events"
        : "NOT exactly once: " + problems.size() + " differences, e.g. " + problems.get(0)));
    return problems.isEmpty();
  }
}
