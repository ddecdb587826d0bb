package dev.hookledger.samples.bench;

import com.sun.net.httpserver.HttpServer;
import dev.hookledger.LedgerUnavailableException;
import dev.hookledger.runtime.Destination;
import dev.hookledger.runtime.WebhookRuntimeBuilder;
import dev.hookledger.runtime.admin.DestinationStatus;
import dev.hookledger.samples.server.SampleApp;
import dev.hookledger.samples.server.SampleDatabase;
import dev.hookledger.samples.server.SampleSecrets;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.UnaryOperator;

/**
 * {@code bench --effects}: the outbox's figures, each against a baseline of the same run, on fresh
 * ledgers of one PostgreSQL server, each with its own runtime and HTTP server, in this order:
 * <ol>
 *   <li>the same load on a ledger whose handlers send one HTTP effect per event through the outbox to
 *       a local no-op sink (answering 204), and on one whose handlers send nothing: settled events/s
 *       of each (for the effects' side, until every effect is sent too) and their ratio;
 *   <li>on the effects' side, each effect's time from its handler's commit (noted by an
 *       {@code afterCommit} action, {@link EffectHandlers}) to the sink's receipt of it, p50 and p99,
 *       and from its enqueue to its first attempt by the ledger's own timestamps;
 *   <li>the dispatcher alone: the same load on a third ledger with the sink paused until every event
 *       has settled, then resumed: effects sent per second from the first attempt's start to the last
 *       one's end, by the ledger's timestamps, against the raw durable insert rate (a);
 *   <li>with {@code --effects-stored N}: the same on a fourth ledger holding N settled effects (each
 *       with its attempt), written by the database itself before the load, against the third's.
 * </ol>
 */
final class EffectsPhase {
  /** At most this many stored effects ({@code --effects-stored}). */
  static final long MAX_STORED = 10_000_000;
  private static final int FILL_STEP = 200_000;

  private final PrintStream out;

  EffectsPhase(PrintStream out) {
    this.out = out;
  }

  /** The runs of every side, for the answers' check, and whether every side settled and sent everything in time. */
  record Result(List<LoadGenerator.Run> runs, boolean ok) {}

  Result run(SampleDatabase database, SampleSecrets secrets, LoadProcess load, LoadPlan.Spec spec, LoadPlan plan,
      int clients, int poolSize, int maxSeconds, UnaryOperator<WebhookRuntimeBuilder> options,
      double rawPerSecond, long stored) throws IOException, InterruptedException {
    ExecutorService sinkThreads = Executors.newFixedThreadPool(8);
    Map<String, Long> receivedAt = new ConcurrentHashMap<>();
    HttpServer sink = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    sink.createContext("/", exchange -> {
      long now = System.nanoTime();
      String event = exchange.getRequestHeaders().getFirst(EffectHandlers.EVENT_HEADER);
      if (event != null) {
        receivedAt.putIfAbsent(event, now);
      }
      exchange.getRequestBody().readAllBytes();
      exchange.sendResponseHeaders(204, -1);
      exchange.close();
    });
    sink.setExecutor(sinkThreads);
    sink.start();
    try {
      URI sinkUri = URI.create("http://127.0.0.1:" + sink.getAddress().getPort());
      Sides sides = new Sides(database, secrets, load, spec, plan, clients, poolSize, maxSeconds, options, sinkUri);
      Side without = sides.run("bench_effects_none", false, false, 0);
      EffectHandlers sending = new EffectHandlers(true);
      Side with = sides.run("bench_effects_one", sending, false, 0);
      line("effects", without.settledPerSecond < 0 || with.settledPerSecond < 0
          ? "NOT all settled within --max-seconds"
          : String.format("%.0f events/s settled with one effect each, sent (%s); %.0f without effects; ratio %.2f"
              + " (target >= 0.85)", with.settledPerSecond, with.sendLatency, without.settledPerSecond,
              with.settledPerSecond / without.settledPerSecond));
      Latencies commitToSend = commitToSend(sending, receivedAt);
      line("commit to send", String.format("p50 %s (target <= 5 ms), p99 %s (target <= 50 ms), max %s over %d effects:"
          + " from the handler's commit (an afterCommit action) to the sink's receipt", Latencies.millis(
              commitToSend.percentile(50)), Latencies.millis(commitToSend.percentile(99)),
          Latencies.millis(commitToSend.max()), commitToSend.count()));
      Side alone = sides.run("bench_effects_paused", true, true, 0);
      line("dispatcher alone", alone.dispatched == null ? "NOT all sent within --max-seconds"
          : String.format("%.0f effects/s sent (%s), %.2f of the raw limit (a) (target >= 0.5)",
              alone.dispatched.perSecond(), alone.dispatched, alone.dispatched.perSecond() / rawPerSecond));
      List<LoadGenerator.Run> runs = new ArrayList<>(List.of(without.run, with.run, alone.run));
      boolean ok = without.settledPerSecond >= 0 && with.settledPerSecond >= 0 && alone.dispatched != null
          && commitToSend.count() == plan.distinctEvents();
      if (stored > 0) {
        Side full = sides.run("bench_effects_stored", true, true, stored);
        line("dispatcher, stored", full.dispatched == null || alone.dispatched == null
            ? "NOT all sent within --max-seconds"
            : String.format("%.0f effects/s sent with %d settled effects stored (%s), %.2f of the empty table's"
                + " (target >= 0.9)", full.dispatched.perSecond(), stored, full.dispatched,
                full.dispatched.perSecond() / alone.dispatched.perSecond()));
        runs.add(full.run);
        ok &= full.dispatched != null;
      }
      return new Result(runs, ok);
    } finally {
      sink.stop(0);
      sinkThreads.shutdownNow();
    }
  }

  /** Each effect's time from its handler's commit to the sink's receipt of it. */
  private static Latencies commitToSend(EffectHandlers handlers, Map<String, Long> receivedAt) {
    long[] nanos = receivedAt.entrySet().stream().filter(e -> handlers.committedAt(e.getKey()) != null)
        .mapToLong(e -> e.getValue() - handlers.committedAt(e.getKey())).toArray();
    return new Latencies(nanos);
  }

  /** One side's run, its settled rate (-1 if not all in time), and its effects' figures. */
  private record Side(LoadGenerator.Run run, double settledPerSecond, String sendLatency, Dispatched dispatched) {}

  /** The effects one dispatch sent, from the first attempt's start to the last one's end. */
  record Dispatched(long effects, double seconds) {
    double perSecond() {
      return effects / seconds;
    }

    @Override
    public String toString() {
      return String.format("%d in %.2f s, from the first attempt's start to the last one's end", effects, seconds);
    }
  }

  /** The sides' common settings. */
  private final class Sides {
    private final SampleDatabase database;
    private final SampleSecrets secrets;
    private final LoadProcess load;
    private final LoadPlan.Spec spec;
    private final LoadPlan plan;
    private final int clients;
    private final int poolSize;
    private final int maxSeconds;
    private final UnaryOperator<WebhookRuntimeBuilder> options;
    private final URI sinkUri;

    Sides(SampleDatabase database, SampleSecrets secrets, LoadProcess load, LoadPlan.Spec spec, LoadPlan plan,
        int clients, int poolSize, int maxSeconds, UnaryOperator<WebhookRuntimeBuilder> options, URI sinkUri) {
      this.database = database;
      this.secrets = secrets;
      this.load = load;
      this.spec = spec;
      this.plan = plan;
      this.clients = clients;
      this.poolSize = poolSize;
      this.maxSeconds = maxSeconds;
      this.options = options;
      this.sinkUri = sinkUri;
    }

    Side run(String name, boolean effects, boolean paused, long stored) throws IOException, InterruptedException {
      return run(name, new EffectHandlers(effects), paused, stored);
    }

    /**
     * The load on a fresh ledger {@code name} with {@code handlers}; with {@code paused}, the sink paused
     * until every event settled, then resumed, and the dispatch's own rate read from the ledger; after
     * {@code stored} settled effects are written into it first.
     */
    Side run(String name, EffectHandlers handlers, boolean paused, long stored) throws IOException,
        InterruptedException {
      boolean effects = handlers.sends();
      try (SampleApp app = SampleApp.start(database.beside(name, poolSize), secrets, "127.0.0.1", 0,
          List.of(handlers),
          b -> options.apply(b).destination(Destination.named(EffectHandlers.SINK).url(sinkUri)))) {
        if (stored > 0) {
          fill(app, stored);
        }
        if (paused) {
          pause(app, true, System.nanoTime() + Duration.ofSeconds(maxSeconds).toNanos());
        }
        long start = System.nanoTime();
        long deadline = start + Duration.ofSeconds(maxSeconds).toNanos();
        LoadGenerator.Run run = load.run(app.uri(), spec, clients, maxSeconds);
        Duration settled = BenchCommand.awaitProcessed(app.admin(), start, deadline);
        if (paused) {
          pause(app, false, deadline);
        }
        if (settled != null && effects) { // and every effect sent
          settled = null;
          while (settled == null && System.nanoTime() < deadline) {
            if (effectsWaiting(app) == 0) {
              settled = Duration.ofNanos(System.nanoTime() - start);
            } else {
              Thread.sleep(20);
            }
          }
        }
        double perSecond = settled == null ? -1 : plan.distinctEvents() * 1e9 / settled.toNanos();
        return new Side(run, perSecond, effects && !paused ? sendLatency(app) : "",
            paused && settled != null ? dispatched(app) : null);
      }
    }
  }

  /** The dispatch's rate on {@code app}'s ledger: its effects over the span of their attempts. */
  private static Dispatched dispatched(SampleApp app) {
    String sql = "select count(distinct (scope, idempotency_key)), extract(epoch from (max(ended_at) - min(started_at)))"
        + " from " + SampleApp.LEDGER_SCHEMA + ".effect_attempt where node <> '" + STORED_NODE + "'";
    try (Connection c = app.dataSource().getConnection(); Statement s = c.createStatement();
        ResultSet r = s.executeQuery(sql)) {
      r.next();
      return new Dispatched(r.getLong(1), r.getDouble(2));
    } catch (SQLException e) {
      throw new IllegalStateException("cannot read the effects' attempts: " + e.getMessage(), e);
    }
  }

  /** The node named on the stored effects' attempts, so that the dispatch's own are told apart. */
  static final String STORED_NODE = "bench-stored";

  /**
   * Writes {@code rows} settled effects, each with its one attempt, into {@code app}'s ledger, spread
   * over the last 30 days, as a history of sent effects would be, {@value #FILL_STEP} a transaction,
   * written by the database itself; then {@code VACUUM ANALYZE}, as autovacuum would leave them.
   */
  private void fill(SampleApp app, long rows) {
    String schema = SampleApp.LEDGER_SCHEMA;
    long start = System.nanoTime();
    // not the pool's: its sessions' statement timeout is shorter than a step
    try (Connection c = DriverManager.getConnection(app.database().jdbcUrl()); Statement s = c.createStatement()) {
      for (long from = 1; from <= rows; from += FILL_STEP) {
        long to = Math.min(rows, from + FILL_STEP - 1);
        String series = " from generate_series(" + from + ", " + to + ") g";
        s.execute("insert into " + schema + ".effect (scope, idempotency_key, provider, event_id, handler, name, kind,"
            + " destination, method, url, body, content_type, status, attempts, created_at, settled_at)"
            + " select 'acct_stored', md5('stored' || g)::uuid, 'stripe', 'evt_stored_' || g, 'paid', 'sink', 'http',"
            + " '" + EffectHandlers.SINK + "', 'POST', '/', '\\x7b7d'::bytea, 'application/json', 'done', 1,"
            + " now() - (g % 2592000) * interval '1 second', now() - (g % 2592000) * interval '1 second'"
            + " + interval '5 milliseconds'" + series);
        s.execute("insert into " + schema + ".effect_attempt (scope, idempotency_key, attempt, node, started_at,"
            + " ended_at, duration_ms, status_code, outcome) select 'acct_stored', md5('stored' || g)::uuid, 1, '"
            + STORED_NODE + "', now() - (g % 2592000) * interval '1 second', now() - (g % 2592000) * interval"
            + " '1 second' + interval '3 milliseconds', 3, 204, 'done'" + series);
      }
      s.execute("vacuum analyze " + schema + ".effect");
      s.execute("vacuum analyze " + schema + ".effect_attempt");
      line("effects stored", String.format("%d settled effects and their attempts written in %.0f s", rows,
          (System.nanoTime() - start) / 1e9));
    } catch (SQLException e) {
      throw new IllegalStateException("cannot store the settled effects: " + e.getMessage(), e);
    }
  }

  /**
   * Effects not yet sent; -1 if the admin's bounded read did not answer in time (on a machine loaded
   * beyond its cores the bound can pass while the dispatcher is busy: the caller polls again).
   */
  private static long effectsWaiting(SampleApp app) {
    long waiting = 0;
    try {
      for (DestinationStatus d : app.admin().outbox().destinations()) {
        waiting += d.waiting();
      }
    } catch (LedgerUnavailableException e) {
      return -1;
    }
    return waiting;
  }

  /** Pauses or resumes the sink, the operator's change tried again while its bounded call does not answer. */
  private static void pause(SampleApp app, boolean paused, long deadline) throws InterruptedException {
    while (true) {
      try {
        if (paused) {
          app.admin().outbox().pause(EffectHandlers.SINK);
        } else {
          app.admin().outbox().resume(EffectHandlers.SINK);
        }
        return;
      } catch (LedgerUnavailableException e) {
        if (System.nanoTime() > deadline) {
          throw e;
        }
        Thread.sleep(20);
      }
    }
  }

  /** The effects' enqueue-to-first-send p50 and p99, from the ledger's own timestamps. */
  private static String sendLatency(SampleApp app) {
    String sql = "select percentile_cont(0.5) within group (order by ms), percentile_cont(0.99) within group"
        + " (order by ms), count(*) from (select extract(epoch from (min(a.started_at) - e.created_at)) * 1000 as ms"
        + " from " + SampleApp.LEDGER_SCHEMA + ".effect e join " + SampleApp.LEDGER_SCHEMA + ".effect_attempt a"
        + " using (scope, idempotency_key) group by e.scope, e.idempotency_key, e.created_at) s";
    try (Connection c = app.dataSource().getConnection(); Statement s = c.createStatement();
        ResultSet r = s.executeQuery(sql)) {
      r.next();
      return String.format("enqueue to send p50 %.1f ms, p99 %.1f ms over %d effects", r.getDouble(1), r.getDouble(2),
          r.getLong(3));
    } catch (SQLException e) {
      throw new IllegalStateException("cannot read the effects' latencies: " + e.getMessage(), e);
    }
  }

  private void line(String label, String text) {
    out.printf("  %-18s %s%n", label, text);
  }
}
