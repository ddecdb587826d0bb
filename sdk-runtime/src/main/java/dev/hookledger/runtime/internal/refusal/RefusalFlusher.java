package dev.hookledger.runtime.internal.refusal;

import dev.hookledger.runtime.RefusedDeliveries;
import dev.hookledger.runtime.internal.DaemonTimer;
import dev.hookledger.runtime.internal.background.PoolThreads;
import dev.hookledger.runtime.internal.ledger.LedgerDsl;
import dev.hookledger.runtime.internal.ledger.LedgerErrors;
import dev.hookledger.runtime.internal.ledger.RefusalCountRows;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.jooq.DSLContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Copies this node's refusal counts ({@link RefusalLog}) to the ledger's {@code refusal_count} table,
 * so that {@code hookledger status}, another process, sees them. Never on the receive path: every
 * {@link #EVERY} on a thread of its own, and only when the counts changed, one upsert of all of them,
 * so a million forged deliveries cost one statement every 2 s. Each statement runs in its own
 * transaction (a pool handing out {@code autoCommit=false} connections would roll a bare one back).
 * A failure is logged once at WARN (then at DEBUG until a flush succeeds) and retried at the next
 * tick; it never reaches a delivery. The same thread deletes the rows of nodes that refused nothing
 * for {@link #FORGET_AFTER}. Thread-safe.
 */
public final class RefusalFlusher implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(RefusalFlusher.class);
  /** How often changed counts are written. */
  public static final Duration EVERY = Duration.ofSeconds(2);
  /** A node whose newest row is older than this is gone: its rows are deleted. */
  static final Duration FORGET_AFTER = Duration.ofDays(7);
  /** How often the rows of gone nodes are looked for. */
  private static final Duration FORGET_EVERY = Duration.ofHours(1);

  private final RefusalLog refusals;
  private final DSLContext dsl;
  private final RefusalCountRows rows;
  private final String node;
  private final Set<String> providers;
  private final Clock clock;
  private final String threadName;
  private ScheduledExecutorService timer;
  // touched by the timer thread, and by close() once the timer has stopped
  private Map<String, Long> written = Map.of();
  private Instant forgotAt;
  private boolean failing;

  /**
   * @param node this runtime's name in the table, unique per running instance
   * @param providers the registered provider ids: any other is written as
   *     {@link RefusedDeliveries#UNKNOWN_PROVIDER}, never a sender's text
   */
  public RefusalFlusher(RefusalLog refusals, DSLContext dsl, RefusalCountRows rows, String node, Set<String> providers,
      Clock clock, String threadName) {
    this.refusals = refusals;
    this.dsl = dsl;
    this.rows = rows;
    this.node = node;
    this.providers = Set.copyOf(providers);
    this.clock = clock;
    this.threadName = threadName;
  }

  /** Starts flushing every {@link #EVERY}. */
  public synchronized void start() {
    if (timer != null) {
      return;
    }
    timer = DaemonTimer.start(threadName);
    timer.scheduleWithFixedDelay(this::tick, EVERY.toMillis(), EVERY.toMillis(), TimeUnit.MILLISECONDS);
  }

  /**
   * Stops the timer and writes what changed since its last tick, once, waiting for that write at most
   * {@link PoolThreads#LAST_WRITE_WAIT}: a database that is gone does not hold the runtime's close for
   * the pool's connection timeout. Counts not written then are lost (they are this node's telemetry, not
   * deliveries: nothing refused was recorded) and said at WARN. Gone nodes are not looked for here.
   */
  @Override
  public synchronized void close() {
    if (timer == null) {
      return;
    }
    timer.shutdownNow(); // a tick waiting for a connection is interrupted
    try {
      timer.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return;
    }
    timer = null;
    boolean[] wrote = new boolean[1];
    boolean ended = PoolThreads.within(threadName + "-last", () -> wrote[0] = flushOnce());
    if (!ended || !wrote[0]) {
      log.warn("the last refusal counts of node {} were not written to ledger schema '{}' ({}): {}", node, rows.schema(),
          ended ? "ledger unavailable" : "no answer within " + PoolThreads.LAST_WRITE_WAIT.toMillis() + " ms",
          unwritten());
    }
  }

  /** One flush for close: true if the counts are in the ledger; never throws. */
  private boolean flushOnce() {
    try {
      flush();
      return true;
    } catch (RuntimeException e) {
      log.debug("cannot write the last refusal counts of node {}: {}", node, LedgerErrors.describe(e));
      return false;
    }
  }

  /** This node's totals as {@code provider/REASON=count}, for the line that says the last of them are lost. */
  private String unwritten() {
    List<String> lost = new ArrayList<>();
    for (RefusalLog.Total t : refusals.totals()) {
      String provider = providers.contains(t.provider()) ? t.provider() : RefusedDeliveries.UNKNOWN_PROVIDER;
      lost.add(provider + "/" + t.reason().name() + "=" + t.count());
    }
    return lost.isEmpty() ? "none" : "this node's totals " + String.join(", ", lost);
  }

  /** One flush (and, hourly, the forgetting of gone nodes); never throws. Package-private for tests. */
  void tick() {
    try {
      flush();
      forgetGoneNodes();
      if (failing) {
        log.info("refusal counts of node {} written to ledger schema '{}' again", node, rows.schema());
        failing = false;
      }
    } catch (RuntimeException e) {
      String line = "cannot write the refusal counts of node " + node + " to ledger schema '" + rows.schema()
          + "' (" + LedgerErrors.describe(e) + "); retried in " + EVERY.toSeconds() + " s";
      if (failing) {
        log.debug(line);
      } else {
        log.warn(line);
        failing = true;
      }
    }
  }

  private void flush() {
    Map<String, Long> now = new HashMap<>();
    Map<String, RefusalCountRows.Row> byKey = new HashMap<>();
    for (RefusalLog.Total t : refusals.totals()) {
      if (t.count() == 0) {
        continue; // a tally created by a refusal still being counted
      }
      String provider = providers.contains(t.provider()) ? t.provider() : RefusedDeliveries.UNKNOWN_PROVIDER;
      String key = provider + "\u0000" + t.reason().name();
      RefusalCountRows.Row prior = byKey.get(key);
      long count = t.count() + (prior == null ? 0 : prior.refused());
      Instant last = prior == null || t.lastAt().isAfter(prior.lastAt()) ? t.lastAt() : prior.lastAt();
      byKey.put(key, new RefusalCountRows.Row(provider, t.reason().name(), count, last));
      now.put(key, count);
    }
    if (now.equals(written)) {
      return;
    }
    List<RefusalCountRows.Row> changed = new ArrayList<>(byKey.values());
    LedgerDsl.inOwnTransaction(dsl, tx -> {
      rows.upsert(tx, node, changed);
      return null;
    });
    written = now;
  }

  private void forgetGoneNodes() {
    Instant at = clock.instant();
    if (forgotAt != null && Duration.between(forgotAt, at).compareTo(FORGET_EVERY) < 0) {
      return;
    }
    int deleted = LedgerDsl.inOwnTransaction(dsl, tx -> rows.deleteNodesNotSeenSince(tx, at.minus(FORGET_AFTER)));
    forgotAt = at;
    if (deleted > 0) {
      log.info("deleted {} refusal count rows of nodes that refused nothing for {} days", deleted,
          FORGET_AFTER.toDays());
    }
  }
}
