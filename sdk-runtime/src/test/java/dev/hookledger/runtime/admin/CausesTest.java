package dev.hookledger.runtime.admin;

import static dev.hookledger.runtime.admin.LedgerFixture.NOW;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Failing and dead events grouped by root cause, as an incident review reads them; settled ones never. */
class CausesTest {
  private static final String MISSING_TABLE = "org.jooq.exception.DataAccessException: SQL [insert ...]\n"
      + "\tat org.jooq.impl.Tools.translate(Tools.java:1)\n"
      + "Caused by: org.postgresql.util.PSQLException: ERROR: relation \"sample.balance\" does not exist\n"
      + "\tat org.postgresql.core.v3.QueryExecutorImpl.receiveErrorResponse(QueryExecutorImpl.java:2)\n";
  private static final String NOT_FOUND = "java.lang.IllegalStateException: order 7 not found\n"
      + "\tat com.acme.Orders.paid(Orders.java:3)\n";

  private final LedgerFixture ledger = new LedgerFixture();

  @Test
  void groupsFailingAndDeadEventsByRootCauseMostFirst() {
    for (int i = 0; i < 3; i++) {
      failing("evt_table_" + i, MISSING_TABLE);
    }
    ledger.row("stripe", "evt_table_dead").status("dead").attempts(5).lastError(MISSING_TABLE).insert();
    failing("evt_order", NOT_FOUND);
    // settled, and a retried dead event not yet failing again: no cause of anything now
    ledger.row("stripe", "evt_done").status("done").attempts(2).lastError(NOT_FOUND).settledAt(NOW).insert();
    ledger.row("stripe", "evt_retried").status("pending").attempts(0).lastError(NOT_FOUND).insert();

    List<CauseCount> causes = ledger.admin().causes();

    assertEquals(List.of(
        new CauseCount("PSQLException: ERROR: relation \"sample.balance\" does not exist", 3, 1),
        new CauseCount("IllegalStateException: order 7 not found", 1, 0)), causes);
    assertEquals(4, causes.get(0).events());
  }

  private void failing(String id, String error) {
    ledger.row("stripe", id).status("pending").attempts(1).lastError(error)
        .availableAt(NOW.plus(Duration.ofMinutes(5))).insert();
  }
}
