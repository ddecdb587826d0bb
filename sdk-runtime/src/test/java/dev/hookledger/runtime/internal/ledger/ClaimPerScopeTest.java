package dev.hookledger.runtime.internal.ledger;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.hookledger.WebhookEvent;
import dev.hookledger.runtime.EventSource;
import dev.hookledger.runtime.testing.LedgerRows;
import dev.hookledger.runtime.testing.TestDatabase;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import org.jooq.DSLContext;
import org.junit.jupiter.api.Test;

/**
 * The claim of a ledger distributed by Citus goes scope by scope, each a router query on one shard.
 * Its semantics are the one-statement claim's: oldest first across scopes, at most the limit, rows
 * locked elsewhere skipped, expired leases taken over, exhausted events buried, bodies bounded.
 * Run here on plain PostgreSQL (said to be distributed), where rows can be locked and expired by
 * hand; CitusLedgerTest runs the inbox on Citus itself.
 */
class ClaimPerScopeTest {
  private static final Duration LEASE = Duration.ofSeconds(30);

  @Test
  void claimsTheOldestDueEventsAcrossScopesUpToTheLimitAndTheRestNext() {
    Fixture f = new Fixture();
    // received in this order: a1 b1 c1 a2 b2 c2
    for (int i = 1; i <= 2; i++) {
      for (String scope : List.of("a", "b", "c")) {
        f.record(scope, scope + i, 10);
      }
    }

    LeaseClaimer.Claimed first = f.claimer.claim("node-a", LEASE, 4, 12, Long.MAX_VALUE);
    LeaseClaimer.Claimed rest = f.claimer.claim("node-a", LEASE, 4, 12, Long.MAX_VALUE);

    // whole scopes, the one whose oldest event waited longest first: a scope's events stay together
    assertEquals(List.of("a1", "a2", "b1", "b2"), ids(first));
    assertEquals(List.of("c1", "c2"), ids(rest));
    assertEquals(6, f.count("status = 'processing' and attempts = 1 and lease_owner = 'node-a'"));
  }

  @Test
  void skipsARowAnotherTransactionHoldsAndTakesOverAnExpiredLeaseAndBuriesAnExhaustedEvent() throws Exception {
    Fixture f = new Fixture();
    f.record("a", "locked", 10);
    f.record("b", "expired", 10);
    f.record("c", "exhausted", 10);
    f.db.execute("update hookledger.event set status = 'processing', attempts = 1, lease_owner = 'dead-node',"
        + " lease_until = now() - interval '1 second', available_at = now() - interval '1 second'"
        + " where event_id = 'expired';"
        + " update hookledger.event set attempts = 12 where event_id = 'exhausted'");

    LeaseClaimer.Claimed claimed;
    try (Connection other = f.db.dataSource().getConnection(); Statement s = other.createStatement()) {
      other.setAutoCommit(false);
      // by its scope too: on Citus a row lock is taken only in a statement routed to one shard
      s.execute("select 1 from hookledger.event where scope = 'a' and event_id = 'locked' for update");
      claimed = f.claimer.claim("node-a", LEASE, 10, 12, Long.MAX_VALUE);
      other.rollback();
    }

    assertEquals(List.of("expired"), ids(claimed));
    assertEquals(2, claimed.leases().get(0).attempt());
    assertEquals(List.of("exhausted"), claimed.buried().stream().map(b -> b.event().eventId()).toList());
    assertEquals(1, f.count("event_id = 'locked' and status = 'pending' and attempts = 0"));
    assertEquals(1, f.count("event_id = 'expired' and lease_owner = 'node-a' and last_error like 'attempt 1 by dead-node"
        + " was abandoned%'"));
    assertEquals(1, f.count("event_id = 'exhausted' and status = 'dead'"));
  }

  @Test
  void takesNoMoreBodiesAcrossScopesThanTheBoundAllowsAndAlwaysAtLeastOne() {
    Fixture f = new Fixture();
    f.record("a", "a1", ClaimByteBoundTest.MIB);
    f.record("b", "b1", ClaimByteBoundTest.MIB);
    f.record("c", "c1", ClaimByteBoundTest.MIB);

    LeaseClaimer.Claimed two = f.claimer.claim("node-a", LEASE, 16, 12, 2 * ClaimByteBoundTest.MIB + 100);
    LeaseClaimer.Claimed one = f.claimer.claim("node-a", LEASE, 16, 12, 100);

    assertEquals(List.of("a1", "b1"), ids(two));
    assertEquals(List.of("c1"), ids(one));
  }

  @Test
  void renewsLeasesScopeByScope() {
    Fixture f = new Fixture();
    f.record("a", "a1", 10);
    f.record("b", "b1", 10);
    LeaseClaimer.Claimed claimed = f.claimer.claim("node-a", Duration.ofSeconds(5), 16, 12, Long.MAX_VALUE);

    int renewed = new LeaseRenewals(f.dsl, f.events, CitusLedger.known(true)).renew(claimed.leases(), Duration.ofHours(1));

    assertEquals(2, renewed);
    assertEquals(2, f.count("lease_until > now() + interval '50 minutes'"));
  }

  private static List<String> ids(LeaseClaimer.Claimed claimed) {
    return claimed.leases().stream().map(l -> l.key().eventId()).sorted().toList();
  }

  /** A migrated ledger and a claimer that takes it for distributed. */
  private static final class Fixture {
    final TestDatabase.Database db = TestDatabase.create();
    final DSLContext dsl = LedgerDsl.on(db.dataSource());
    final EventTable events = new EventTable("hookledger");
    final LeaseClaimer claimer;
    final Ledger ledger;

    Fixture() {
      SchemaMigrator.migrate(dsl, "hookledger");
      claimer = new LeaseClaimer(dsl, events, CitusLedger.known(true));
      ledger = new Ledger(dsl, events, GroupCommit.direct(db.dataSource(), events));
    }

    void record(String scope, String id, int bytes) {
      byte[] body = new byte[bytes];
      java.util.Arrays.fill(body, (byte) ' ');
      body[0] = '{';
      body[bytes - 1] = '}';
      ledger.record(NewRow.waiting(WebhookEvent.builder().provider("testhook").scope(scope).eventId(id)
          .type("thing.happened").body(body).build(), EventSource.DELIVERY));
    }

    long count(String where) {
      return LedgerRows.number(db.dataSource(), "select count(*) from hookledger.event where " + where);
    }
  }
}
