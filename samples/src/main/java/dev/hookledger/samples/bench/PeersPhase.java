package dev.hookledger.samples.bench;

import dev.hookledger.runtime.ProcessingMode;
import dev.hookledger.runtime.WebhookRuntimeBuilder;
import dev.hookledger.samples.app.ExpectedState;
import dev.hookledger.samples.app.SampleHandlers;
import dev.hookledger.samples.app.SampleState;
import dev.hookledger.samples.server.SampleApp;
import dev.hookledger.samples.server.SampleDatabase;
import dev.hookledger.samples.server.SampleSecrets;
import java.io.PrintStream;
import java.net.URI;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * {@code bench --peers}: hookledger beside the same designs written by hand, over the same Jetty,
 * clients and PostgreSQL server, in one run. Store first (S, the default mode) beside the
 * store-first design by hand ((hs), {@link HandWrittenStoreFirst}); INLINE (I) beside the inline
 * design by hand ((h), {@link HandWrittenEndpoint}). Each of hookledger's modes has a runtime and a
 * fresh database of its own; the hand-written ones have schemas of their own.
 *
 * <p>Runs alternate: {@code h hs S I}, then {@code I S hs h}, and so on, each with a seed of its
 * own and drained (every event settled) before the next starts. A run gives settled events/s (first
 * delivery to the last event settled), the server JVM's CPU per settled event over that span (the
 * designs idle but the one measured), and then one client's p50 on the drained design. Each round
 * gives the ratios the targets name, S/(hs) and I/(h); the report gives their median and range, and
 * then whether each design applied every event exactly once.
 */
final class PeersPhase {
  /** Seeds of the peers' runs start here above bench's, so that no plan repeats another's event ids. */
  static final long SEED_BASE = 5_000;
  static final String ORDER = "h hs S I";

  private final PrintStream out;
  private final LoadProcess load;
  private final int clients;
  private final int maxSeconds;
  private final Clock clock;

  PeersPhase(PrintStream out, LoadProcess load, int clients, int maxSeconds, Clock clock) {
    this.out = out;
    this.load = load;
    this.clients = clients;
    this.maxSeconds = maxSeconds;
    this.clock = clock;
  }

  /** The runs of every design, for the answers' check, and whether every design settled all exactly once. */
  record Result(List<LoadGenerator.Run> runs, boolean ok) {}

  /** One design under load: where it listens, how many events still wait, and its effects so far. */
  private abstract static class Design {
    final String label;
    final List<LoadPlan> plans = new ArrayList<>();
    final List<Measured> measured = new ArrayList<>();
    boolean drained = true;

    Design(String label) {
      this.label = label;
    }

    abstract URI uri();

    /**
     * Whether any event received is not yet settled (true if the read failed). One {@code exists}
     * over the design's partial index of waiting rows, the same probe for every design: polled every
     * 5 ms while a run drains, a heavier read (the admin's backlog, a count of the pending rows) took
     * CPU and database time from the design it measured, and more from one than another.
     */
    abstract boolean anyWaiting();

    abstract SampleState state() throws SQLException;
  }

  private record Measured(double settledPerSecond, double cpuMicrosPerEvent, double oneClientP50Nanos) {}

  /**
   * {@code rounds} rounds of {@code first}'s load on each design, after {@code warm} (if any, not
   * measured) on each, and {@code single}'s deliveries from one client after each run.
   */
  Result run(SampleDatabase database, SampleSecrets secrets, LoadPlan.Spec first, LoadPlan.Spec single,
      LoadPlan.Spec warm, int workers, int poolSize, int rounds, UnaryOperator<WebhookRuntimeBuilder> options)
      throws Exception {
    out.printf("peers, side by side: store first (S) beside the store-first design by hand (hs), INLINE (I) beside the"
        + " inline design by hand (h), each with %d workers or %d connections, one server; %d rounds alternating %s,"
        + " each run drained before the next:%n", workers, clients, rounds, order(rounds));
    List<LoadGenerator.Run> runs = new ArrayList<>();
    try (HandWrittenEndpoint h = HandWrittenEndpoint.start(database.jdbcUrl(), secrets, clients);
        HandWrittenStoreFirst hs = HandWrittenStoreFirst.start(database.jdbcUrl(), secrets, clients, workers);
        SampleApp s = SampleApp.start(database.beside("peers_store_first", poolSize), secrets, "127.0.0.1", 0,
            SampleHandlers.all(), b -> options.apply(b).mode(ProcessingMode.STORE_FIRST));
        SampleApp i = SampleApp.start(database.beside("peers_inline", poolSize), secrets, "127.0.0.1", 0,
            SampleHandlers.all(), b -> options.apply(b).mode(ProcessingMode.INLINE))) {
      List<Design> designs = List.of(handWritten(h), handStoreFirst(hs), hookledger("S", s), hookledger("I", i));
      if (warm != null) {
        for (Design d : designs) {
          LoadPlan.Spec spec = withSeed(warm, warm.seed() + SEED_BASE - 1);
          runs.add(load.run(d.uri(), spec, clients, maxSeconds));
          d.plans.add(LoadPlan.of(spec, clock));
          d.drained &= awaitDrained(d, System.nanoTime()) != null;
        }
      }
      int n = 0;
      for (int round = 0; round < rounds; round++) {
        for (int k = 0; k < designs.size(); k++) {
          Design d = designs.get(round % 2 == 0 ? k : designs.size() - 1 - k);
          n++;
          LoadPlan.Spec spec = withSeed(first, first.seed() + SEED_BASE + 10L * n);
          LoadPlan.Spec one = withSeed(single, first.seed() + SEED_BASE + 10L * n + 1);
          runs.addAll(measure(d, spec, one, round + 1));
        }
      }
      report(designs, rounds);
      boolean ok = true;
      for (Design d : designs) {
        ok &= exactlyOnce(d);
      }
      return new Result(runs, ok);
    }
  }

  private List<LoadGenerator.Run> measure(Design d, LoadPlan.Spec spec, LoadPlan.Spec one, int round)
      throws Exception {
    LoadPlan plan = LoadPlan.of(spec, clock);
    long cpuBefore = BenchCommand.processCpuNanos();
    long start = System.nanoTime();
    LoadGenerator.Run run = load.run(d.uri(), spec, clients, maxSeconds);
    Duration settled = awaitDrained(d, start);
    long cpu = BenchCommand.processCpuNanos() - cpuBefore;
    d.plans.add(plan);
    LoadGenerator.Run single = load.run(d.uri(), one, 1, maxSeconds);
    d.plans.add(LoadPlan.of(one, clock));
    d.drained &= settled != null && awaitDrained(d, System.nanoTime()) != null && !run.cutOff() && !single.cutOff();
    double perSecond = settled == null ? Double.NaN : plan.distinctEvents() * 1e9 / settled.toNanos();
    Measured m = new Measured(perSecond, cpu / 1e3 / plan.distinctEvents(),
        single.latencies().percentile(50).toNanos());
    d.measured.add(m);
    line(d.label + round + " (seed " + spec.seed() + ")", settled == null
        ? "NOT all settled within --max-seconds"
        : String.format("settled %.0f events/s (acked %.0f deliveries/s), JVM CPU %.0f us per settled event, 1-client"
            + " p50 %s", perSecond, run.perSecond(), m.cpuMicrosPerEvent(),
            Latencies.millis(single.latencies().percentile(50))));
    return List.of(run, single);
  }

  private void report(List<Design> designs, int rounds) {
    Design h = designs.get(0);
    Design hs = designs.get(1);
    Design s = designs.get(2);
    Design i = designs.get(3);
    ratios("S/hs", s, hs, rounds, "0.9", "1.1", "1.2");
    ratios("I/h", i, h, rounds, "0.9", "1.1", "1.2");
  }

  private void ratios(String name, Design ours, Design peer, int rounds, String settled, String cpu, String p50) {
    ratio(name + " settled", ours, peer, rounds, Measured::settledPerSecond, ">= " + settled);
    ratio(name + " CPU", ours, peer, rounds, Measured::cpuMicrosPerEvent, "<= " + cpu);
    ratio(name + " p50", ours, peer, rounds, Measured::oneClientP50Nanos, "<= " + p50);
  }

  private void ratio(String label, Design ours, Design peer, int rounds,
      java.util.function.ToDoubleFunction<Measured> figure, String target) {
    double[] r = new double[rounds];
    for (int k = 0; k < rounds; k++) {
      r[k] = figure.applyAsDouble(ours.measured.get(k)) / figure.applyAsDouble(peer.measured.get(k));
    }
    double[] sorted = r.clone();
    java.util.Arrays.sort(sorted);
    line(label, String.format("%.2f (median of %d rounds; range %.2f-%.2f; target %s)", SideBySide.median(r), rounds,
        sorted[0], sorted[rounds - 1], target));
  }

  private boolean exactlyOnce(Design d) throws SQLException {
    String label = "effects, " + d.label;
    if (!d.drained) {
      line(label, "NOT checked: NOT all settled before the deadline");
      return false;
    }
    ExpectedState expected = new ExpectedState();
    d.plans.forEach(p -> p.addExpected(expected));
    List<String> problems = expected.toState().differencesFrom(d.state());
    line(label, problems.isEmpty()
        ? "exactly once: balances, commit counts and orders match the distinct events"
        : "NOT exactly once: " + problems.size() + " differences, e.g. " + problems.get(0));
    return problems.isEmpty();
  }

  /** When {@code d} has nothing waiting, from {@code start}; null if {@code --max-seconds} passes first. */
  private Duration awaitDrained(Design d, long start) throws InterruptedException {
    long deadline = start + Duration.ofSeconds(maxSeconds).toNanos();
    while (System.nanoTime() < deadline) {
      if (!d.anyWaiting()) {
        return Duration.ofNanos(System.nanoTime() - start);
      }
      Thread.sleep(5);
    }
    return null;
  }

  /** The order of the designs' runs in {@code rounds} rounds: {@code h hs S I, I S hs h, ...}. */
  static String order(int rounds) {
    String reversed = String.join(" ", reverse(ORDER.split(" ")));
    return IntStream.range(0, rounds).mapToObj(r -> r % 2 == 0 ? ORDER : reversed).collect(Collectors.joining(", "));
  }

  private static List<String> reverse(String[] words) {
    List<String> list = new ArrayList<>(List.of(words));
    java.util.Collections.reverse(list);
    return list;
  }

  private static LoadPlan.Spec withSeed(LoadPlan.Spec spec, long seed) {
    return spec.with(spec.deliveries(), seed);
  }

  private static Design handWritten(HandWrittenEndpoint h) {
    return new Design("h") {
      @Override URI uri() {
        return h.uri();
      }

      @Override boolean anyWaiting() {
        return false; // each event settles before its answer
      }

      @Override SampleState state() throws SQLException {
        return h.state();
      }
    };
  }

  private static Design handStoreFirst(HandWrittenStoreFirst hs) {
    return new Design("hs") {
      @Override URI uri() {
        return hs.uri();
      }

      @Override boolean anyWaiting() {
        try {
          return hs.anyWaiting();
        } catch (SQLException e) {
          return true;
        }
      }

      @Override SampleState state() throws SQLException {
        return hs.state();
      }
    };
  }

  private static Design hookledger(String label, SampleApp app) {
    return new Design(label) {
      @Override URI uri() {
        return app.uri();
      }

      @Override boolean anyWaiting() {
        try (Connection c = app.dataSource().getConnection(); Statement s = c.createStatement();
            ResultSet r = s.executeQuery("select exists (select 1 from " + SampleApp.LEDGER_SCHEMA + ".event"
                + " where status in ('pending', 'processing'))")) {
          r.next();
          return r.getBoolean(1);
        } catch (SQLException e) {
          return true;
        }
      }

      @Override SampleState state() {
        return SampleState.read(org.jooq.impl.DSL.using(app.dataSource(), org.jooq.SQLDialect.POSTGRES));
      }
    };
  }

  private void line(String label, String text) {
    out.printf("  %-18s %s%n", label, text);
  }
}
