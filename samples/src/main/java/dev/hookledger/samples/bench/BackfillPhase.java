package dev.hookledger.samples.bench;

import dev.hookledger.OnEvent;
import dev.hookledger.WebhookEvent;
import dev.hookledger.runtime.admin.Backfill;
import dev.hookledger.runtime.admin.BackfillRequest;
import dev.hookledger.runtime.admin.BackfillStatus;
import dev.hookledger.runtime.admin.InboxAdmin;
import dev.hookledger.runtime.admin.LegacyEvents;
import dev.hookledger.samples.server.SampleApp;
import java.io.PrintStream;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import javax.sql.DataSource;

/**
 * {@code bench --backfill N}: whether a backfill leaves live deliveries their priority (issue 22:
 * "live ack latency within 1.5x of without"). {@code N} settled events are stored that a handler
 * registered for the purpose ({@link Probe}) has never applied; one client's ack latency is
 * measured on the idle server, twice while a backfill of the probe over those events runs at its
 * default pace ({@link BackfillRequest#DEFAULT_MAX_PER_SECOND}/s, pausing above
 * {@link BackfillRequest#DEFAULT_MAX_BACKLOG} waiting events), and on the idle server again once it
 * is done (idle, backfill, backfill, idle: a machine whose load drifts during the phase moves both
 * sides alike), and the probe is checked to have applied each stored event exactly once. The probe handles only the type of the stored events, so
 * the other phases' live events never run it.
 */
final class BackfillPhase {
  /** The type of the stored events; no live delivery of the load plan has it. */
  static final String TYPE = "bench.backfill";

  /** Rows written per statement (and transaction): V2's count trigger makes one big insert quadratic. */
  private static final int ROWS_PER_STATEMENT = 1000;

  /** What the phase adds to bench's own checks: the plans sent (for the effects) and the runs. */
  record Result(List<LoadPlan> plans, List<LoadGenerator.Run> runs, boolean ok) {}

  /** The handler a backfill adds: one row per application, so that a second application shows. */
  public static final class Probe {
    static final String NAME = "bench.backfill-probe";

    @OnEvent(value = TYPE, provider = "stripe", name = NAME)
    void apply(WebhookEvent event, Connection tx) throws SQLException {
      try (PreparedStatement ps = tx.prepareStatement("insert into bench_backfill (event_id) values (?)")) {
        ps.setString(1, event.eventId());
        ps.executeUpdate();
      }
    }
  }

  private final PrintStream out;

  BackfillPhase(PrintStream out) {
    this.out = out;
  }


  Result run(SampleApp app, LoadProcess load, int n, LoadPlan.Spec spec, int maxSeconds) throws Exception {
    List<LoadPlan.Spec> specs = new java.util.ArrayList<>();
    for (int i = 0; i < 4; i++) {
      specs.add(spec.with(spec.deliveries(), spec.seed() + i));
    }
    InboxAdmin admin = app.admin();
    long fillStart = System.nanoTime();
    store(app.dataSource(), n);
    line("backfill", String.format("%d settled stripe events of type %s stored in %.1f s, never applied by %s", n,
        TYPE, (System.nanoTime() - fillStart) / 1e9, Probe.NAME));

    LoadGenerator.Run idle = load.run(app.uri(), specs.get(0), 1, maxSeconds);
    awaitIdle(admin, maxSeconds);

    Backfill started = admin.startBackfill(BackfillRequest.builder(Probe.NAME).provider("stripe").type(TYPE)
        .legacy(LegacyEvents.APPLY).build());
    long backfillStart = System.nanoTime();
    await("the backfill to start", maxSeconds, () -> admin.backfill(started.id()).orElseThrow().visited() > 0);
    long visitedBefore = admin.backfill(started.id()).orElseThrow().visited();
    LoadGenerator.Run busy = load.run(app.uri(), specs.get(1), 1, maxSeconds);
    LoadGenerator.Run busy2 = load.run(app.uri(), specs.get(2), 1, maxSeconds);
    Backfill during = admin.backfill(started.id()).orElseThrow();
    boolean throughout = during.status() == BackfillStatus.RUNNING;
    await("the backfill to finish", maxSeconds,
        () -> admin.backfill(started.id()).orElseThrow().status() != BackfillStatus.RUNNING);
    Backfill done = admin.backfill(started.id()).orElseThrow();
    double seconds = (System.nanoTime() - backfillStart) / 1e9;
    awaitIdle(admin, maxSeconds);
    LoadGenerator.Run idle2 = load.run(app.uri(), specs.get(3), 1, maxSeconds);

    line("  backfilled", String.format("%s: %d applied, %d skipped, %d failed in %.1f s (%.0f events/s; %d visited"
            + " while the client sent)", done.status().name().toLowerCase(java.util.Locale.ROOT), done.applied(),
        done.skipped(), done.failed(), seconds, done.visited() / seconds, during.visited() - visitedBefore));
    Latencies idleBoth = both(idle, idle2);
    Latencies busyBoth = both(busy, busy2);
    Duration p50Idle = idleBoth.percentile(50);
    Duration p99Idle = idleBoth.percentile(99);
    Duration p50Busy = busyBoth.percentile(50);
    Duration p99Busy = busyBoth.percentile(99);
    line("  1 client, idle", String.format("p50 %s, p99 %s (%d deliveries, before and after)", Latencies.millis(p50Idle),
        Latencies.millis(p99Idle), idle.sent() + idle2.sent()));
    line("  1 client, backfill", String.format("p50 %s, p99 %s (%d deliveries)%s", Latencies.millis(p50Busy),
        Latencies.millis(p99Busy), busy.sent() + busy2.sent(),
        throughout ? "" : " (the backfill ENDED before the client did)"));
    line("  backfill/idle", String.format("p50 %.2fx, p99 %.2fx (target <= 1.5)",
        (double) p50Busy.toNanos() / p50Idle.toNanos(), (double) p99Busy.toNanos() / p99Idle.toNanos()));

    long[] applied = probeRows(app.dataSource());
    boolean once = done.status() == BackfillStatus.DONE && applied[0] == n && applied[1] == n;
    line("  probe effects", once ? "each stored event applied exactly once"
        : String.format("NOT exactly once: %d rows, %d distinct events of %d", applied[0], applied[1], n));
    Clock clock = Clock.systemUTC();
    return new Result(specs.stream().map(s -> LoadPlan.of(s, clock)).toList(), List.of(idle, busy, busy2, idle2), once);
  }

  /** The latencies of two runs together. */
  private static Latencies both(LoadGenerator.Run a, LoadGenerator.Run b) {
    long[] x = a.latencies().nanos();
    long[] y = b.latencies().nanos();
    long[] all = java.util.Arrays.copyOf(x, x.length + y.length);
    System.arraycopy(y, 0, all, x.length, y.length);
    return new Latencies(all);
  }

  /**
   * The probe's table, and {@code n} settled, legacy (no handler recorded) events, an hour old, in
   * statements of 1,000 rows.
   */
  private static void store(DataSource ds, int n) throws SQLException {
    try (Connection c = ds.getConnection(); Statement s = c.createStatement()) {
      c.setAutoCommit(true);
      s.execute("create table if not exists bench_backfill (event_id text not null)");
    }
    try (Connection c = ds.getConnection(); PreparedStatement ps = c.prepareStatement("insert into "
        + SampleApp.LEDGER_SCHEMA + ".event (provider, scope, event_id, type, body, headers, secret_id, source, status,"
        + " attempts, available_at, received_at, settled_at, max_attempts)"
        + " select 'stripe', '', 'evt_backfill_' || g, '" + TYPE + "', convert_to('{\"id\":\"evt_backfill_' || g"
        + " || '\"}', 'UTF8'), '{}'::jsonb, 'current', 'delivery', 'done', 1, t, t, t, 10"
        + " from generate_series(?::int, ?::int) g, lateral (select now() - interval '1 hour'"
        + " + g * interval '1 millisecond' as t) x on conflict do nothing")) {
      c.setAutoCommit(true);
      for (int from = 0; from < n; from += ROWS_PER_STATEMENT) {
        ps.setInt(1, from);
        ps.setInt(2, Math.min(n, from + ROWS_PER_STATEMENT) - 1);
        ps.executeUpdate();
      }
    }
  }

  private static long[] probeRows(DataSource ds) throws SQLException {
    try (Connection c = ds.getConnection(); Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("select count(*), count(distinct event_id) from bench_backfill")) {
      rs.next();
      return new long[] {rs.getLong(1), rs.getLong(2)};
    }
  }

  private static void awaitIdle(InboxAdmin admin, int maxSeconds) throws InterruptedException {
    long start = System.nanoTime();
    if (BenchCommand.awaitProcessed(admin, start, start + Duration.ofSeconds(maxSeconds).toNanos()) == null) {
      throw new IllegalStateException("bench --backfill: the live events did not settle in " + maxSeconds + " s");
    }
  }

  private static void await(String what, int maxSeconds, java.util.function.BooleanSupplier done)
      throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(maxSeconds).toNanos();
    while (!done.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("bench --backfill: gave up waiting for " + what + " after " + maxSeconds + " s");
      }
      Thread.sleep(20);
    }
  }

  private void line(String label, String text) {
    out.printf("  %-18s %s%n", label, text);
  }
}
