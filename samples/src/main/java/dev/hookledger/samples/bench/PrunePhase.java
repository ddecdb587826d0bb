package dev.hookledger.samples.bench;

import dev.hookledger.runtime.admin.PruneReport;
import dev.hookledger.samples.server.SampleApp;
import java.io.PrintStream;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.LongStream;
import javax.sql.DataSource;

/**
 * {@code bench --history N}'s last phase (issue 24 item 4): prunes the settled events older than
 * {@link #OLDER_THAN} (about 70 % of a {@link HistoryFill}, whose rows span 30 days) while one client
 * sends deliveries (round after round of new events until the prune ends), and prints the prune's time, its progress reports, one client's ack latency
 * without and during it, and the event table's size and dead rows before and after.
 */
final class PrunePhase {
  /** 21 of the fill's 30 days. */
  static final Duration OLDER_THAN = Duration.ofDays(9);

  /** Progress reports (one a batch) between two lines printed. */
  private static final int PRINT_EVERY = 250;

  private final PrintStream out;

  PrunePhase(PrintStream out) {
    this.out = out;
  }

  /** The client's runs and their plans, for the exactly-once check. */
  record Result(List<LoadGenerator.Run> runs, List<LoadPlan> plans) {}

  Result run(SampleApp app, LoadProcess load, LoadPlan.Spec round, int maxSeconds, Clock clock) throws Exception {
    DataSource ds = app.dataSource();
    String before = tableFacts(ds);
    List<LoadGenerator.Run> runs = new ArrayList<>();
    List<LoadPlan> plans = new ArrayList<>();
    LoadGenerator.Run idle = load.run(app.uri(), round, 1, maxSeconds);
    runs.add(idle);
    plans.add(LoadPlan.of(round, clock));
    AtomicInteger reports = new AtomicInteger();
    long start = System.nanoTime();
    CompletableFuture<PruneReport> pruning = CompletableFuture.supplyAsync(
        () -> app.admin().prune(OLDER_THAN, true, r -> {
          if (reports.incrementAndGet() % PRINT_EVERY == 0) {
            out.printf("  %-18s %,d events in %,d batches (%.0f s)%n", "pruning", r.deleted(), r.batches(),
                (System.nanoTime() - start) / 1e9);
          }
        }));
    List<long[]> during = new ArrayList<>();
    for (int i = 1; !pruning.isDone(); i++) {
      LoadPlan.Spec next = round.with(round.deliveries(), round.seed() + i);
      LoadGenerator.Run busy = load.run(app.uri(), next, 1, maxSeconds);
      runs.add(busy);
      plans.add(LoadPlan.of(next, clock));
      during.add(busy.latencies().nanos());
    }
    PruneReport pruned = pruning.get();
    long pruneNanos = System.nanoTime() - start;
    Latencies busy = new Latencies(during.stream().flatMapToLong(LongStream::of).toArray());
    out.printf("prune of events settled over %d days ago, while one client sends:%n", OLDER_THAN.toDays());
    out.printf("  %-18s %,d events in %,d batches, %.1f s, %d progress reports%n", "pruned", pruned.deleted(),
        pruned.batches(), pruneNanos / 1e9, reports.get());
    out.printf("  %-18s without p50 %s / p99 %s, during p50 %s / p99 %s (%d deliveries; p99 during/without %.2f)%n",
        "1 client ack", Latencies.millis(idle.latencies().percentile(50)),
        Latencies.millis(idle.latencies().percentile(99)), Latencies.millis(busy.percentile(50)),
        Latencies.millis(busy.percentile(99)), busy.count(),
        (double) busy.percentile(99).toNanos() / idle.latencies().percentile(99).toNanos());
    out.printf("  %-18s before %s; after %s%n", "event table", before, tableFacts(ds));
    return new Result(runs, plans);
  }

  private static String tableFacts(DataSource ds) throws SQLException {
    try (Connection c = ds.getConnection();
         PreparedStatement ps = c.prepareStatement("SELECT pg_size_pretty(pg_total_relation_size(relid)),"
             + " n_live_tup, n_dead_tup FROM pg_stat_user_tables WHERE schemaname = ? AND relname = 'event'")) {
      ps.setString(1, SampleApp.LEDGER_SCHEMA);
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return rs.getString(1) + ", " + rs.getLong(2) + " live, " + rs.getLong(3) + " dead rows";
      }
    }
  }
}
