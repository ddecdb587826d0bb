package dev.hookledger.samples.bench;

import com.sun.net.httpserver.HttpServer;
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
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.UnaryOperator;

/**
 * {@code bench --effects}: the same load on two fresh ledgers of one PostgreSQL server, one whose
 * handlers send one HTTP effect per event through the outbox to a local no-op sink (answering 204),
 * one whose handlers send nothing; reported side by side: settled events/s (for the effects' side,
 * until every effect is sent too), their ratio, and the effects' enqueue-to-send latency read from
 * the ledger (an effect's {@code created_at} to its first attempt's {@code started_at}).
 */
final class EffectsPhase {
  private final PrintStream out;

  EffectsPhase(PrintStream out) {
    this.out = out;
  }

  /** The runs of both sides, for the answers' check, and whether both settled everything in time. */
  record Result(List<LoadGenerator.Run> runs, boolean ok) {}

  Result run(SampleDatabase database, SampleSecrets secrets, LoadProcess load, LoadPlan.Spec spec, LoadPlan plan,
      int clients, int poolSize, int maxSeconds, UnaryOperator<WebhookRuntimeBuilder> options) throws IOException,
      InterruptedException {
    ExecutorService sinkThreads = Executors.newFixedThreadPool(8);
    HttpServer sink = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    sink.createContext("/", exchange -> {
      exchange.getRequestBody().readAllBytes();
      exchange.sendResponseHeaders(204, -1);
      exchange.close();
    });
    sink.setExecutor(sinkThreads);
    sink.start();
    try {
      URI sinkUri = URI.create("http://127.0.0.1:" + sink.getAddress().getPort());
      Side without = side("bench_effects_none", false, database, secrets, load, spec, plan, clients, poolSize,
          maxSeconds, options, sinkUri);
      Side with = side("bench_effects_one", true, database, secrets, load, spec, plan, clients, poolSize, maxSeconds,
          options, sinkUri);
      line("effects", without.settledPerSecond < 0 || with.settledPerSecond < 0
          ? "NOT all settled within --max-seconds"
          : String.format("%.0f events/s settled with one effect each, sent (%s); %.0f without effects; ratio %.2f"
              + " (target >= 0.85)", with.settledPerSecond, with.sendLatency, without.settledPerSecond,
              with.settledPerSecond / without.settledPerSecond));
      return new Result(List.of(without.run, with.run), without.settledPerSecond >= 0 && with.settledPerSecond >= 0);
    } finally {
      sink.stop(0);
      sinkThreads.shutdownNow();
    }
  }

  private record Side(LoadGenerator.Run run, double settledPerSecond, String sendLatency) {}

  private Side side(String name, boolean effects, SampleDatabase database, SampleSecrets secrets, LoadProcess load,
      LoadPlan.Spec spec, LoadPlan plan, int clients, int poolSize, int maxSeconds,
      UnaryOperator<WebhookRuntimeBuilder> options, URI sinkUri) throws IOException, InterruptedException {
    try (SampleApp app = SampleApp.start(database.beside(name, poolSize), secrets, "127.0.0.1", 0,
        List.of(new EffectHandlers(effects)),
        b -> options.apply(b).destination(Destination.named(EffectHandlers.SINK).url(sinkUri)))) {
      long start = System.nanoTime();
      long deadline = start + Duration.ofSeconds(maxSeconds).toNanos();
      LoadGenerator.Run run = load.run(app.uri(), spec, clients, maxSeconds);
      Duration settled = BenchCommand.awaitProcessed(app.admin(), start, deadline);
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
      return new Side(run, perSecond, effects ? sendLatency(app) : "");
    }
  }

  private static long effectsWaiting(SampleApp app) {
    long waiting = 0;
    for (DestinationStatus d : app.admin().outbox().destinations()) {
      waiting += d.waiting();
    }
    return waiting;
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
