package dev.hookledger.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hookledger.EventContext;
import dev.hookledger.OnEvent;
import dev.hookledger.Secrets;
import dev.hookledger.WebhookEvent;
import dev.hookledger.runtime.testing.Await;
import dev.hookledger.runtime.testing.LedgerRows;
import dev.hookledger.runtime.testing.TestDatabase;
import dev.hookledger.runtime.testing.TestHookAdapter;
import dev.hookledger.runtime.testing.TestHookSigner;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import javax.sql.DataSource;
import org.jooq.DSLContext;
import org.jooq.exception.DataAccessException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Handlers run in the transaction that settles the ledger row (STORE_FIRST, through the local
 * executor): their writes commit with {@code done} or roll back with it, and {@code afterCommit}
 * follows the commit.
 */
class HandlerTransactionTest {
  static final TestHookSigner SIGNER = new TestHookSigner("tx-secret");
  static TestDatabase.Database db;
  static WebhookRuntime runtime;
  static final Handlers HANDLERS = new Handlers();

  @BeforeAll
  static void start() {
    db = TestDatabase.create();
    db.execute("create table effect (event_id text primary key, how text not null)");
    runtime = WebhookRuntime.builder()
        .dataSource(db.dataSource())
        .provider(new TestHookAdapter(), Secrets.of("tx-secret"))
        .handlers(HANDLERS)
        .build();
    runtime.migrate();
    runtime.start();
    HANDLERS.ledger = db.dataSource();
  }

  @AfterAll
  static void stop() {
    runtime.close();
  }

  @Test
  void handlerThatWritesThenThrowsLeavesNeitherItsWriteNorDone() {
    receive("evt_fail", "write.then.fail");

    Map<String, Object> row = awaitAttempts("evt_fail", 1);
    assertEquals("pending", row.get("status"));
    assertTrue(((String) row.get("last_error")).startsWith("@OnEvent method 'void "
        + Handlers.class.getName() + ".writeThenFail(WebhookEvent, DSLContext)' failed on testhook event evt_fail"
        + " write.then.fail: java.lang.IllegalStateException: boom after the write\n"), (String) row.get("last_error"));
    assertEquals(null, row.get("settled_at"));
    assertEquals(0, effects("evt_fail"));
  }

  @Test
  void afterCommitRunsOnceTheRowIsCommittedDone() {
    receive("evt_after", "after.commit");

    Await.until("the afterCommit action runs", () -> HANDLERS.seenAfterCommit.containsKey("evt_after"));
    // read on another connection: only a committed row is visible there
    assertEquals("done", HANDLERS.seenAfterCommit.get("evt_after"));
  }

  @Test
  void afterCommitDoesNotRunAfterARollback() {
    receive("evt_after_fail", "after.commit.fail");

    awaitAttempts("evt_after_fail", 1);
    assertFalse(HANDLERS.seenAfterCommit.containsKey("evt_after_fail"));
  }

  @Test
  void connectionParameterSharesTheTransaction() {
    receive("evt_conn", "connection.shared");

    assertEquals("done", awaitStatus("evt_conn"));
    assertEquals(Boolean.TRUE, HANDLERS.sameTransaction.get("evt_conn"));
    assertEquals(1, effects("evt_conn"));
  }

  @Test
  void writeThroughTheConnectionRollsBackWithAFailingHandler() {
    receive("evt_conn_fail", "connection.fail");

    Map<String, Object> row = awaitAttempts("evt_conn_fail", 1);
    assertEquals("pending", row.get("status"));
    assertEquals(0, effects("evt_conn_fail"));
  }

  @Test
  void handlerThatSwallowsASqlErrorFailsItsAttemptVisibly() {
    receive("evt_swallow", "swallow.sql.error");

    Map<String, Object> row = awaitAttempts("evt_swallow", 1);
    assertEquals("pending", row.get("status"));
    assertTrue(((String) row.get("last_error")).contains("current transaction is aborted"), (String) row.get("last_error"));
    assertEquals(0, effects("evt_swallow"));
  }

  static void receive(String id, String type) {
    assertEquals(Receipt.Outcome.ACCEPTED, runtime.receive("testhook", SIGNER.delivery("testhook", id, type, "{}")).outcome());
  }

  /** Waits until attempt {@code attempts} has failed: the claim counted it, the failure put the row back to pending. */
  static Map<String, Object> awaitAttempts(String id, int attempts) {
    Await.until(id + " has " + attempts + " failed attempts", () -> LedgerRows.event(db.dataSource(), "hookledger", id)
        .map(r -> r.get("attempts").equals(attempts) && "pending".equals(r.get("status"))).orElse(false));
    return LedgerRows.event(db.dataSource(), "hookledger", id).orElseThrow();
  }

  static String awaitStatus(String id) {
    Await.until(id + " settles", () -> LedgerRows.event(db.dataSource(), "hookledger", id)
        .map(r -> r.get("settled_at") != null).orElse(false));
    return (String) LedgerRows.event(db.dataSource(), "hookledger", id).orElseThrow().get("status");
  }

  static long effects(String id) {
    return LedgerRows.number(db.dataSource(), "select count(*) from effect where event_id = ?", id);
  }

  static final class Handlers {
    final Map<String, String> seenAfterCommit = new ConcurrentHashMap<>();
    final Map<String, Boolean> sameTransaction = new ConcurrentHashMap<>();
    volatile DataSource ledger;

    @OnEvent("write.then.fail")
    void writeThenFail(WebhookEvent event, DSLContext tx) {
      tx.execute("insert into effect values (?, 'dsl')", event.eventId());
      throw new IllegalStateException("boom after the write");
    }

    /** Catching the error does not save the transaction: PostgreSQL has aborted it. */
    @OnEvent("swallow.sql.error")
    void swallow(WebhookEvent event, DSLContext tx) {
      tx.execute("insert into effect values (?, 'first')", event.eventId());
      try {
        tx.execute("insert into effect values (?, 'again')", event.eventId());
      } catch (DataAccessException duplicateKey) {
        // swallowed
      }
    }

    @OnEvent({"after.commit", "after.commit.fail"})
    void afterCommit(WebhookEvent event, EventContext context) {
      context.afterCommit(() -> seenAfterCommit.put(event.eventId(),
          (String) LedgerRows.event(ledger, "hookledger", event.eventId()).orElseThrow().get("status")));
      if (event.type().endsWith(".fail")) {
        throw new IllegalStateException("rolled back");
      }
    }

    @OnEvent("connection.shared")
    void shared(WebhookEvent event, Connection connection, DSLContext tx) throws SQLException {
      try (Statement s = connection.createStatement()) {
        s.execute("insert into effect values ('" + event.eventId() + "', 'jdbc')");
      }
      connection.close(); // a handler's try-with-resources must not end hookledger's transaction
      long viaJdbc = txid(connection);
      long viaJooq = ((Number) tx.fetchValue("select txid_current()")).longValue();
      long seen = ((Number) tx.fetchValue("select count(*) from effect where event_id = ?", event.eventId())).longValue();
      sameTransaction.put(event.eventId(), viaJdbc == viaJooq && seen == 1);
    }

    @OnEvent("connection.fail")
    void sharedThenFail(WebhookEvent event, Connection connection) throws SQLException {
      try (Statement s = connection.createStatement()) {
        s.execute("insert into effect values ('" + event.eventId() + "', 'jdbc')");
      }
      throw new SQLException("checked failure after a JDBC write");
    }

    private static long txid(Connection connection) throws SQLException {
      try (Statement s = connection.createStatement(); ResultSet rs = s.executeQuery("select txid_current()")) {
        rs.next();
        return rs.getLong(1);
      }
    }
  }
}
