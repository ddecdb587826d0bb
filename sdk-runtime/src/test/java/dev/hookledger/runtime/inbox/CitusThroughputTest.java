package dev.hookledger.runtime.inbox;

import static dev.hookledger.runtime.inbox.InboxFixture.SIGNER;
import static dev.hookledger.runtime.inbox.InboxFixture.number;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.hookledger.EventContext;
import dev.hookledger.InboundDelivery;
import dev.hookledger.OnEvent;
import dev.hookledger.runtime.Receipt;
import dev.hookledger.runtime.WebhookRuntime;
import dev.hookledger.runtime.internal.ledger.LedgerDsl;
import dev.hookledger.runtime.internal.ledger.SchemaMigrator;
import dev.hookledger.runtime.testing.Await;
import dev.hookledger.runtime.testing.TestDatabase;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.jooq.DSLContext;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * Settled events per second on the Citus coordinator the tests run on, beside a database of the
 * same server without the extension: the README's figure ("Running on Citus"). Not in the
 * {@code citus} profile's run (it takes minutes): {@code -Pcitus -Dtest=CitusThroughputTest}, with
 * {@code -Dhookledger.test.deliveries=N} (2000 by default). Each database: a runtime with 4
 * workers, 200 deliveries to warm up, then N deliveries over 64 scopes from 16 threads calling
 * {@code receive} (no HTTP), timed from the first receive to the last settle; the handler writes
 * one row in a table distributed with the events. Asserts each effect once; prints the rates.
 */
@Tag("citus")
@EnabledIfSystemProperty(named = TestDatabase.CITUS, matches = "true")
class CitusThroughputTest {
  private static final int DELIVERIES = Integer.getInteger("hookledger.test.deliveries", 2000);
  private static final int CLIENTS = 16;
  private static final int SCOPES = 64;

  @Test
  void eachDeliverySettlesOnceWithAndWithoutCitusOnTheSameServer() throws Exception {
    for (boolean citus : new boolean[] {false, true}) {
      TestDatabase.Database db = TestDatabase.createWithoutCitus();
      if (citus) {
        TestDatabase.addCitus(db);
      }
      SchemaMigrator.migrate(LedgerDsl.on(db.dataSource()), "hookledger");
      db.execute("create table effect_count (scope text not null, event_id text not null, n int not null,"
          + " primary key (scope, event_id))");
      if (citus) {
        db.execute("select create_distributed_table('effect_count', 'scope', colocate_with => 'hookledger.event')");
      }
      try (WebhookRuntime node = InboxFixture.builder(db.jdbcUrl(), new ScopedCount())
          .inbox(i -> i.workers(4)).build()) {
        node.start();
        receiveAll(node, "warm", 200);
        double loadBefore = load();
        long start = System.nanoTime();
        receiveAll(node, "evt", DELIVERIES);
        Await.until("all settled", Duration.ofMinutes(10), () -> number(db, "select count(*) from hookledger.event"
            + " where status = 'done' and event_id like 'evt%'") == DELIVERIES);
        double seconds = (System.nanoTime() - start) / 1e9;
        System.out.printf("%s: %d deliveries settled in %.1f s, %.0f/s (load average %.1f -> %.1f)%n",
            citus ? "Citus, 8 shards" : "same server, no citus", DELIVERIES, seconds, DELIVERIES / seconds,
            loadBefore, load());
      }
      assertEquals(DELIVERIES, number(db, "select count(*) from effect_count where n = 1 and event_id like 'evt%'"));
    }
  }

  private static void receiveAll(WebhookRuntime node, String prefix, int n) throws Exception {
    ExecutorService clients = Executors.newFixedThreadPool(CLIENTS);
    try {
      List<Future<?>> done = new ArrayList<>();
      for (int c = 0; c < CLIENTS; c++) {
        int client = c;
        done.add(clients.submit(() -> {
          for (int i = client; i < n; i += CLIENTS) {
            InboundDelivery signed = SIGNER.delivery("testhook", prefix + "_" + i, "job.count", "{}");
            InboundDelivery toScope =
                InboundDelivery.post("/webhooks/testhook/acct_" + (i % SCOPES), signed.headers(), "{}");
            assertEquals(Receipt.Outcome.ACCEPTED, node.receive("testhook", toScope).outcome());
          }
          return null;
        }));
      }
      for (Future<?> f : done) {
        f.get();
      }
    } finally {
      clients.shutdownNow();
    }
  }

  private static double load() throws Exception {
    return Double.parseDouble(Files.readString(Path.of("/proc/loadavg")).split(" ")[0]);
  }

  /** One row per event on the event's shard (by scope), upserted: a count of 2 is an event processed twice. */
  public static final class ScopedCount {
    @OnEvent("job.count")
    void count(EventContext context, DSLContext tx) {
      tx.execute("insert into effect_count (scope, event_id, n) values (?, ?, 1)"
          + " on conflict (scope, event_id) do update set n = effect_count.n + 1",
          context.event().scope(), context.event().eventId());
    }
  }
}
