package dev.hookledger.runtime;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Whether a runtime can receive and process right now, as {@link WebhookRuntime#health()} found it
 * within its deadline: the lifecycle, the database, the worker threads and the notification
 * listener of this node, and the backlog of the whole ledger. A value: immutable, thread-safe.
 *
 * <p>{@link #status()} sums it up: {@link Status#DOWN} when this node cannot receive (not running,
 * or the database did not answer in time), {@link Status#DEGRADED} when it receives but events are
 * not being processed as they should (events stuck, or a worker thread or the poller not running),
 * or the outbox's effects are not sent (a destination's breaker is open, or effects are dead), else
 * {@link Status#UP}. {@link #reason()} says why, in one line.
 *
 * @param running started and not closed
 * @param databaseReachable the ledger answered a read just now, within the read deadline
 * @param workers worker threads configured (0 for a runtime that only receives, or in SHADOW mode)
 * @param workersAlive worker threads still running
 * @param pollerAlive whether the thread claiming waiting events runs (true when there are no workers)
 * @param listenerConnected whether this node listens for notifications; while it does not, it finds
 *     events by polling only, so it is slower but not down (true when there are no workers)
 * @param failuresSurvived errors the background threads caught, logged and survived since start
 *     (an {@link OutOfMemoryError}, say): not down, but worth an alert
 * @param waiting events of the ledger {@code pending} or {@code processing}; 0 if unreachable
 * @param dead events of the ledger waiting for an operator; 0 if unreachable
 * @param oldestWaitingAge age of the oldest waiting event; {@link Duration#ZERO} if none waits or
 *     the database is unreachable
 * @param stuck waiting events of the ledger that no worker takes (see
 *     {@link dev.hookledger.runtime.admin.InboxAdmin.Builder#stuckAfter}); 0 if unreachable
 * @param databaseProblem why the ledger could not be read, empty when it was; never null
 * @param deadEffects effects of the outbox refused for good or out of attempts, waiting for an
 *     operator; 0 if unreachable
 * @param openBreakers destinations of the outbox whose circuit breaker is open or probing (their
 *     effects wait); 0 if unreachable
 */
public record Health(boolean running, boolean databaseReachable, int workers, int workersAlive, boolean pollerAlive,
    boolean listenerConnected, long failuresSurvived, long waiting, long dead, Duration oldestWaitingAge, long stuck,
    String databaseProblem, long deadEffects, long openBreakers) {

  /** The one-word verdict, for a load balancer and an alert. */
  public enum Status {
    /** Receiving and processing. */
    UP,
    /** Receiving (deliveries are recorded and acknowledged), but events are stuck or not processed here. */
    DEGRADED,
    /** Not receiving: not running, or the database did not answer in time. */
    DOWN
  }

  public Health {
    requireNonNull(oldestWaitingAge, "oldestWaitingAge");
    requireNonNull(databaseProblem, "databaseProblem");
  }

  /** A health with no dead effect and no open breaker (a ledger without effects). */
  public Health(boolean running, boolean databaseReachable, int workers, int workersAlive, boolean pollerAlive,
      boolean listenerConnected, long failuresSurvived, long waiting, long dead, Duration oldestWaitingAge, long stuck,
      String databaseProblem) {
    this(running, databaseReachable, workers, workersAlive, pollerAlive, listenerConnected, failuresSurvived, waiting,
        dead, oldestWaitingAge, stuck, databaseProblem, 0, 0);
  }

  /** See the class description. */
  public Status status() {
    if (!running || !databaseReachable) {
      return Status.DOWN;
    }
    return workersAlive < workers || !pollerAlive || stuck > 0 || deadEffects > 0 || openBreakers > 0
        ? Status.DEGRADED : Status.UP;
  }

  /**
   * Whether this node can receive: running and the database reachable ({@link Status#UP} or
   * {@link Status#DEGRADED}). A node whose workers died still records and acknowledges deliveries
   * (other nodes, or this one once restarted, process them), so it stays in the load balancer;
   * alert on {@link Status#DEGRADED}, a listener that is reconnecting, failures survived and a
   * backlog apart.
   */
  public boolean up() {
    return status() != Status.DOWN;
  }

  /**
   * Why the status is not {@link Status#UP}, in one line that names no secret (for example
   * {@code the database is unreachable: the ledger database did not answer within 2000 ms} or
   * {@code 3 events stuck; 1 of 2 worker threads running}); empty when up.
   */
  public Optional<String> reason() {
    List<String> why = new ArrayList<>();
    if (!running) {
      why.add("the runtime is not running");
    }
    if (!databaseReachable) {
      why.add("the database is unreachable: " + databaseProblem);
    }
    if (why.isEmpty()) {
      if (stuck > 0) {
        why.add(stuck + (stuck == 1 ? " event stuck" : " events stuck") + ": due and taken by no worker");
      }
      if (workersAlive < workers) {
        why.add(workersAlive + " of " + workers + " worker threads running");
      }
      if (!pollerAlive) {
        why.add("the poller is not running");
      }
      if (deadEffects > 0) {
        why.add(deadEffects + (deadEffects == 1 ? " effect" : " effects") + " dead, waiting for an operator");
      }
      if (openBreakers > 0) {
        why.add("the breaker of " + openBreakers + (openBreakers == 1 ? " destination" : " destinations")
            + " is open: its effects wait");
      }
    }
    return why.isEmpty() ? Optional.empty() : Optional.of(String.join("; ", why));
  }

  /**
   * The public part of {@link #reason()}, for an unauthenticated health check: which kind of
   * problem, no figures, no errors ({@code database unreachable}, {@code not running},
   * {@code events stuck}, {@code workers not running}); empty when up.
   */
  public Optional<String> summary() {
    List<String> what = new ArrayList<>();
    if (!running) {
      what.add("not running");
    } else if (!databaseReachable) {
      what.add("database unreachable");
    } else {
      if (stuck > 0) {
        what.add("events stuck");
      }
      if (workersAlive < workers || !pollerAlive) {
        what.add("workers not running");
      }
      if (deadEffects > 0) {
        what.add("effects dead");
      }
      if (openBreakers > 0) {
        what.add("breaker open");
      }
    }
    return what.isEmpty() ? Optional.empty() : Optional.of(String.join(", ", what));
  }
}
