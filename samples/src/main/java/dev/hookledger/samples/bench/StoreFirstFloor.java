package dev.hookledger.samples.bench;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The store-first design's floor at the database alone ({@code bench --floor}), written by hand
 * beside {@link InlineLimit}: per event one transaction that inserts the ledger row, then, if it
 * was new, one that claims it ({@code UPDATE ... RETURNING}), applies {@link InlineDesign}'s effect
 * and settles it: two durable commits per event, same connections and database, no HTTP, no
 * framework. Its rate over (i)'s is what any store-first design can reach on this database; the
 * settled rate over its rate is what hookledger loses to it.
 *
 * <p>And the acknowledgements' floor: the raw insert loop while W connections process a backlog
 * of such rows (claim the oldest pending one with {@code SKIP LOCKED}, effect, settle, commit), the
 * database's own share of what processing takes from receiving.
 */
final class StoreFirstFloor {
  private static final String SCHEMA = "bench_store_first";

  /** The raw loop's figures idle and while the processors ran, and how many events they settled meanwhile. */
  record Busy(RawInsertLimit.Result idle, RawInsertLimit.Result raw, int processed, int waitingAtEnd,
      double processedPerSecond) {}

  private final String jdbcUrl;
  private final InlineDesign design = new InlineDesign(SCHEMA);

  StoreFirstFloor(String jdbcUrl) {
    this.jdbcUrl = jdbcUrl;
  }

  /** Makes its ledger anew: {@link InlineDesign}'s tables, the ledger with a status and a partial index of waiting rows. */
  void prepare() throws SQLException {
    try (Connection c = DriverManager.getConnection(jdbcUrl)) {
      prepare(c, design, SCHEMA);
    }
  }

  /**
   * Makes {@code design}'s tables anew in {@code schema}, its ledger with a status and a partial
   * index of the waiting rows, so that a claim's cost follows the backlog: the store-first designs'
   * ledger, this floor's and the hand-written peer's ({@link HandWrittenStoreFirst}).
   */
  static void prepare(Connection c, InlineDesign design, String schema) throws SQLException {
    try (Statement s = c.createStatement()) {
      design.prepare(c);
      s.execute("alter table " + schema + ".ledger add column status text not null default 'pending',"
          + " add column settled_at timestamptz");
      s.execute("create index on " + schema + ".ledger (received_at) where status = 'pending'");
    }
  }

  /** The plan's deliveries over {@code connections} connections, each event in its two transactions. */
  RawInsertLimit.Result measure(LoadPlan plan, int connections) throws Exception {
    prepare();
    InlineLimit.Deliveries d = InlineLimit.Deliveries.of(plan);
    return RawInsertLimit.loop(jdbcUrl, connections, d.rows(), "the store-first floor's loop", c -> {
      c.setAutoCommit(false);
      PreparedStatement claim = c.prepareStatement("update " + SCHEMA + ".ledger set status = 'processing'"
          + " where provider = ? and event_id = ? and status = 'pending' returning body");
      PreparedStatement settle = settleStatement(c);
      return n -> {
        InlineDesign.Effect e = d.effects()[n];
        try {
          boolean inserted = design.insert(c, e, d.bodies()[n]);
          c.commit();
          if (inserted) {
            claim.setString(1, e.provider());
            claim.setString(2, e.eventId());
            try (ResultSet rs = claim.executeQuery()) {
              if (rs.next()) {
                design.apply(c, e);
                settle(settle, e);
              }
            }
            c.commit();
          }
        } catch (SQLException ex) {
          c.rollback();
          throw ex;
        }
      };
    });
  }

  /**
   * {@code raw}'s loop of {@code rows} inserts over {@code clients} connections, idle and then while
   * {@code workers} connections process a backlog of the plan's distinct events, stored pending
   * before it starts: the idle loop just before, not (a), is the ratio's base, so that both run as
   * warm as each other.
   */
  Busy rawWhileProcessing(RawInsertLimit raw, LoadPlan plan, int clients, int rows, int workers) throws Exception {
    prepare();
    RawInsertLimit.Result idle = raw.measure(clients, rows);
    InlineLimit.Deliveries d = InlineLimit.Deliveries.of(plan);
    Map<String, InlineDesign.Effect> byKey = new HashMap<>();
    try (Connection c = DriverManager.getConnection(jdbcUrl)) {
      c.setAutoCommit(false);
      for (int n = 0; n < d.rows(); n++) {
        InlineDesign.Effect e = d.effects()[n];
        if (byKey.putIfAbsent(e.provider() + "/" + e.eventId(), e) == null) {
          design.insert(c, e, d.bodies()[n]);
        }
      }
      c.commit();
    }
    AtomicBoolean stop = new AtomicBoolean();
    AtomicInteger processed = new AtomicInteger();
    ExecutorService pool = Executors.newFixedThreadPool(workers, r -> new Thread(r, "bench-floor-processor"));
    List<Future<?>> running = new ArrayList<>();
    try {
      for (int i = 0; i < workers; i++) {
        running.add(pool.submit(() -> process(byKey, stop, processed)));
      }
      long start = System.nanoTime();
      RawInsertLimit.Result busy = raw.measure(clients, rows);
      int settled = processed.get();
      double rate = settled * 1e9 / (System.nanoTime() - start);
      stop.set(true);
      for (Future<?> f : running) {
        f.get();
      }
      return new Busy(idle, busy, settled, byKey.size() - processed.get(), rate);
    } finally {
      pool.shutdownNow();
    }
  }

  /** One processor: claims the oldest waiting row, applies its effect, settles it, commits; until stopped or none waits. */
  private Void process(Map<String, InlineDesign.Effect> byKey, AtomicBoolean stop, AtomicInteger processed)
      throws SQLException {
    try (Connection c = DriverManager.getConnection(jdbcUrl);
        PreparedStatement claim = c.prepareStatement("update " + SCHEMA + ".ledger set status = 'processing'"
            + " where (provider, event_id) = (select provider, event_id from " + SCHEMA + ".ledger"
            + " where status = 'pending' order by received_at limit 1 for update skip locked)"
            + " returning provider, event_id, body");
        PreparedStatement settle = settleStatement(c)) {
      c.setAutoCommit(false);
      while (!stop.get()) {
        InlineDesign.Effect e = null;
        try (ResultSet rs = claim.executeQuery()) {
          if (rs.next()) {
            e = byKey.get(rs.getString(1) + "/" + rs.getString(2));
          }
        }
        if (e == null) {
          c.rollback();
          return null;
        }
        design.apply(c, e);
        settle(settle, e);
        c.commit();
        processed.incrementAndGet();
      }
      return null;
    }
  }

  private static PreparedStatement settleStatement(Connection c) throws SQLException {
    return c.prepareStatement("update " + SCHEMA + ".ledger set status = 'done', settled_at = now()"
        + " where provider = ? and event_id = ?");
  }

  private static void settle(PreparedStatement settle, InlineDesign.Effect e) throws SQLException {
    settle.setString(1, e.provider());
    settle.setString(2, e.eventId());
    settle.executeUpdate();
  }
}
