package dev.hookledger.runtime.internal.ledger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hookledger.runtime.EventStatus;
import dev.hookledger.runtime.testing.LedgerRows;
import dev.hookledger.runtime.testing.StatementRecorder;
import dev.hookledger.runtime.testing.TestDatabase;
import java.time.Duration;
import java.util.List;
import javax.sql.DataSource;
import org.jooq.DSLContext;
import org.junit.jupiter.api.Test;

/**
 * Every statement fenced by a lease finds its row by the key, never by reading the partial index of
 * waiting rows: on a ledger whose statistics were taken while few rows waited (any ledger analysed
 * while idle, a long history's above all), a fence that also tested {@code status = 'processing'} was
 * planned on {@code event_waiting_idx} with the key as a filter, so that each settle read every
 * waiting row: 883 buffer touches and 5.4 ms per settle behind a backlog on a 10-million-event ledger,
 * where its key costs 43 and 0.6 ms. The plans are read with the statements as the runtime sent them.
 */
class FencedStatementPlanTest {

  @Test
  void settleRescheduleRenewalCheckAndReleaseFindTheRowByItsKeyNotByTheWaitingIndex() {
    // a history analysed while nothing waited (an idle ledger's statistics), then a few waiting rows
    DataSource ds = ledgerAnalysedIdleThen("insert into hookledger.event (provider, event_id, type, body)"
        + " select 'testhook', 'evt_waiting_' || i, 'job.count', '\\x7b7d' from generate_series(1, 20) i");
    DSLContext dsl = LedgerDsl.on(ds);
    EventTable events = new EventTable("hookledger");
    StatementRecorder recorder = new StatementRecorder(ds);
    DSLContext recorded = LedgerDsl.on(recorder.dataSource());
    LeaseClaimer claimer = new LeaseClaimer(dsl, events);
    ProcessingRows rows = new ProcessingRows(recorded, events, 12);

    Lease lease = claimer.claim("node-a", Duration.ofSeconds(30), 1, 12, Long.MAX_VALUE).leases().get(0);
    recorder.drain();
    // the settle's plan is what is looked at here, not its effect: rolled back, the lease still held
    assertThrows(RolledBack.class, () -> recorded.transaction(cfg -> {
      assertTrue(rows.holds(cfg.dsl(), lease, true));
      assertTrue(rows.settleLeased(cfg.dsl(), lease, EventStatus.DONE, new ProcessingRows.Applied(List.of("h"), true)));
      throw new RolledBack();
    }));
    assertEquals(1, new LeaseRenewals(recorded, events).renew(List.of(lease), Duration.ofSeconds(60)));
    assertTrue(rows.reschedule(lease, Duration.ZERO, new ProcessingRows.Failure("boom", "test", Duration.ZERO))
        .isPresent());
    Lease again = claimer.claim("node-a", Duration.ofSeconds(30), 1, 12, Long.MAX_VALUE).leases().get(0);
    assertEquals(1, new LeaseClaimer(recorded, events).release(List.of(again)));

    List<String> fenced = recorder.drain().stream().filter(sql -> sql.contains("lease_owner\" =")).toList();
    assertTrue(fenced.size() >= 5, "settle, check, renewal, reschedule and release recorded: " + fenced);
    StatementRecorder.assertEachFindsTheRowByItsKey(dsl, fenced, "event_waiting_idx");
    assertEquals(1, LedgerRows.number(ds, "select count(*) from hookledger.event where status = 'pending'"
        + " and event_id = '" + again.key().eventId() + "' and lease_owner is null"));
  }

  /**
   * The same for taking back a shadow row: in SHADOW mode every delivery is recorded {@code ignored},
   * so a ledger analysed before the switch has a tiny {@code event_ignored_idx} by its statistics and a
   * large one in fact; a delete that also tested {@code status = 'ignored'} read every shadow row.
   */
  @Test
  void aShadowRowIsTakenBackByItsKeyNotByTheIgnoredIndex() {
    DataSource ds = ledgerAnalysedIdleThen(
        "insert into hookledger.event (provider, event_id, type, body, status, source, attempts, settled_at)"
        + " select 'testhook', 'evt_shadow_' || i, 'job.count', '\\x7b7d', 'ignored', 'shadow', 0, now()"
        + " from generate_series(1, 20) i");
    DSLContext dsl = LedgerDsl.on(ds);
    StatementRecorder recorder = new StatementRecorder(ds);
    ShadowRows shadow = new ShadowRows(LedgerDsl.on(recorder.dataSource()), new EventTable("hookledger"));

    assertTrue(shadow.forget(new EventKey("testhook", "", "evt_shadow_3")));
    assertFalse(shadow.forget(new EventKey("testhook", "", "evt_done_3")), "a row not recorded by the shadow pass stays");

    assertEquals(0, LedgerRows.number(ds, "select count(*) from hookledger.event where event_id = 'evt_shadow_3'"));
    assertEquals(1, LedgerRows.number(ds, "select count(*) from hookledger.event where event_id = 'evt_done_3'"));
    List<String> keyed = recorder.drain().stream().filter(sql -> sql.contains("\"event_id\" =")).toList();
    assertTrue(keyed.size() >= 2, "both statements recorded: " + keyed);
    StatementRecorder.assertEachFindsTheRowByItsKey(dsl, keyed, "event_ignored_idx", "event_settled_idx");
  }

  /** A new ledger with 20,000 settled rows analysed (an idle ledger's statistics), then {@code rows} run. */
  private static DataSource ledgerAnalysedIdleThen(String rows) {
    DataSource ds = TestDatabase.create().dataSource();
    DSLContext dsl = LedgerDsl.on(ds);
    SchemaMigrator.migrate(dsl, "hookledger");
    dsl.execute("insert into hookledger.event (provider, event_id, type, body, status, settled_at)"
        + " select 'testhook', 'evt_done_' || i, 'job.count', '\\x7b7d', 'done', now() from generate_series(1, 20000) i;"
        + " analyze hookledger.event; " + rows);
    return ds;
  }

  private static final class RolledBack extends RuntimeException {}
}
