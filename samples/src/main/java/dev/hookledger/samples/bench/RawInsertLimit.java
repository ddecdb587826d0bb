package dev.hookledger.samples.bench;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The database's own limit, measured the way a team without an SDK would write a webhook endpoint's
 * insert: a loop of durable single-row {@code INSERT ... ON CONFLICT DO NOTHING} statements, each
 * committed on its own (autocommit), over N JDBC connections at once. What hookledger's receive path
 * is compared with: every acknowledged delivery needs at least this durable write.
 */
final class RawInsertLimit {
  /** What one measurement did. */
  record Result(int connections, int rows, long elapsedNanos, Latencies latencies) {
    double perSecond() {
      return elapsedNanos == 0 ? 0 : rows * 1e9 / elapsedNanos;
    }
  }

  private final String jdbcUrl;
  private final byte[] body;
  private final AtomicInteger run = new AtomicInteger();

  /** @param body what each row carries, the size of a delivery */
  RawInsertLimit(String jdbcUrl, byte[] body) {
    this.jdbcUrl = jdbcUrl;
    this.body = body.clone();
  }

  /** Creates the table, a plain durable one keyed like the ledger ({@code text} primary key). */
  void prepare() throws SQLException {
    try (Connection c = DriverManager.getConnection(jdbcUrl); Statement s = c.createStatement()) {
      s.execute("create table if not exists bench_raw_insert (id text primary key, body bytea not null)");
      s.execute("truncate bench_raw_insert");
    }
  }

  /** Inserts {@code rows} distinct rows over {@code connections} connections, each row committed alone. */
  Result measure(int connections, int rows) throws InterruptedException {
    int runId = run.incrementAndGet();
    return loop(jdbcUrl, connections, rows, "the raw insert loop", c -> {
      PreparedStatement ps = c.prepareStatement("insert into bench_raw_insert (id, body) values (?, ?) on conflict do nothing");
      return n -> {
        ps.setString(1, "raw-" + runId + "-" + n);
        ps.setBytes(2, body);
        ps.executeUpdate();
      };
    });
  }

  /** What one client does with the {@code n}-th row, on the connection it was made for. */
  interface RowWriter {
    void write(int n) throws SQLException;
  }

  /** Makes a client's {@link RowWriter} on its own connection. */
  interface WriterFactory {
    RowWriter on(Connection c) throws SQLException;
  }

  /**
   * Writes rows 0 to {@code rows - 1} with {@code connections} clients, each on its own connection and
   * taking the next row as soon as its previous one is written, timing each row.
   */
  static Result loop(String jdbcUrl, int connections, int rows, String what, WriterFactory writers)
      throws InterruptedException {
    long[] latencies = new long[rows];
    AtomicInteger next = new AtomicInteger();
    ExecutorService pool = Executors.newFixedThreadPool(connections, r -> new Thread(r, "bench-database-client"));
    List<Connection> opened = new ArrayList<>();
    try {
      List<RowWriter> clients = new ArrayList<>();
      for (int i = 0; i < connections; i++) {
        Connection c = DriverManager.getConnection(jdbcUrl);
        opened.add(c);
        clients.add(writers.on(c));
      }
      long start = System.nanoTime();
      List<Future<?>> running = new ArrayList<>();
      for (RowWriter w : clients) {
        running.add(pool.submit(() -> {
          for (int n = next.getAndIncrement(); n < rows; n = next.getAndIncrement()) {
            long t0 = System.nanoTime();
            w.write(n);
            latencies[n] = System.nanoTime() - t0;
          }
          return null;
        }));
      }
      for (Future<?> f : running) {
        f.get();
      }
      long elapsed = System.nanoTime() - start;
      return new Result(connections, rows, elapsed, new Latencies(Arrays.stream(latencies).filter(l -> l > 0).toArray()));
    } catch (SQLException e) {
      throw new IllegalStateException("cannot connect for " + what + ": " + e.getMessage(), e);
    } catch (ExecutionException e) {
      throw new IllegalStateException(what + " failed: " + e.getCause(), e.getCause());
    } finally {
      pool.shutdownNow();
      for (Connection c : opened) {
        try {
          c.close();
        } catch (SQLException ignored) {
          // closing after a measurement: nothing to report
        }
      }
    }
  }
}
