package dev.hookledger.runtime.internal.background;

import dev.hookledger.runtime.internal.ledger.LedgerErrors;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import javax.sql.DataSource;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Listens on a runtime's channels (the schema's for events, its outbox's for effects) over one
 * connection of its own, and on every notification wakes the poller waiting on that channel, so that
 * an event or effect committed by any runtime is claimed at once rather than at the next poll. One
 * connection for all of them: a listening session is held for the runtime's life, taken from the
 * application's pool. A lost connection is opened again with backoff (1 s doubling to 30 s), and
 * every poller is woken after each reconnect for what was sent meanwhile. Runs on its own thread
 * until {@link #stop()}.
 */
public final class NotificationListener implements Runnable {
  /** The listening session's {@code application_name}, to tell it apart in {@code pg_stat_activity}. */
  public static final String APPLICATION_NAME = "hookledger-listener";
  /** The session's name on a node that listens for the outbox alone (it has no inbox workers). */
  public static final String OUTBOX_APPLICATION_NAME = "hookledger-outbox-listener";
  private static final Logger log = LoggerFactory.getLogger(NotificationListener.class);
  /** How long one wait for notifications lasts: the bound on how long {@link #stop()} takes. */
  private static final int WAIT_MILLIS = 200;
  /** A silent connection is checked this often, so a dead one is found even if no error reaches it. */
  private static final Duration HEARTBEAT = Duration.ofSeconds(15);
  private static final Duration FIRST_RETRY = Duration.ofSeconds(1);
  private static final Duration MAX_RETRY = Duration.ofSeconds(30);

  private final DataSource dataSource;
  private final Map<String, Wakeup> wakeups;
  private final String channels;
  private final BackgroundFailures failures;
  private final String applicationName;
  private volatile boolean running = true;
  private volatile boolean connected;

  /**
   * @param wakeups the poller's signal to give for each channel's notifications, by channel; not empty
   * @param applicationName the session's {@code application_name}: {@link #APPLICATION_NAME}, or
   *     {@link #OUTBOX_APPLICATION_NAME} on a node that listens for the outbox alone
   */
  public NotificationListener(DataSource dataSource, Map<String, Wakeup> wakeups, BackgroundFailures failures,
      String applicationName) {
    if (wakeups.isEmpty()) {
      throw new IllegalArgumentException("no channel to listen on");
    }
    this.dataSource = dataSource;
    this.wakeups = new LinkedHashMap<>(wakeups);
    this.channels = String.join(", ", wakeups.keySet());
    this.failures = failures;
    this.applicationName = applicationName;
  }

  /** Whether it listens right now; while it does not, events are found by polling only. */
  public boolean connected() {
    return connected;
  }

  public void stop() {
    running = false;
  }

  @Override
  public void run() {
    Duration retry = FIRST_RETRY;
    boolean failing = false;
    while (running) {
      try (Connection c = dataSource.getConnection()) {
        // before the connection is changed: one this cannot listen on goes back to the pool as it came
        PGConnection pg = c.unwrap(PGConnection.class);
        Session found = Session.of(c);
        try {
          listen(c);
          if (failing) {
            log.info("listening on {} again", channels);
          }
          failing = false;
          retry = FIRST_RETRY;
          wakeups.values().forEach(Wakeup::signal); // whatever was notified while no one listened
          connected = true;
          receive(c, pg);
        } finally {
          connected = false;
          found.restore(c);
        }
      } catch (SQLException | RuntimeException | Error e) {
        connected = false;
        if (!running) {
          return;
        }
        if (e instanceof Error) {
          // not an outage: reconnecting after the pause keeps the thread, and the wake-ups, alive
          failures.caught(Thread.currentThread().getName(), "listening on " + channels, e);
        }
        if (!failing) {
          log.warn("not listening on {} (events and effects are found by polling meanwhile): {}; retrying in {} s", channels,
              LedgerErrors.describe(e), retry.toSeconds());
        }
        failing = true;
        if (!pause(retry)) {
          return;
        }
        retry = retry.multipliedBy(2).compareTo(MAX_RETRY) > 0 ? MAX_RETRY : retry.multipliedBy(2);
      }
    }
  }

  private void listen(Connection c) throws SQLException {
    c.setAutoCommit(true);
    c.setClientInfo("ApplicationName", applicationName);
    try (Statement s = c.createStatement()) {
      for (String channel : wakeups.keySet()) {
        s.execute("LISTEN \"" + channel + "\"");
      }
    }
  }

  private void receive(Connection c, PGConnection pg) throws SQLException {
    long quietSince = System.nanoTime();
    while (running) {
      PGNotification[] notifications = pg.getNotifications(WAIT_MILLIS);
      if (notifications != null && notifications.length > 0) {
        for (PGNotification n : notifications) {
          Wakeup w = wakeups.get(n.getName());
          if (w != null) {
            w.signal();
          }
        }
        quietSince = System.nanoTime();
      } else if (System.nanoTime() - quietSince > HEARTBEAT.toNanos()) {
        try (Statement s = c.createStatement()) {
          s.execute("SELECT 1");
        }
        quietSince = System.nanoTime();
      }
    }
  }

  /**
   * The session settings {@link #listen} changes, as the pool lent the connection, so that they are
   * given back on every path out, a failure's too: a pooled connection left listening, named
   * {@value #APPLICATION_NAME} (or the outbox's name), would be lent to the application so.
   */
  private record Session(boolean autoCommit, String applicationName) {
    static Session of(Connection c) throws SQLException {
      return new Session(c.getAutoCommit(), c.getClientInfo("ApplicationName"));
    }

    /** Best effort: on a broken connection, which the pool discards, nothing is left to restore. */
    void restore(Connection c) {
      try (Statement s = c.createStatement()) {
        s.execute("UNLISTEN *");
        c.setClientInfo("ApplicationName", applicationName == null ? "" : applicationName);
        c.setAutoCommit(autoCommit);
      } catch (SQLException e) {
        log.debug("cannot reset the listening connection ({}); it is returned as it is", LedgerErrors.describe(e));
      }
    }
  }

  private boolean pause(Duration d) {
    long deadline = System.nanoTime() + d.toNanos();
    while (running && System.nanoTime() < deadline) {
      try {
        Thread.sleep(Math.min(WAIT_MILLIS, Math.max(1, (deadline - System.nanoTime()) / 1_000_000)));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return false;
      }
    }
    return running;
  }
}
