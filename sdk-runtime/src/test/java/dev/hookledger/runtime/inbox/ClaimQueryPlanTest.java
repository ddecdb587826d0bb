package dev.hookledger.runtime.inbox;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hookledger.runtime.internal.ledger.EventTable;
import dev.hookledger.runtime.internal.ledger.LeaseClaimer;
import dev.hookledger.runtime.testing.TestDatabase;
import org.jooq.DSLContext;
import org.jooq.SQLDialect;
import org.jooq.impl.DSL;
import org.junit.jupiter.api.Test;

/** A claim's cost follows the backlog, not the history: its select reads the partial index of waiting rows. */
class ClaimQueryPlanTest {

  @Test
  void claimReadsThePartialIndexOfWaitingRowsAmongManySettledOnes() {
    TestDatabase.Database db = InboxFixture.database();
    db.execute("insert into hookledger.event (provider, event_id, type, body, status, settled_at)"
        + " select 'testhook', 'evt_done_' || i, 'job.count', '\\x7b7d', 'done', now() from generate_series(1, 20000) i;"
        + " insert into hookledger.event (provider, event_id, type, body)"
        + " select 'testhook', 'evt_waiting_' || i, 'job.count', '\\x7b7d' from generate_series(1, 50) i;"
        + " analyze hookledger.event");
    DSLContext dsl = DSL.using(db.dataSource(), SQLDialect.POSTGRES);
    LeaseClaimer claimer = new LeaseClaimer(dsl, new EventTable("hookledger"));

    String plan = dsl.explain(claimer.dueRows(dsl, 16)).plan();

    assertTrue(plan.contains("Index Scan using event_waiting_idx on event"), plan);
    assertTrue(plan.contains("LockRows"), plan);
  }
}
