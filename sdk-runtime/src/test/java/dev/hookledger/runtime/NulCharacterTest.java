package dev.hookledger.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hookledger.DeliveryRejectedException;
import dev.hookledger.OnEvent;
import dev.hookledger.RejectionReason;
import dev.hookledger.Secrets;
import dev.hookledger.runtime.testing.Await;
import dev.hookledger.runtime.testing.LedgerRows;
import dev.hookledger.runtime.testing.TestDatabase;
import dev.hookledger.runtime.testing.TestHookAdapter;
import dev.hookledger.runtime.testing.TestHookSigner;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * PostgreSQL's {@code text} cannot hold U+0000. A NUL in a handler's failure message made the failure
 * unrecordable (no backoff, the cause replaced by "its node stopped" when the lease ran out); a NUL
 * in an event id failed its insert, so the delivery was answered 503, and redelivered, for ever.
 */
class NulCharacterTest {
  static final TestHookSigner SIGNER = new TestHookSigner("nul-secret");

  @Test
  void aFailureMessageWithANulIsStoredEscapedWithItsBackoff() {
    TestDatabase.Database db = TestDatabase.create();
    try (WebhookRuntime runtime = runtime(db)) {
      runtime.migrate();
      runtime.start();
      runtime.receive("testhook", SIGNER.delivery("testhook", "evt_nul_cause", "job.run", "{}"));

      Await.until("the failed attempt is recorded", () -> LedgerRows.event(db.dataSource(), "hookledger",
          "evt_nul_cause").map(r -> r.get("last_error") != null).orElse(false));
      Map<String, Object> row = LedgerRows.event(db.dataSource(), "hookledger", "evt_nul_cause").orElseThrow();
      assertEquals("pending", row.get("status"));
      assertEquals(1, row.get("attempts"));
      assertTrue(((String) row.get("last_error")).contains("IllegalStateException: invoice in_1\\u0000 is in EUR"),
          (String) row.get("last_error"));
      assertTrue(LedgerRows.number(db.dataSource(), "select extract(epoch from e.available_at - a.ended_at)"
          + " from hookledger.event e join hookledger.attempt a using (provider, scope, event_id)"
          + " where e.event_id = 'evt_nul_cause' and a.attempt = 1") > 5, "the backoff is kept");
    }
  }

  @Test
  void anEventIdOrOtherTextWithANulIsRefusedAsMalformedBeforeItIsQueued() {
    TestDatabase.Database db = TestDatabase.create();
    try (WebhookRuntime runtime = runtime(db)) {
      runtime.migrate();
      runtime.start();

      DeliveryRejectedException id = assertThrows(DeliveryRejectedException.class,
          () -> runtime.receive("testhook", SIGNER.delivery("testhook", "evt_\u0000nul", "job.run", "{}")));
      assertEquals(RejectionReason.MALFORMED, id.reason());
      assertEquals("event id holds a NUL character (U+0000), which the ledger cannot store", id.getMessage());
      DeliveryRejectedException type = assertThrows(DeliveryRejectedException.class,
          () -> runtime.receive("testhook", SIGNER.delivery("testhook", "evt_nul_type", "job.\u0000run", "{}")));
      assertEquals("type holds a NUL character (U+0000), which the ledger cannot store", type.getMessage());
      DeliveryRejectedException key = assertThrows(DeliveryRejectedException.class,
          () -> runtime.receive("testhook", SIGNER.delivery("testhook", "evt_nul_key", "job.run", "{}", "acct\u0000", 1)));
      assertEquals("entity key holds a NUL character (U+0000), which the ledger cannot store", key.getMessage());

      // the delivery after them, which shared nothing with them, is recorded
      assertEquals(Receipt.Outcome.ACCEPTED, runtime.receive("testhook",
          SIGNER.delivery("testhook", "evt_after_nul", "other.type", "{}")).outcome());
    }
    assertEquals(0L, LedgerRows.number(db.dataSource(),
        "select count(*) from hookledger.event where event_id <> 'evt_after_nul'"));
  }

  private static WebhookRuntime runtime(TestDatabase.Database db) {
    return WebhookRuntime.builder()
        .dataSource(db.dataSource())
        .provider(new TestHookAdapter(), Secrets.of("nul-secret"))
        .handlers(new Failing())
        .build();
  }

  static final class Failing {
    @OnEvent("job.run")
    void run() {
      throw new IllegalStateException("invoice in_1\u0000 is in EUR");
    }
  }
}
