package dev.hookledger.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;

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
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A database outage: deliveries are answered 503 with Retry-After and nothing is claimed; once it is back, the same delivery is accepted. */
class LedgerUnavailableTest {
  static final TestHookSigner SIGNER = new TestHookSigner("outage-secret");

  @Test
  void deliveryIsAnswered503WhileTheDatabaseIsDownAndAcceptedOnceItIsBack(@TempDir Path data) throws Exception {
    EmbeddedPostgres postgres = TestDatabase.startDedicated(false, data, 0);
    int port = postgres.getPort();
    List<String> unavailable = new CopyOnWriteArrayList<>();
    List<String> handled = new CopyOnWriteArrayList<>();
    HikariDataSource pool = pool(postgres.getJdbcUrl("postgres", "postgres"));
    ServedRuntime served = ServedRuntime.serve(WebhookRuntime.builder()
        .dataSource(pool)
        .provider(new TestHookAdapter(), Secrets.of("outage-secret"))
        .handlers(new Object() {
          @OnEvent("order.paid")
          void paid(WebhookEvent event) {
            handled.add(event.eventId());
          }
        })
        .listener(new WebhookListener() {
          @Override
          public void ledgerUnavailable(String provider, Throwable cause) {
            unavailable.add(provider);
          }
        }));
    try {
      HttpRequest delivery = SIGNER.request(served.uri("/webhooks/testhook"), "evt_outage", "order.paid", "{\"n\":1}");

      postgres.close();
      HttpResponse<String> down = TestHttp.send(delivery);

      assertEquals(503, down.statusCode());
      assertEquals("5", down.headers().firstValue("Retry-After").orElseThrow());
      assertEquals("unavailable: retry later (the delivery may be recorded; a redelivery is answered duplicate)\n", down.body());
      assertEquals(List.of("testhook"), unavailable);

      postgres = TestDatabase.startDedicated(false, data, port);
      DataSource direct = postgres.getPostgresDatabase();
      assertEquals(0, LedgerRows.events(direct, "hookledger"), "nothing was claimed while the database was down");

      // as the provider does: redeliver after Retry-After until accepted (the pool reconnects with backoff)
      List<String> answers = new CopyOnWriteArrayList<>();
      Await.until("the redelivery is accepted", () -> {
        HttpResponse<String> again = TestHttp.send(delivery);
        answers.add(again.statusCode() + " " + again.body());
        return again.statusCode() != 503;
      });

      assertEquals("200 accepted\n", answers.get(answers.size() - 1), "answers: " + answers);
      Await.until("the event settles done", () -> "done".equals(
          LedgerRows.event(direct, "hookledger", "evt_outage").orElseThrow().get("status")));
      assertEquals(List.of("evt_outage"), handled);
    } finally {
      served.close();
      pool.close();
      postgres.close();
    }
  }

  /** The application's own pool, as a production setup would pass it: short connection timeout. */
  private static HikariDataSource pool(String url) {
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(url);
    config.setMaximumPoolSize(4);
    config.setConnectionTimeout(1_000);
    config.setInitializationFailTimeout(-1);
    return new HikariDataSource(config);
  }
}
