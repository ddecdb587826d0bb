package dev.hookledger.runtime.internal.ledger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hookledger.WebhookEvent;
import dev.hookledger.runtime.EventSource;
import dev.hookledger.runtime.EventStatus;
import dev.hookledger.runtime.testing.LedgerRows;
import dev.hookledger.runtime.testing.TestDatabase;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import javax.sql.DataSource;
import org.jooq.DSLContext;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The fenced settle and the COMMIT of a processing transaction travel in one round trip: the event
 * and the handler's effect are committed when the settle returns, and a settle whose lease was taken
 * over fails the transaction on the server, so that nothing of it is committed.
 */
class SettleAndCommitTest {
  private DataSource ds;
  private DSLContext dsl;
  private ProcessingRows rows;
  private LeaseClaimer claimer;

  @BeforeEach
  void ledger() {
    ds = TestDatabase.create().dataSource();
    dsl = LedgerDsl.on(ds);
    SchemaMigrator.migrate(dsl, "hookledger");
    dsl.execute("create table effect (id text primary key)");
    EventTable events = new EventTable("hookledger");
    new Ledger(dsl, events, GroupCommit.direct(ds, events)).record(NewRow.waiting(WebhookEvent.builder()
        .provider("testhook").eventId("evt_1").type("thing.happened").body("{}".getBytes(StandardCharsets.UTF_8))
        .build(), EventSource.DELIVERY));
    rows = new ProcessingRows(dsl, events, 12);
    claimer = new LeaseClaimer(dsl, events);
  }

  @Test
  void theSettleCommitsTheHandlersEffectInItsOwnRoundTrip() {
    Lease lease = claimer.claim("node-a", Duration.ofSeconds(30), 1, 12, Long.MAX_VALUE).leases().get(0);
    assertTrue(rows.commitsWithSettle(), "jOOQ's own transactions: the runtime may commit them");
    dsl.transaction(cfg -> {
      cfg.dsl().execute("insert into effect values ('evt_1')");
      assertTrue(rows.settleLeasedAndCommit(cfg.dsl(), lease, EventStatus.DONE, ProcessingRows.Applied.NONE));
      // seen from another connection before the transaction's callback has returned: committed
      assertEquals(1, LedgerRows.number(ds, "select count(*) from effect"));
      assertEquals(1, LedgerRows.number(ds, "select count(*) from hookledger.event where status = 'done'"));
    });
    assertEquals(1, LedgerRows.number(ds, "select count(*) from effect"));
  }

  @Test
  void aSettleWhoseLeaseWasTakenOverFailsTheTransactionAndCommitsNothing() {
    Lease lease = claimer.claim("node-a", Duration.ofSeconds(30), 1, 12, Long.MAX_VALUE).leases().get(0);
    // another node's lease, as after a takeover: same row, other owner
    dsl.execute("update hookledger.event set lease_owner = 'node-b', attempts = attempts + 1");
    IllegalStateException lost = assertThrows(IllegalStateException.class, () -> dsl.transaction(cfg -> {
      cfg.dsl().execute("insert into effect values ('evt_1')");
      assertFalse(rows.settleLeasedAndCommit(cfg.dsl(), lease, EventStatus.DONE, ProcessingRows.Applied.NONE));
      throw new IllegalStateException("lease lost");
    }));
    assertEquals("lease lost", lost.getMessage());
    assertEquals(0, LedgerRows.number(ds, "select count(*) from effect"));
    assertEquals(1, LedgerRows.number(ds,
        "select count(*) from hookledger.event where status = 'processing' and lease_owner = 'node-b'"));
  }

  @Test
  void theSettleRecordsTheHandlersThatRanAndCommitsThemWithTheEvent() {
    Lease lease = claimer.claim("node-a", Duration.ofSeconds(30), 1, 12, Long.MAX_VALUE).leases().get(0);
    dsl.transaction(cfg -> assertTrue(rows.settleLeasedAndCommit(cfg.dsl(), lease, EventStatus.DONE,
        new ProcessingRows.Applied(List.of("b", "a"), true))));
    assertEquals(2, LedgerRows.number(ds, "select count(*) from hookledger.handler_applied where event_id = 'evt_1'"));
  }

  @Test
  void aFirstSettleThatFindsAHandlerAppliedAlreadyFailsAndCommitsNothing() {
    Lease lease = claimer.claim("node-a", Duration.ofSeconds(30), 1, 12, Long.MAX_VALUE).leases().get(0);
    dsl.execute("insert into hookledger.handler_applied (provider, scope, event_id, handler)"
        + " values ('testhook', '', 'evt_1', 'a')");
    assertThrows(IllegalStateException.class, () -> dsl.transaction(cfg -> {
      cfg.dsl().execute("insert into effect values ('evt_1')");
      assertFalse(rows.settleLeasedAndCommit(cfg.dsl(), lease, EventStatus.DONE,
          new ProcessingRows.Applied(List.of("a", "b"), true)));
      throw new IllegalStateException("applied already");
    }));
    assertEquals(0, LedgerRows.number(ds, "select count(*) from effect"));
    assertEquals(1, LedgerRows.number(ds, "select count(*) from hookledger.handler_applied"), "b not recorded");
    assertEquals(1, LedgerRows.number(ds, "select count(*) from hookledger.event where status = 'processing'"));
    // a later attempt, which read the record first, records what it ran beside what was there
    dsl.transaction(cfg -> assertTrue(rows.settleLeased(cfg.dsl(), lease, EventStatus.DONE,
        new ProcessingRows.Applied(List.of("a", "b"), false))));
    assertEquals(2, LedgerRows.number(ds, "select count(*) from hookledger.handler_applied"));
    assertEquals(1, LedgerRows.number(ds, "select count(*) from hookledger.event where status = 'done'"));
  }
}
