package dev.hookledger.samples.bench;

import dev.hookledger.runtime.admin.InboxAdmin;
import dev.hookledger.samples.server.SampleApp;
import java.io.PrintStream;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code bench --bookkeeping-ab}: what recording the handlers that applied each event (issue 22's
 * {@code handler_applied}; since issue 23 a CTE of the settle's own statement, which without the
 * record carries an empty list) costs the processing path. The same runtime settles the same load
 * four times, with the record, without it (the system property {@value #SKIP}, read by the runtime's
 * {@code EventProcessor}, a switch for benchmarks only), with, without (A/B/A/B, so that a trend of
 * the machine shows as one), and reports settled events/s of each.
 */
final class BookkeepingPhase {
  /** {@code SKIP}, which bench may not import (an internal class). */
  static final String SKIP = "hookledger.bench.skipHandlerBookkeeping";

  private final PrintStream out;

  BookkeepingPhase(PrintStream out) {
    this.out = out;
  }

  /** Runs the four phases; returns their plans, for bench's effects check. */
  List<LoadPlan> run(SampleApp app, LoadProcess load, LoadPlan.Spec base, int clients, int maxSeconds)
      throws InterruptedException {
    InboxAdmin admin = app.admin();
    List<LoadPlan> plans = new ArrayList<>();
    double[] rates = new double[4];
    try {
      for (int i = 0; i < 4; i++) {
        boolean skip = i % 2 == 1;
        System.setProperty(SKIP, Boolean.toString(skip));
        LoadPlan.Spec spec = base.with(base.deliveries(), base.seed() + 10 + i);
        LoadPlan plan = LoadPlan.of(spec, Clock.systemUTC());
        plans.add(plan);
        long start = System.nanoTime();
        load.run(app.uri(), spec, clients, maxSeconds);
        Duration settled = BenchCommand.awaitProcessed(admin, start, start + Duration.ofSeconds(maxSeconds).toNanos());
        rates[i] = settled == null ? 0 : plan.distinctEvents() * 1e9 / settled.toNanos();
        out.printf("  %-18s %.0f events/s settled (%d events)%s%n", skip ? "without record" : "with record",
            rates[i], plan.distinctEvents(), settled == null ? ", NOT all settled in time" : "");
      }
    } finally {
      System.clearProperty(SKIP);
    }
    out.printf("  %-18s %.2f (settled/s with the record / without, A/B/A/B means)%n", "bookkeeping",
        (rates[0] + rates[2]) / (rates[1] + rates[3]));
    return plans;
  }
}
