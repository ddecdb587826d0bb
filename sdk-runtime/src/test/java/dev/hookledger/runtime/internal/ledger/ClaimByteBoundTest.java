package dev.hookledger.runtime.internal.ledger;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.hookledger.WebhookEvent;
import dev.hookledger.runtime.EventSource;
import dev.hookledger.runtime.testing.LedgerRows;
import dev.hookledger.runtime.testing.TestDatabase;
import java.time.Duration;
import java.util.Arrays;
import org.jooq.DSLContext;
import org.junit.jupiter.api.Test;

/** A claim holds its events' bodies in memory until they are processed, so it is bounded by bytes as well as rows. */
class ClaimByteBoundTest {
  static final int MIB = 1 << 20;

  @Test
  void aClaimTakesNoMoreEventsThanItsBytesAllowAndAlwaysAtLeastOne() {
    TestDatabase.Database db = TestDatabase.create();
    DSLContext dsl = LedgerDsl.on(db.dataSource());
    SchemaMigrator.migrate(dsl, "hookledger");
    EventTable events = new EventTable("hookledger");
    Ledger ledger = new Ledger(dsl, events, GroupCommit.direct(db.dataSource(), events));
    for (int i = 0; i < 5; i++) {
      ledger.record(NewRow.waiting(event("evt_" + i, MIB), EventSource.DELIVERY));
    }
    LeaseClaimer claimer = new LeaseClaimer(dsl, events);

    LeaseClaimer.Claimed two = claimer.claim("node-a", Duration.ofSeconds(30), 16, 12, 2 * MIB + MIB / 2);
    LeaseClaimer.Claimed one = claimer.claim("node-a", Duration.ofSeconds(30), 16, 12, MIB / 2);
    LeaseClaimer.Claimed rest = claimer.claim("node-a", Duration.ofSeconds(30), 16, 12, 100L * MIB);

    assertEquals(2, two.leases().size(), "two bodies of 1 MiB fit in 2.5 MiB");
    assertEquals(1, one.leases().size(), "one event even when its body alone is over the bound");
    assertEquals(2, rest.leases().size());
    assertEquals(5, LedgerRows.number(db.dataSource(), "select count(*) from hookledger.event where status = 'processing'"));
  }

  private static WebhookEvent event(String id, int bytes) {
    byte[] body = new byte[bytes];
    Arrays.fill(body, (byte) ' ');
    body[0] = '{';
    body[bytes - 1] = '}';
    return WebhookEvent.builder().provider("testhook").eventId(id).type("thing.happened").body(body).build();
  }

}
