package dev.hookledger.samples.bench;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.hookledger.samples.app.SampleState;
import dev.hookledger.samples.server.SampleSecrets;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.net.URI;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * What a team writes without an SDK for the store-first design, for comparison only ((hs) in
 * {@code bench}): a servlet that checks the provider's HMAC by hand ({@link HandWrittenEndpoint}'s
 * checks) and inserts the ledger row, one {@code INSERT ... ON CONFLICT DO NOTHING} in autocommit on
 * HikariCP, before it answers 200; and a pool of worker threads in the same process, each of which,
 * in one transaction per event, takes the oldest waiting row with {@code FOR UPDATE SKIP LOCKED},
 * parses its body, applies {@link InlineDesign}'s effect and marks it done.
 *
 * <p>The row lock is the lease: a worker that dies rolls back and the row is pending again, so no
 * lease column, owner or expiry is written, and one commit settles each event. Claiming in batches
 * would add a commit of its own (a batch cannot stay locked across the per-event commits) and is
 * left out for that reason. A new row wakes a waiting worker at once; an idle worker polls every
 * {@value #IDLE_POLL_MILLIS} ms besides. It does not keep headers, retry a failing effect with
 * backoff or order events: the peer a user replaces with hookledger's default mode.
 */
final class HandWrittenStoreFirst implements AutoCloseable {
  static final String SCHEMA = "bench_hand_store_first";
  static final long IDLE_POLL_MILLIS = 50;

  private final HandWrittenServer server;
  private final Workers workers;

  private HandWrittenStoreFirst(HandWrittenServer server, Workers workers) {
    this.server = server;
    this.workers = workers;
  }

  /**
   * Starts it on a free loopback port with {@code workerCount} workers, its pool sized for them and
   * {@code connections} requests at once, on tables of its own (made anew).
   */
  static HandWrittenStoreFirst start(String jdbcUrl, SampleSecrets secrets, int connections, int workerCount)
      throws Exception {
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(jdbcUrl);
    config.setMaximumPoolSize(connections + workerCount);
    config.setPoolName("bench-hand-store-first");
    HikariDataSource pool = new HikariDataSource(config);
    InlineDesign design = new InlineDesign(SCHEMA);
    try (Connection c = pool.getConnection()) {
      StoreFirstFloor.prepare(c, design, SCHEMA);
    }
    Workers workers = new Workers(pool, design, workerCount);
    HandWrittenServer server = HandWrittenServer.serve("bench-hand-store-first-http",
        new Endpoint(pool, workers, secrets), pool, SCHEMA, workers);
    workers.start();
    return new HandWrittenStoreFirst(server, workers);
  }

  URI uri() {
    return server.uri();
  }

  /** Whether a row is not yet settled: one {@code exists} over the index of pending rows. */
  boolean anyWaiting() throws SQLException {
    try (Connection c = server.pool().getConnection(); Statement s = c.createStatement();
        ResultSet r = s.executeQuery("select exists (select 1 from " + SCHEMA + ".ledger where status = 'pending')")) {
      r.next();
      return r.getBoolean(1);
    }
  }

  /** Its effect tables, in the sample application's terms. */
  SampleState state() throws SQLException {
    return server.state();
  }

  /** Events its workers failed to settle (rolled back and left pending; none are expected). */
  long failures() {
    return workers.failures;
  }

  @Override
  public void close() {
    server.close(); // Jetty, then the workers, then the pool
  }

  /** The servlet: verify, insert, answer. */
  private static final class Endpoint extends HttpServlet {
    private final HikariDataSource pool;
    private final Workers workers;
    private final HandWrittenEndpoint.Signatures signatures;
    private final String insert = "insert into " + SCHEMA + ".ledger (provider, event_id, body) values (?, ?, ?)"
        + " on conflict do nothing";

    Endpoint(HikariDataSource pool, Workers workers, SampleSecrets secrets) {
      this.pool = pool;
      this.workers = workers;
      this.signatures = new HandWrittenEndpoint.Signatures(secrets);
    }

    @Override
    protected void doPost(HttpServletRequest request, HttpServletResponse response) throws IOException {
      byte[] body = request.getInputStream().readAllBytes();
      HandWrittenEndpoint.Signatures.Verified verified = signatures.verify(request, response, body);
      if (verified == null) {
        return;
      }
      String provider = verified.provider();
      String eventId = verified.eventId();
      boolean inserted;
      try (Connection c = pool.getConnection(); PreparedStatement ps = c.prepareStatement(insert)) {
        ps.setString(1, provider);
        ps.setString(2, eventId);
        ps.setBytes(3, body);
        inserted = ps.executeUpdate() == 1;
      } catch (SQLException e) {
        response.sendError(503);
        return;
      }
      if (inserted) {
        workers.wake();
      }
      response.setContentType("text/plain");
      response.getWriter().write(inserted ? "accepted" : "duplicate");
    }
  }

  /** The worker pool: each thread holds one connection and settles one event per transaction. */
  private static final class Workers implements AutoCloseable {
    private final HikariDataSource pool;
    private final InlineDesign design;
    private final List<Thread> threads = new ArrayList<>();
    private final Semaphore wakeUps = new Semaphore(0);
    private volatile boolean stopped;
    private volatile long failures;

    Workers(HikariDataSource pool, InlineDesign design, int count) {
      this.pool = pool;
      this.design = design;
      for (int i = 0; i < count; i++) {
        Thread t = new Thread(this::work, "bench-hand-store-first-worker-" + i);
        t.setDaemon(true);
        threads.add(t);
      }
    }

    void start() {
      threads.forEach(Thread::start);
    }

    /** A new row: one waiting worker takes it now rather than at its next poll. */
    void wake() {
      if (wakeUps.availablePermits() < threads.size()) {
        wakeUps.release();
      }
    }

    private void work() {
      while (!stopped) {
        try (Connection c = pool.getConnection();
            PreparedStatement claim = c.prepareStatement("select provider, event_id, body from " + SCHEMA
                + ".ledger where status = 'pending' order by received_at limit 1 for update skip locked");
            PreparedStatement settle = c.prepareStatement("update " + SCHEMA + ".ledger set status = 'done',"
                + " settled_at = now() where provider = ? and event_id = ?")) {
          c.setAutoCommit(false);
          while (!stopped) {
            if (!settleOne(c, claim, settle)) {
              wakeUps.tryAcquire(IDLE_POLL_MILLIS, TimeUnit.MILLISECONDS);
            }
          }
        } catch (SQLException | IOException e) {
          failures++; // the connection is dropped, the transaction rolled back; the row is pending again
        } catch (InterruptedException e) {
          return;
        }
      }
    }

    /** One event's transaction; false if none was waiting. */
    private boolean settleOne(Connection c, PreparedStatement claim, PreparedStatement settle)
        throws SQLException, IOException {
      try {
        InlineDesign.Effect effect;
        try (ResultSet r = claim.executeQuery()) {
          if (!r.next()) {
            c.rollback();
            return false;
          }
          effect = InlineDesign.effect(r.getString(1), r.getString(2), r.getBytes(3));
        }
        design.apply(c, effect);
        settle.setString(1, effect.provider());
        settle.setString(2, effect.eventId());
        settle.executeUpdate();
        c.commit();
        return true;
      } catch (SQLException | IOException | RuntimeException e) {
        c.rollback();
        throw e;
      }
    }

    @Override
    public void close() {
      stopped = true;
      for (Thread t : threads) {
        t.interrupt();
        try {
          t.join(10_000);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new IllegalStateException("interrupted while stopping the workers", e);
        }
      }
    }
  }
}
