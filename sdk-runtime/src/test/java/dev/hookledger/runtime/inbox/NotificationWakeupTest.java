package dev.hookledger.runtime.inbox;

import static dev.hookledger.runtime.inbox.InboxFixture.builder;
import static dev.hookledger.runtime.inbox.InboxFixture.number;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.zaxxer.hikari.HikariDataSource;
import dev.hookledger.Secrets;
import dev.hookledger.runtime.WebhookRuntime;
import dev.hookledger.runtime.testing.Await;
import dev.hookledger.runtime.testing.LedgerRows;
import dev.hookledger.runtime.testing.TestDatabase;
import dev.hookledger.runtime.testing.TestHookAdapter;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.postgresql.PGConnection;

/**
 * An event recorded by one runtime wakes the workers of another through PostgreSQL
 * {@code LISTEN/NOTIFY}, long before that runtime's next poll (every 30 s here, so at the soonest
 * 24 s after the last). Each test first has one event processed, so that the poll at start and the
 * poll after connecting are over and the poller waits: only a notification can wake it for the
 * second event.
 */
class NotificationWakeupTest {
  static final String LISTENER_PID = "select pid from pg_stat_activity where datname = current_database()"
      + " and application_name = 'hookledger-listener'";

  @Test
  void eventRecordedByAReceiveOnlyRuntimeIsProcessedByAnotherWellBeforeItsNextPoll() {
    TestDatabase.Database db = InboxFixture.database();
    try (WebhookRuntime b = worker(db); WebhookRuntime a = builder(db.jdbcUrl()).inbox(i -> i.workers(0)).build()) {
      b.start();
      a.start();
      InboxFixture.awaitListeners(db, 1); // B's only: a runtime without workers does not listen

      assertProcessedWithinSeconds(db, a, "evt_first", 15);
      assertProcessedWithinSeconds(db, a, "evt_notified", 5);
    }
  }

  @Test
  void listenerWhoseConnectionIsTerminatedListensAgainAndStillWakesTheWorkers() {
    TestDatabase.Database db = InboxFixture.database();
    try (WebhookRuntime b = worker(db); WebhookRuntime a = builder(db.jdbcUrl()).inbox(i -> i.workers(0)).build()) {
      b.start();
      a.start();
      InboxFixture.awaitListeners(db, 1);
      long pid = number(db, LISTENER_PID);
      assertEquals(Boolean.TRUE, LedgerRows.first(db.dataSource(), "select pg_terminate_backend(?) as ok", (int) pid)
          .orElseThrow().get("ok"));
      Await.until("a new listening session", () -> LedgerRows.first(db.dataSource(), LISTENER_PID)
          .map(r -> ((Number) r.get("pid")).longValue() != pid).orElse(false));
      assertNotEquals(pid, number(db, LISTENER_PID));

      assertProcessedWithinSeconds(db, a, "evt_first_after_reconnect", 15);
      assertProcessedWithinSeconds(db, a, "evt_after_reconnect", 5);
    }
  }

  @Test
  void aPooledConnectionTheListenerCannotUseGoesBackToThePoolUnchanged() {
    TestDatabase.Database db = InboxFixture.database();
    AtomicInteger refused = new AtomicInteger();
    try (HikariDataSource pool = new HikariDataSource()) {
      pool.setJdbcUrl(db.jdbcUrl());
      pool.setMaximumPoolSize(4);
      try (WebhookRuntime runtime = WebhookRuntime.builder().dataSource(notPostgresToTheListener(pool, refused))
          .provider(new TestHookAdapter(), Secrets.of(InboxFixture.SECRET)).inbox(i -> i.workers(1)).build()) {
        runtime.start();
        Await.until("the listener took a connection and found it unusable", () -> refused.get() >= 1);

        assertEquals(0, number(db, "select count(*) from pg_stat_activity where datname = current_database()"
            + " and application_name = 'hookledger-listener'"), "a pooled session left named, and listening, by the listener");
      }
    }
  }

  /** {@code pool}, whose connections do not unwrap to {@link PGConnection}, as some connection proxies do not. */
  private static DataSource notPostgresToTheListener(HikariDataSource pool, AtomicInteger refused) {
    return (DataSource) Proxy.newProxyInstance(DataSource.class.getClassLoader(), new Class<?>[] {DataSource.class},
        (ds, method, args) -> {
          Object result = invoke(method, pool, args);
          if (!method.getName().equals("getConnection")) {
            return result;
          }
          Connection c = (Connection) result;
          return Proxy.newProxyInstance(Connection.class.getClassLoader(), new Class<?>[] {Connection.class},
              (proxy, m, a) -> {
                if (m.getName().equals("unwrap") && a[0] == PGConnection.class) {
                  refused.incrementAndGet();
                  throw new SQLException("not a PostgreSQL connection");
                }
                return invoke(m, c, a);
              });
        });
  }

  private static Object invoke(java.lang.reflect.Method method, Object target, Object[] args) throws Throwable {
    try {
      return method.invoke(target, args);
    } catch (InvocationTargetException e) {
      throw e.getCause();
    }
  }

  private static WebhookRuntime worker(TestDatabase.Database db) {
    return builder(db.jdbcUrl(), new CountingHandler("B", null))
        .inbox(i -> i.pollInterval(Duration.ofSeconds(30))).build();
  }

  private static void assertProcessedWithinSeconds(TestDatabase.Database db, WebhookRuntime recorder, String id, int seconds) {
    long start = System.nanoTime();
    InboxFixture.receive(recorder, id, "job.count", "{}");
    InboxFixture.awaitStatus(db, id, "done");
    long elapsed = System.nanoTime() - start;
    assertTrue(elapsed < TimeUnit.SECONDS.toNanos(seconds), "processed after " + elapsed / 1_000_000 + " ms");
    assertEquals(1, number(db, "select n from effect_count where event_id = ?", id));
  }
}
