package dev.hookledger.runtime.admin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hookledger.runtime.EffectStatus;
import dev.hookledger.runtime.testing.StatementRecorder;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The operator's list of effects ({@code list --effects}, the page's list, {@code effects.json}),
 * newest enqueued first, with each filter, never reads the effect table whole: each statement it
 * sends is EXPLAINed, with its own bind values, over an outbox whose history (effects sent)
 * outnumbers everything else, and no plan may scan the table or sort it. Plans, not timings, as
 * {@link OperatorReadPlansTest} does for events.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class EffectListPlansTest {
  private static final int HISTORY = 40_000;

  private final LedgerFixture ledger = new LedgerFixture();
  private final StatementRecorder recorder = new StatementRecorder(ledger.database.dataSource());
  // the plans are asserted, not the speed: a loaded machine can take longer than the 2 s default deadline
  private final OutboxAdmin outbox = InboxAdmin.builder(recorder.dataSource()).readTimeout(Duration.ofSeconds(30))
      .build().outbox();

  @BeforeAll
  void history() {
    ledger.sql.execute("insert into hookledger.effect (scope, idempotency_key, provider, event_id, handler, name,"
        + " kind, destination, method, url, status, attempts, created_at, settled_at)"
        + " select '', gen_random_uuid(), 'stripe', 'evt_' || i, 'Billing.paid', 'receipt', 'http',"
        + " case when i % 10 = 0 then 'crm' else 'receipts' end, 'POST', '/receipts',"
        + " case when i % 1000 = 0 then 'dead' else 'done' end, 1,"
        + " now() - i * interval '1 minute', now() - i * interval '1 minute' + interval '1 second'"
        + " from generate_series(1, " + HISTORY + ") i");
    ledger.sql.execute("update hookledger.effect set last_error = 'HTTP 503 from https://crm.example.com'"
        + " where status = 'dead'");
    ledger.sql.execute("insert into hookledger.effect (scope, idempotency_key, provider, event_id, handler, name,"
        + " kind, destination, method, url, status, attempts)"
        + " select '', gen_random_uuid(), 'stripe', 'evt_new_' || i, 'Billing.paid', 'receipt', 'http', 'receipts',"
        + " 'POST', '/receipts', case when i = 1 then 'sending' else 'pending' end, 0"
        + " from generate_series(1, 3) i");
    ledger.sql.execute("analyze hookledger.effect");
    recorder.drain();
  }

  @Test
  void listWithAnyFilterReadsAnIndexInCreationOrderAndStopsAtItsPage() {
    List<EffectQuery> queries = List.of(
        EffectQuery.all(),
        EffectQuery.all().destination("crm"),
        EffectQuery.all().destination("receipts"),
        EffectQuery.all().status(EffectStatus.DONE),
        EffectQuery.all().status(EffectStatus.DEAD),
        EffectQuery.all().status(EffectStatus.PENDING),
        EffectQuery.all().status(EffectStatus.SENDING),
        EffectQuery.all().destination("crm").status(EffectStatus.DONE),
        EffectQuery.all().destination("receipts").status(EffectStatus.PENDING));
    for (EffectQuery q : queries) {
      recorder.drain();
      List<EffectSummary> page = outbox.list(q.limit(20));
      assertFalse(page.isEmpty(), "effects for " + q);
      for (int i = 1; i < page.size(); i++) {
        assertFalse(page.get(i).createdAt().isAfter(page.get(i - 1).createdAt()), "newest first: " + page);
      }
      List<String> statements = recorder.drain().stream().filter(sql -> sql.contains("\"effect\"")).toList();
      assertEquals(1, statements.size(), statements.toString());
      // waiting effects are the backlog, read through their partial index and sorted; any other
      // selection is read in creation order from an index, newest first, up to the page
      boolean backlog = q.status().filter(s -> s == EffectStatus.PENDING || s == EffectStatus.SENDING).isPresent();
      for (String sql : statements) {
        String plan = String.join("\n", ledger.sql.fetch("explain " + sql).getValues(0, String.class));
        assertFalse(plan.contains("Seq Scan on effect"), "scans the effect table:\n" + sql + "\n" + plan);
        assertTrue(backlog || !plan.contains("Sort"), "sorts the effects it read:\n" + sql + "\n" + plan);
      }
    }
  }

  @Test
  void theDeadOfADestinationAreFoundByTheirCause() {
    recorder.drain();
    assertEquals(HISTORY / 1000, outbox.list(EffectQuery.all().status(EffectStatus.DEAD)
        .cause("HTTP 503 from https://crm.example.com").limit(500)).size());
    for (String sql : recorder.drain()) {
      String plan = String.join("\n", ledger.sql.fetch("explain " + sql).getValues(0, String.class));
      assertTrue(!plan.contains("Seq Scan on effect"), "scans the effect table:\n" + sql + "\n" + plan);
    }
  }
}
