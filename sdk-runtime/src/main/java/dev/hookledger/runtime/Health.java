package dev.hookledger.runtime;

import static java.util.Objects.requireNonNull;

import java.time.Duration;

/**
 * Whether a runtime can receive and process right now, as {@link WebhookRuntime#health()} found it:
 * the lifecycle, the database, the worker threads and the notification listener of this node, and
 * the backlog of the whole ledger. A value: immutable, thread-safe.
 *
 * @param running started and not closed
 * @param databaseReachable the ledger answered a read just now (within the connection deadlines)
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
 */
public record Health(boolean running, boolean databaseReachable, int workers, int workersAlive, boolean pollerAlive,
    boolean listenerConnected, long failuresSurvived, long waiting, long dead, Duration oldestWaitingAge) {

  public Health {
    requireNonNull(oldestWaitingAge, "oldestWaitingAge");
  }

  /**
   * Whether this node can receive and process: running, the database reachable, and every worker
   * thread and the poller alive. A listener that is reconnecting, failures survived and a backlog do
   * not make a node down (the backlog is the ledger's, shared by every node): alert on them apart.
   */
  public boolean up() {
    return running && databaseReachable && workersAlive == workers && pollerAlive;
  }
}
