package dev.hookledger.runtime.internal.ledger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import dev.hookledger.runtime.admin.LedgerFixture;
import dev.hookledger.runtime.testing.Await;
import dev.hookledger.runtime.testing.LedgerRole;
import dev.hookledger.runtime.testing.TestDatabase;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.Optional;
import org.jooq.DSLContext;
import org.jooq.SQLDialect;
import org.jooq.impl.DSL;
import org.junit.jupiter.api.Test;

/**
 * The roll-up never closes past the start of the oldest open transaction in its database, so a
 * session left open holds back what {@code status} and the chart count from the ledger's kept counts:
 * the pass says which session it is (process id, application, state), and says nothing once it ends.
 */
class RollUpHeldBackTest {
  private final LedgerFixture ledger = new LedgerFixture();
  /** Named past one second behind, where the runtime waits five minutes. */
  private final MinuteRollUp rollUp = new MinuteRollUp(new EventTable("hookledger"), Duration.ofSeconds(1));

  @Test
  void aTransactionLeftOpenIsNamedUntilItEnds() throws Exception {
    assumeFalse(TestDatabase.citus(), "no roll-up on Citus");
    rollUp.pass(ledger.sql);
    assertEquals(Optional.empty(), rollUp.heldBack(ledger.sql), "a pass that keeps up");
    try (Connection open = ledger.database.dataSource().getConnection(); Statement s = open.createStatement()) {
      s.execute("set application_name = 'report-left-open'");
      open.setAutoCommit(false);
      int pid;
      try (ResultSet r = s.executeQuery("select pg_backend_pid()")) {
        r.next();
        pid = r.getInt(1);
      }
      Await.until("the bound held back past a second", Duration.ofSeconds(30), () -> {
        rollUp.pass(ledger.sql);
        return rollUp.heldBack(ledger.sql).isPresent();
      });
      String why = rollUp.heldBack(ledger.sql).orElseThrow();
      assertTrue(why.contains("pid " + pid + " (application 'report-left-open', idle in transaction, its transaction open "),
          why);
      assertTrue(why.startsWith("the roll-up of ledger schema 'hookledger' is "), why);
      open.commit();
    }
    rollUp.pass(ledger.sql);
    assertEquals(Optional.empty(), rollUp.heldBack(ledger.sql), "caught up once it ended");
  }

  /** A role that cannot see the other roles' sessions cannot name one: it says so, and what would let it. */
  @Test
  void aRoleThatCannotSeeEverySessionSaysWhoMayHoldIt() {
    assumeFalse(TestDatabase.citus(), "no roll-up on Citus");
    try (LedgerRole role = new LedgerRole(ledger.sql, ledger.database.jdbcUrl(), "hookledger")) {
      ledger.sql.fetch("select 1"); // one of the tests' superuser sessions is open beside it
      DSLContext db = DSL.using(role.dataSource(), SQLDialect.POSTGRES);
      rollUp.pass(db); // keeps the minute of grace: a minute behind
      String why = rollUp.heldBack(db).orElseThrow();
      assertTrue(why.contains(": it never counts past the start of the oldest transaction open in its database, and"
          + " this role sees none: another role's session may hold it (grant this role pg_read_all_stats to see it)"), why);
    }
  }

  @Test
  void aPassThatIsBehindWithNoTransactionToBlameSaysSo() {
    assumeFalse(TestDatabase.citus(), "no roll-up on Citus");
    // as after a downtime, before the first pass
    ledger.sql.execute("update hookledger.minute_roll_up set closed_before = now() - interval '3 hours'");
    String why = rollUp.heldBack(ledger.sql).orElseThrow();
    assertTrue(why.matches("the roll-up of ledger schema 'hookledger' is 1(79 min [0-9]+|80 min [0-9]) s behind: its pass has not closed"
        + " those times .*"), why);
  }
}
