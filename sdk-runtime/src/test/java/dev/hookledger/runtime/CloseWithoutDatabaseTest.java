package dev.hookledger.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.hookledger.OnEvent;
import dev.hookledger.Secrets;
import dev.hookledger.WebhookEvent;
import dev.hookledger.runtime.testing.Await;
import dev.hookledger.runtime.testing.LedgerRows;
import dev.hookledger.runtime.testing.ServedRuntime;
import dev.hookledger.runtime.testing.TestDatabase;
import dev.hookledger.runtime.testing.TestHookAdapter;
import dev.hookledger.runtime.testing.TestHookSigner;
import dev.hookledger.runtime.testing.TestHttp;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A runtime closed after its database went away: close() returns without waiting out the application's
 * pool (HikariCP's default connection timeout, 30 s, once per background loop and last write: 3.5 minutes
 * were measured), and what the runtime acknowledged is in the ledger once the database is back.
 */
class CloseWithoutDatabaseTest {
  private static final String SECRET = "close-secret-0123";
  private static final TestHookSigner SIGNER = new TestHookSigner(SECRET);
  private static final TestHookSigner FORGER = new TestHookSigner("not-the-secret-0123");

  @Test
  void closeReturnsPromptlyWhenTheDatabaseIsGoneAndWhatWasAcknowledgedIsThereOnceItIsBack(@TempDir Path data)
      throws Exception {
    EmbeddedPostgres postgres = TestDatabase.startDedicated(false, data, 0);
    int port = postgres.getPort();
    HikariDataSource pool = applicationPool(postgres.getJdbcUrl("postgres", "postgres"));
    List<String> handled = new CopyOnWriteArrayList<>();
    ServedRuntime served = null;
    try {
      WebhookRuntime.builder().dataSource(pool).provider(new TestHookAdapter(), Secrets.of(SECRET)).build().migrate();
      served = ServedRuntime.serve(WebhookRuntime.builder()
          .dataSource(pool)
          .provider(new TestHookAdapter(), Secrets.of(SECRET))
          .handlers(new Object() {
            @OnEvent("order.paid")
            void paid(WebhookEvent event) {
              handled.add(event.eventId());
            }
          }));
      for (String id : List.of("evt_close_1", "evt_close_2", "evt_close_3")) {
        assertEquals(200, TestHttp.send(SIGNER.request(served.uri("/webhooks/testhook"), id, "order.paid", "{}")).statusCode());
      }
      assertEquals(401, TestHttp.send(FORGER.request(served.uri("/webhooks/testhook"), "evt_forged_1", "order.paid", "{}"))
          .statusCode());
      DataSource before = postgres.getPostgresDatabase();
      Await.until("the three events settle and the refusal is written", () -> LedgerRows.number(before,
          "select count(*) from hookledger.event where status = 'done'") == 3
          && refused(before) == 1);

      postgres.close();
      // refused at the door without the database, counted in memory: close's last write cannot reach the ledger
      assertEquals(401, TestHttp.send(FORGER.request(served.uri("/webhooks/testhook"), "evt_forged_2", "order.paid", "{}"))
          .statusCode());
      long started = System.nanoTime();
      served.close();
      Duration took = Duration.ofNanos(System.nanoTime() - started);

      // each loop waiting for a connection is interrupted after 0.5 s, the last write given up after 3 s
      assertTrue(took.compareTo(Duration.ofSeconds(10)) < 0, "close() took " + took.toMillis() + " ms");

      postgres = TestDatabase.startDedicated(false, data, port);
      DataSource after = postgres.getPostgresDatabase();
      assertEquals("evt_close_1:done,evt_close_2:done,evt_close_3:done", LedgerRows.first(after,
          "select string_agg(event_id || ':' || status, ',' order by event_id) as rows from hookledger.event")
          .orElseThrow().get("rows"), "every acknowledged event is there, settled");
      assertEquals(List.of("evt_close_1", "evt_close_2", "evt_close_3"), handled.stream().sorted().toList());
      assertEquals(1, refused(after), "the refusal counts written before the database went away stay");
    } finally {
      if (served != null) {
        served.close();
      }
      pool.close();
      postgres.close();
    }
  }

  private static long refused(DataSource ds) {
    return LedgerRows.number(ds, "select coalesce(sum(refused), 0) from hookledger.refusal_count");
  }

  /** The application's own pool with HikariCP's defaults: a connection is waited for up to 30 s. */
  private static HikariDataSource applicationPool(String url) {
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(url);
    config.setMaximumPoolSize(10);
    config.setInitializationFailTimeout(-1);
    return new HikariDataSource(config);
  }
}
