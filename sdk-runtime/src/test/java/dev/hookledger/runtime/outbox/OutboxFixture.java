package dev.hookledger.runtime.outbox;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.hookledger.EffectDelivery;
import dev.hookledger.HttpEffect;
import dev.hookledger.OnEvent;
import dev.hookledger.Outbox;
import dev.hookledger.Secrets;
import dev.hookledger.WebhookEvent;
import dev.hookledger.runtime.Destination;
import dev.hookledger.runtime.EffectStatus;
import dev.hookledger.runtime.Receipt;
import dev.hookledger.runtime.RetryPolicy;
import dev.hookledger.runtime.WebhookListener;
import dev.hookledger.runtime.WebhookRuntime;
import dev.hookledger.runtime.WebhookRuntimeBuilder;
import dev.hookledger.runtime.internal.ledger.LedgerDsl;
import dev.hookledger.runtime.internal.ledger.SchemaMigrator;
import dev.hookledger.runtime.testing.Await;
import dev.hookledger.runtime.testing.LedgerRows;
import dev.hookledger.runtime.testing.TestDatabase;
import dev.hookledger.runtime.testing.TestHookAdapter;
import dev.hookledger.runtime.testing.TestHookSigner;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.jooq.SQLDialect;
import org.jooq.impl.DSL;

/** The ledger, runtimes, handlers and reads of the outbox tests. */
final class OutboxFixture {
  static final String SECRET = "outbox-secret";
  static final TestHookSigner SIGNER = new TestHookSigner(SECRET);

  private OutboxFixture() {}

  static TestDatabase.Database database() {
    TestDatabase.Database db = TestDatabase.create();
    SchemaMigrator.migrate(LedgerDsl.on(db.dataSource()), "hookledger");
    return db;
  }

  /**
   * A runtime on {@code jdbcUrl} polling every 100 ms, its events retried after 50 ms, with the
   * destination {@code receipts} at {@code receipts} (fast retries: 50 ms, ×2, capped at 400 ms).
   */
  static WebhookRuntimeBuilder builder(String jdbcUrl, URI receipts, Object... handlers) {
    return WebhookRuntime.builder()
        .jdbcUrl(jdbcUrl)
        .provider(new TestHookAdapter(), Secrets.of(SECRET))
        .handlers(handlers)
        .inbox(i -> i.workers(2)
            .pollInterval(Duration.ofMillis(100))
            .shutdownTimeout(Duration.ofSeconds(10))
            .retryPolicy(RetryPolicy.builder().firstDelay(Duration.ofMillis(50)).jitter(0).build()))
        .outbox(o -> o.pollInterval(Duration.ofMillis(100)))
        .destination(receipts(receipts));
  }

  static Destination receipts(URI url) {
    return Destination.named("receipts").url(url).timeout(Duration.ofSeconds(30))
        .retry(RetryPolicy.builder().firstDelay(Duration.ofMillis(50)).maxDelay(Duration.ofMillis(400)).jitter(0)
            .maxAttempts(8).build());
  }

  static void receive(WebhookRuntime runtime, String id) {
    receive(runtime, id, "invoice.paid", "{\"id\":\"" + id + "\"}");
  }

  /**
   * Receives a delivery, which must be accepted. On Citus one refused as unavailable is sent again, as
   * a provider redelivers a 503: there, on a loaded machine, a runtime just started can still be opening
   * its pool's connections (each a coordinator session that opens its own to the workers), and a
   * receive waited past the pool's 3 s for one. On plain PostgreSQL the first must be accepted.
   */
  static void receive(WebhookRuntime runtime, String id, String type, String body) {
    Supplier<Receipt> delivery = () -> runtime.receive("testhook", SIGNER.delivery("testhook", id, type, body));
    Receipt receipt = TestDatabase.citus() ? Await.read("delivery " + id, delivery) : delivery.get();
    assertEquals(Receipt.Outcome.ACCEPTED, receipt.outcome());
  }

  /** Every effect row, oldest first, as column maps. */
  static List<Map<String, Object>> effects(TestDatabase.Database db) {
    return DSL.using(db.dataSource(), SQLDialect.POSTGRES).fetch("select * from hookledger.effect order by seq").intoMaps();
  }

  static List<Map<String, Object>> attempts(TestDatabase.Database db) {
    return DSL.using(db.dataSource(), SQLDialect.POSTGRES).fetch("select * from hookledger.effect_attempt order by ended_at, attempt")
        .intoMaps();
  }

  static long number(TestDatabase.Database db, String sql, Object... args) {
    return LedgerRows.number(db.dataSource(), sql, args);
  }

  /** Waits until {@code n} effects are {@code status}. */
  static void awaitEffects(TestDatabase.Database db, long n, String status) {
    Await.until(n + " effects " + status, Duration.ofSeconds(30),
        () -> number(db, "select count(*) from hookledger.effect where status = ?", status) == n);
  }

  /** Sends one receipt per {@code invoice.paid} event, then fails the first {@code failures} calls. */
  public static final class Receipts {
    final AtomicInteger calls = new AtomicInteger();
    final List<String> keys = new CopyOnWriteArrayList<>();
    private final int failures;

    Receipts(int failures) {
      this.failures = failures;
    }

    @OnEvent("invoice.paid")
    public void paid(WebhookEvent event, Outbox outbox) {
      keys.add(outbox.send(HttpEffect.to("receipts", "/receipts")
          .json("{\"event\":\"" + event.eventId() + "\"}")
          .build()));
      if (calls.incrementAndGet() <= failures) {
        throw new IllegalStateException("failed after its send");
      }
    }
  }

  /** Records what the runtime tells of effects and breakers. */
  static final class Recorder implements WebhookListener {
    final List<String> breaker = new CopyOnWriteArrayList<>();
    final Map<EffectStatus, AtomicInteger> attempts = new ConcurrentHashMap<>();
    final List<Throwable> afterCommit = new CopyOnWriteArrayList<>();

    @Override
    public void effectAttempted(String destination, EffectStatus status, int attempt, Duration elapsed,
        Instant nextAttemptAt) {
      attempts.computeIfAbsent(status, s -> new AtomicInteger()).incrementAndGet();
    }

    @Override
    public void breakerChanged(String destination, boolean open) {
      breaker.add(destination + (open ? " opened" : " closed"));
    }

    @Override
    public void afterCommitFailed(WebhookEvent event, Throwable error) {
      afterCommit.add(error);
    }

    int attempts(EffectStatus status) {
      AtomicInteger n = attempts.get(status);
      return n == null ? 0 : n.get();
    }
  }

  /** The delivery an {@code EffectHandler} was given, copied. */
  record Delivered(Object effect, String key, int attempt, String destination, String name, String handler,
      String provider, String scope, String eventId) {
    static Delivered of(Object effect, EffectDelivery d) {
      return new Delivered(effect, d.idempotencyKey(), d.attempt(), d.destination(), d.effectName(), d.handler(),
          d.provider(), d.scope(), d.eventId());
    }
  }
}
