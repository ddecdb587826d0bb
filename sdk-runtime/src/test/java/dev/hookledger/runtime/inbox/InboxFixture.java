package dev.hookledger.runtime.inbox;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.hookledger.Secrets;
import dev.hookledger.runtime.Receipt;
import dev.hookledger.runtime.RetryPolicy;
import dev.hookledger.runtime.WebhookRuntime;
import dev.hookledger.runtime.WebhookRuntimeBuilder;
import dev.hookledger.runtime.internal.ledger.LedgerDsl;
import dev.hookledger.runtime.internal.ledger.SchemaMigrator;
import dev.hookledger.runtime.testing.Await;
import dev.hookledger.runtime.testing.LedgerRows;
import dev.hookledger.runtime.testing.TestDatabase;
import dev.hookledger.runtime.testing.TestHookAdapter;
import dev.hookledger.runtime.testing.TestHookSigner;
import java.time.Duration;
import java.util.Map;

/** The ledger, the effect tables and the runtimes of the inbox worker tests. */
final class InboxFixture {
  static final String SECRET = "inbox-secret";
  static final TestHookSigner SIGNER = new TestHookSigner(SECRET);

  private InboxFixture() {}

  /**
   * A migrated ledger plus two effect tables: {@code effect_count}, a counter per event (not
   * idempotent: each committed effect adds one), and {@code effect}, one row per committed effect.
   */
  static TestDatabase.Database database() {
    TestDatabase.Database db = TestDatabase.create();
    SchemaMigrator.migrate(LedgerDsl.on(db.dataSource()), "hookledger");
    db.execute("create table effect_count (event_id text primary key, n int not null, processed_by text not null);"
        + " create table effect (event_id text not null, node text not null)");
    return db;
  }

  /** A runtime on {@code jdbcUrl} (pooled by HikariCP, as in production), polling every 100 ms. */
  static WebhookRuntimeBuilder builder(String jdbcUrl, Object... handlers) {
    return WebhookRuntime.builder()
        .jdbcUrl(jdbcUrl)
        .provider(new TestHookAdapter(), Secrets.of(SECRET))
        .handlers(handlers)
        .inbox(i -> i.pollInterval(Duration.ofMillis(100))
            .shutdownTimeout(Duration.ofSeconds(10)));
  }

  /**
   * One of several nodes sharing a ledger: two workers, small batches, 3 s leases (short, for the
   * takeover of a killed node, yet long enough that a busy machine does not make one run out),
   * retries after 200 ms (±50 %), so that retries are claimed by whichever node polls first.
   */
  static WebhookRuntimeBuilder node(String jdbcUrl, Object... handlers) {
    return builder(jdbcUrl, handlers)
        .inbox(i -> i.workers(2).batchSize(4).lease(Duration.ofSeconds(3))
            .retryPolicy(RetryPolicy.builder().firstDelay(Duration.ofMillis(200)).jitter(0.5).build()));
  }

  static void receive(WebhookRuntime runtime, String id, String type, String body) {
    assertEquals(Receipt.Outcome.ACCEPTED, runtime.receive("testhook", SIGNER.delivery("testhook", id, type, body)).outcome());
  }

  static Map<String, Object> event(TestDatabase.Database db, String id) {
    return LedgerRows.event(db.dataSource(), "hookledger", id).orElseThrow(() -> new AssertionError("no event " + id));
  }

  static void awaitStatus(TestDatabase.Database db, String id, String status) {
    Await.until(id + " is " + status, () -> LedgerRows.event(db.dataSource(), "hookledger", id)
        .map(r -> status.equals(r.get("status"))).orElse(false));
  }

  static long number(TestDatabase.Database db, String sql, Object... args) {
    return LedgerRows.number(db.dataSource(), sql, args);
  }

  /** Waits until {@code n} runtimes listen for notifications on this database. */
  static void awaitListeners(TestDatabase.Database db, int n) {
    Await.until(n + " listening sessions", () -> number(db, "select count(*) from pg_stat_activity"
        + " where datname = current_database() and application_name = 'hookledger-listener'") == n);
  }
}
