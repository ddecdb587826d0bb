package dev.hookledger.runtime.internal.background;

import dev.hookledger.runtime.internal.ledger.LedgerDsl;
import dev.hookledger.runtime.internal.ledger.LedgerErrors;
import java.nio.charset.StandardCharsets;
import java.sql.PreparedStatement;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.jooq.DSLContext;
import org.jooq.exception.DataAccessException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Wakes the workers of every runtime on the ledger with {@code pg_notify} on the schema's channel,
 * for events this runtime recorded but does not process itself. Best effort: a lost notification
 * only delays the event until the next poll.
 *
 * <p>{@link #wakeWorkersSoon} never waits: a sender thread of its own sends one notification for
 * every request made while it sent the previous one. So an acknowledgement never waits for
 * {@code pg_notify} (whose commit PostgreSQL serializes across the database) nor for a second
 * connection, and a burst of deliveries costs a few notifications, not one each. Thread-safe.
 */
public final class Notifier implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(Notifier.class);
  /** PostgreSQL truncates identifiers, channel names among them, to 63 bytes. */
  private static final int MAX_CHANNEL_BYTES = 63;
  private static final String NOTIFY = "select pg_notify(?, '')";

  private final DSLContext dsl;
  private final String channel;
  private final Object lock = new Object();
  private boolean requested; // guarded by lock
  private boolean closed; // guarded by lock
  private Thread sender; // guarded by lock
  private final String threadName;

  public Notifier(DSLContext dsl, String schema) {
    this(dsl, schema, "");
  }

  /**
   * A notifier on the channel of one part of a schema's ledger: {@code hookledger.<schema>.<part>}
   * ({@code effects} for the outbox), or the schema's own channel for an empty {@code part}.
   */
  public Notifier(DSLContext dsl, String schema, String part) {
    this.dsl = dsl;
    this.channel = channel(part.isEmpty() ? schema : schema + "." + part);
    this.threadName = "hookledger-" + schema + (part.isEmpty() ? "" : "-" + part) + "-notifier";
  }

  /** The channel of a schema's ledger: {@code hookledger.<schema>}, cut to 63 bytes (schemas are ASCII). */
  static String channel(String schema) {
    String name = "hookledger." + schema;
    return name.getBytes(StandardCharsets.UTF_8).length <= MAX_CHANNEL_BYTES ? name : name.substring(0, MAX_CHANNEL_BYTES);
  }

  public String channel() {
    return channel;
  }

  /**
   * Sends one notification, in a transaction of its own (committed at once), on the caller's thread.
   * The statement goes to the driver as it is, prepared and bound by hand: through jOOQ's plain-SQL
   * fetch, rendering, binding and mapping its one empty row cost a notifier more CPU than sending it.
   */
  public void wakeWorkers() {
    try {
      // delivered when its transaction commits: bare on an autoCommit=false connection, never
      LedgerDsl.inOwnTransaction(dsl, tx -> {
        tx.connection(c -> {
          try (PreparedStatement notify = c.prepareStatement(NOTIFY)) {
            notify.setString(1, channel);
            notify.execute();
          }
        });
        return null;
      });
    } catch (DataAccessException e) {
      log.debug("cannot notify {}: {}; the next poll finds the events", channel, LedgerErrors.describe(e));
    }
  }

  /** Asks the sender thread for a notification, and returns at once. Ignored once closed. */
  public void wakeWorkersSoon() {
    synchronized (lock) {
      if (closed) {
        return;
      }
      requested = true;
      if (sender == null) {
        sender = new Thread(this::sendLoop, threadName);
        sender.setDaemon(true);
        sender.start();
      }
      lock.notifyAll();
    }
  }

  private void sendLoop() {
    while (true) {
      synchronized (lock) {
        while (!requested && !closed) {
          try {
            lock.wait();
          } catch (InterruptedException e) {
            return;
          }
        }
        if (!requested) {
          return; // closed, and nothing left to send
        }
        requested = false;
      }
      try {
        wakeWorkers();
      } catch (Throwable t) { // never let the sender die: the next request would never be sent
        log.warn("notifying {} failed unexpectedly; the next poll finds the events", channel, t);
      }
    }
  }

  /** Sends what was requested, then stops the sender thread. */
  @Override
  public void close() {
    Thread t;
    synchronized (lock) {
      closed = true;
      lock.notifyAll();
      t = sender;
    }
    if (t != null) {
      // a notification still waiting for a connection to a database that is gone is given up: the pollers find the rows
      PoolThreads.stop(List.of(t), System.nanoTime() + TimeUnit.SECONDS.toNanos(5));
    }
  }
}
