package dev.hookledger.samples.bench;

import dev.hookledger.samples.server.SampleApp;
import java.io.PrintStream;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.ToDoubleFunction;
import javax.sql.DataSource;

/**
 * {@code bench --history N}'s measurement: the same load on an empty ledger (E) and on one holding a
 * history (H), side by side. Both ledgers live on one PostgreSQL server, each with its own runtime
 * and HTTP server; the runs alternate in ABBA pairs (E H, H E, E H, ...) so that a machine whose
 * load drifts weighs on both sides alike, each with a seed of its own and each drained before the
 * next starts. A run's settled rate comes from its ledger's own timestamps (its events' first
 * {@code received_at} to their last {@code settled_at}), not from polling. Each pair gives a ratio
 * H/E per figure; the report gives their median and range.
 */
final class SideBySide {
  /** Seeds of the runs, this far apart: {@code --target}'s plans use seed + k. */
  static final int SEED_STEP = 100;

  private final PrintStream out;
  private final LoadProcess load;
  private final int clients;
  private final int maxSeconds;
  private final Clock clock;

  SideBySide(PrintStream out, LoadProcess load, int clients, int maxSeconds, Clock clock) {
    this.out = out;
    this.load = load;
    this.clients = clients;
    this.maxSeconds = maxSeconds;
    this.clock = clock;
  }

  /** One ledger's side: its runs and their plans, for the exactly-once check, and whether all drained. */
  record Side(List<LoadGenerator.Run> runs, List<LoadPlan> plans, boolean drained) {}

  record Result(Side empty, Side history) {}

  /** One run's figures. */
  private record Measured(LoadGenerator.Run run, double settledPerSecond) {
    double p50() {
      return run.latencies().percentile(50).toNanos();
    }

    double p99() {
      return run.latencies().percentile(99).toNanos();
    }
  }

  /**
   * Runs {@code pairs} ABBA pairs of {@code first}'s load (its seed + {@link #SEED_STEP} times the
   * run's number, from 1) on {@code empty} and {@code history}, and reports each run and the ratios.
   */
  Result run(SampleApp empty, SampleApp history, long historyRows, LoadPlan.Spec first, int pairs) throws Exception {
    out.printf("side by side, the same load on an empty ledger (E) and on %d settled events (H), one server, a runtime"
        + " each; %d pairs alternating %s, each run drained before the next:%n", historyRows, pairs, order(pairs));
    List<List<LoadGenerator.Run>> runs = List.of(new ArrayList<>(), new ArrayList<>());
    List<List<LoadPlan>> plans = List.of(new ArrayList<>(), new ArrayList<>());
    Measured[][] measured = new Measured[2][pairs];
    LedgerCounters[] cost = {LedgerCounters.NONE, LedgerCounters.NONE};
    boolean[] drained = {true, true};
    SampleApp[] apps = {empty, history};
    int n = 0;
    for (int pair = 0; pair < pairs; pair++) {
      for (int i = 0; i < 2; i++) {
        int side = pair % 2 == 0 ? i : 1 - i;
        n++;
        LoadPlan.Spec spec = first.with(first.deliveries(), first.seed() + (long) SEED_STEP * n);
        SampleApp app = apps[side];
        LedgerCounters before = LedgerCounters.read(app.dataSource(), SampleApp.LEDGER_SCHEMA);
        String since = now(app.dataSource());
        long start = System.nanoTime();
        LoadGenerator.Run run = load.run(app.uri(), spec, clients, maxSeconds);
        boolean done = BenchCommand.awaitProcessed(app.admin(), start, start + Duration.ofSeconds(maxSeconds).toNanos())
            != null;
        LedgerCounters after = LedgerCounters.read(app.dataSource(), SampleApp.LEDGER_SCHEMA);
        cost[side] = cost[side].plus(after.minus(before));
        double settled = done ? settledPerSecond(app.dataSource(), since) : Double.NaN;
        drained[side] &= done;
        runs.get(side).add(run);
        plans.get(side).add(LoadPlan.of(spec, clock));
        measured[side][pair] = new Measured(run, settled);
        out.printf("  %-18s acked %.0f deliveries/s, settled %s, p50 %s, p99 %s%s%n",
            (side == 0 ? "E" : "H") + (pair + 1) + " (seed " + spec.seed() + ")", run.perSecond(),
            done ? String.format("%.0f events/s", settled) : "NOT drained before --max-seconds",
            Latencies.millis(run.latencies().percentile(50)), Latencies.millis(run.latencies().percentile(99)),
            run.cutOff() ? ", CUT OFF by --max-seconds" : "");
      }
    }
    int events = plans.get(0).stream().mapToInt(LoadPlan::distinctEvents).sum();
    ratioLine("acked hist/empty", measured, m -> m.run().perSecond());
    ratioLine("settled hist/empty", measured, Measured::settledPerSecond);
    ratioLine("p50 hist/empty", measured, Measured::p50);
    ratioLine("p99 hist/empty", measured, Measured::p99);
    out.printf("  %-18s %s%n", "database, empty", cost[0].since(LedgerCounters.NONE, events));
    out.printf("  %-18s %s%n", "database, history", cost[1].since(LedgerCounters.NONE, events));
    return new Result(new Side(runs.get(0), plans.get(0), drained[0]), new Side(runs.get(1), plans.get(1), drained[1]));
  }

  /** E H, H E, E H, ...: the order of {@code pairs} pairs. */
  static String order(int pairs) {
    StringBuilder s = new StringBuilder();
    for (int pair = 0; pair < pairs; pair++) {
      s.append(s.length() == 0 ? "" : ", ").append(pair % 2 == 0 ? "E H" : "H E");
    }
    return s.toString();
  }

  /** The median and range over the pairs of H's figure over E's. */
  private void ratioLine(String label, Measured[][] measured, ToDoubleFunction<Measured> figure) {
    int pairs = measured[0].length;
    double[] ratios = new double[pairs];
    for (int pair = 0; pair < pairs; pair++) {
      ratios[pair] = figure.applyAsDouble(measured[1][pair]) / figure.applyAsDouble(measured[0][pair]);
    }
    Arrays.sort(ratios);
    out.printf("  %-18s %.2f (median of %d pairs; range %.2f-%.2f)%n", label, median(ratios), pairs, ratios[0],
        ratios[pairs - 1]);
  }

  /** The middle of sorted {@code values}, or the mean of the two middle ones. */
  static double median(double[] sorted) {
    int mid = sorted.length / 2;
    return sorted.length % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
  }

  /** The database's clock, as text: compared with its own timestamps, never through the JVM's zone. */
  private static String now(DataSource ds) throws SQLException {
    try (Connection c = ds.getConnection();
        PreparedStatement ps = c.prepareStatement("SELECT clock_timestamp()::text");
        ResultSet rs = ps.executeQuery()) {
      rs.next();
      return rs.getString(1);
    }
  }

  /**
   * Events received since {@code since} over the span from the first one's receipt to the last one's
   * settle, read on the received-at index (the history's millions of rows are older).
   */
  private static double settledPerSecond(DataSource ds, String since) throws SQLException {
    try (Connection c = ds.getConnection();
        PreparedStatement ps = c.prepareStatement("SELECT count(*), extract(epoch FROM max(settled_at) - min(received_at))"
            + " FROM " + SampleApp.LEDGER_SCHEMA + ".event WHERE received_at >= ?::timestamptz")) {
      ps.setString(1, since);
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return rs.getLong(1) / rs.getDouble(2);
      }
    }
  }
}
