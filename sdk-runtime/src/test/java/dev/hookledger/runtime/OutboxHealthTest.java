package dev.hookledger.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.hookledger.Secrets;
import dev.hookledger.runtime.testing.TestDatabase;
import dev.hookledger.runtime.testing.TestHookAdapter;
import java.time.Duration;
import org.jooq.DSLContext;
import org.jooq.SQLDialect;
import org.jooq.impl.DSL;
import org.junit.jupiter.api.Test;

/** A node whose outbox does not send (a breaker open, effects dead) is degraded, not down, and says why. */
class OutboxHealthTest {
  private static final String SECRET = "whsec_outbox_health_0123456789abcdef";

  @Test
  void anOpenBreakerOrDeadEffectsMakeTheNodeDegradedNamingBoth() {
    TestDatabase.Database db = TestDatabase.create();
    try (WebhookRuntime runtime = WebhookRuntime.builder().jdbcUrl(db.jdbcUrl())
        .provider(new TestHookAdapter(), Secrets.of(SECRET)).handlers(new Object() {
          @dev.hookledger.OnEvent("order.paid")
          void paid() {}
        }).inbox(i -> i.workers(0)).build()) {
      runtime.migrate();
      runtime.start();
      assertEquals(Health.Status.UP, runtime.health().status(), runtime.health().reason().orElse(""));
      DSLContext sql = DSL.using(db.dataSource(), SQLDialect.POSTGRES);

      sql.execute("INSERT INTO hookledger.destination_state (destination, breaker, consecutive_failures, opened_at)"
          + " VALUES ('receipts', 'open', 10, now())");
      Health open = runtime.health();
      assertEquals(Health.Status.DEGRADED, open.status());
      assertEquals("the breaker of 1 destination is open: its effects wait", open.reason().orElseThrow());
      assertEquals("breaker open", open.summary().orElseThrow());

      sql.execute("INSERT INTO hookledger.effect (scope, idempotency_key, provider, event_id, handler, name, kind,"
          + " destination, status, attempts) VALUES ('', gen_random_uuid(), 'testhook', 'e1', 'h', '1', 'http',"
          + " 'receipts', 'dead', 16)");
      Health both = runtime.health();
      assertEquals(2 + 0, both.deadEffects() + both.openBreakers());
      assertEquals("1 effect dead, waiting for an operator; the breaker of 1 destination is open: its effects wait",
          both.reason().orElseThrow());
      assertEquals("effects dead, breaker open", both.summary().orElseThrow());
      assertEquals(Health.Status.UP, new Health(true, true, 0, 0, true, true, 0, 0, 0, Duration.ZERO, 0, "").status());
    }
  }
}
