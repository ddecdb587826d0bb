package dev.hookledger.runtime.internal.inbox;

import dev.hookledger.runtime.internal.DaemonTimer;
import dev.hookledger.runtime.internal.ledger.LedgerErrors;
import dev.hookledger.runtime.internal.ledger.MinuteRollUp;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.jooq.DSLContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the chart's roll-up pass ({@link MinuteRollUp}) every {@link #EVERY} on a thread of its own,
 * never on a delivery's path: every node runs it, one at a time counts (the pass's advisory lock), so
 * the roll-up keeps up while any runtime runs, and catches up at the first pass after none did. A
 * failure is logged once at WARN (then at DEBUG until a pass succeeds) and retried at the next tick;
 * so is a bound held back by an old transaction ({@link MinuteRollUp#heldBack}), once until it clears.
 * Thread-safe.
 */
public final class RollUpTimer implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(RollUpTimer.class);
  /**
   * How often the pass runs: the chart's read of the rows not yet rolled up, from the event table,
   * then spans about this long (plus {@link MinuteRollUp#GRACE} where the pass cannot see every
   * session), and the count changes a bulk statement appended are folded this soon.
   */
  public static final Duration EVERY = Duration.ofSeconds(10);

  private final MinuteRollUp rollUp;
  private final DSLContext dsl;
  private final String schema;
  private final String threadName;
  private ScheduledExecutorService timer;
  private boolean failing; // the timer thread's
  private boolean heldBack; // the timer thread's

  public RollUpTimer(MinuteRollUp rollUp, DSLContext dsl, String schema, String threadName) {
    this.rollUp = rollUp;
    this.dsl = dsl;
    this.schema = schema;
    this.threadName = threadName;
  }

  /** Runs a first pass soon and one every {@link #EVERY}. */
  public synchronized void start() {
    if (timer != null) {
      return;
    }
    timer = DaemonTimer.start(threadName);
    timer.scheduleWithFixedDelay(this::tick, 1, EVERY.toSeconds(), TimeUnit.SECONDS);
  }

  @Override
  public synchronized void close() {
    if (timer != null) {
      timer.shutdownNow();
      timer = null;
    }
  }

  private void tick() {
    try {
      long minutes = rollUp.pass(dsl);
      if (minutes > 60) {
        log.info("rolled up {} minutes of ledger schema '{}' for the chart (caught up)", minutes, schema);
      }
      if (failing) {
        log.info("rolling up the chart's minutes of ledger schema '{}' again", schema);
        failing = false;
      }
      Optional<String> why = rollUp.heldBack(dsl);
      if (why.isPresent() && !heldBack) {
        log.warn(why.get());
      } else if (why.isEmpty() && heldBack) {
        log.info("the roll-up of ledger schema '{}' has caught up", schema);
      }
      heldBack = why.isPresent();
    } catch (RuntimeException e) {
      String line = "cannot roll up the chart's minutes of ledger schema '" + schema + "' ("
          + LedgerErrors.describe(e) + "); retried in " + EVERY.toSeconds() + " s";
      if (failing) {
        log.debug(line);
      } else {
        log.warn(line);
        failing = true;
      }
    }
  }
}
