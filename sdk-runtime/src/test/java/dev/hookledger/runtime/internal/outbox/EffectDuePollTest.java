package dev.hookledger.runtime.internal.outbox;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import dev.hookledger.runtime.admin.LedgerFixture;
import dev.hookledger.runtime.internal.ledger.CitusLedger;
import dev.hookledger.runtime.internal.ledger.EventTable;
import dev.hookledger.runtime.testing.TestDatabase;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The sender's poll for destinations with due effects ({@link EffectClaimer#dueDestinations}): which
 * destinations it names and in what order, and, after a bulk retry has made thousands of effects of
 * one destination due, that its plan reads a few index entries per destination, not the due effects.
 */
class EffectDuePollTest {
  private static final Pattern ACTUAL_ROWS = Pattern.compile("actual time=[0-9.]+\\.\\.[0-9.]+ rows=(\\d+) loops=(\\d+)");

  private final LedgerFixture ledger = new LedgerFixture();
  private final EffectClaimer claimer = new EffectClaimer(ledger.sql, "hookledger",
      new CitusLedger(ledger.sql, new EventTable("hookledger")));

  @Test
  void namesEachDestinationWithADueEffectOnceTheOneDueLongestFirst() {
    insert("crm", "pending", "now() - interval '10 minutes'", 2);
    insert("receipts", "pending", "now() - interval '5 minutes'", 3);
    insert("receipts", "pending", "now() + interval '1 hour'", 1);
    // a lease that ran out is due again, at its end
    insert("ledger-sync", "sending", "now() - interval '7 minutes'", 1);
    insert("mail", "pending", "now() + interval '1 hour'", 2); // waiting, not due
    insert("mail", "sending", "now() + interval '1 minute'", 1); // a live lease
    insert("archive", "done", "now() - interval '1 day'", 2); // sent long ago
    insert("archive", "dead", "now() - interval '1 day'", 1);

    assertEquals(List.of("crm", "ledger-sync", "receipts"), claimer.dueDestinations(64));
    assertEquals(List.of("crm", "ledger-sync"), claimer.dueDestinations(2));
  }

  @Test
  void aDestinationWithNothingDueIsNotNamedWhateverItsBacklog() {
    insert("mail", "pending", "now() + interval '1 hour'", 50);

    assertEquals(List.of(), claimer.dueDestinations(64));
  }

  @Test
  void readsAFewIndexEntriesPerDestinationWhateverTheBacklogAfterABulkRetry() {
    assumeFalse(TestDatabase.citus(), "on Citus the poll groups the due effects on each shard: a recursive query"
        + " cannot read a distributed table");
    int retried = 20_000;
    insert("receipts", "pending", "now() - interval '1 hour'", retried); // a bulk retry of the dead
    insert("crm", "pending", "now() - interval '2 hours'", 1);
    insert("mail", "sending", "now() + interval '1 minute'", 3);
    insert("receipts", "done", "now() - interval '1 day'", 5_000);
    ledger.sql.execute("analyze hookledger.effect");

    String sql = EffectClaimer.dueDestinationsSql("hookledger.effect").replace("limit ?", "limit 64");
    List<String> plan = ledger.sql.fetch("explain (analyze, costs off) " + sql).getValues(0, String.class);

    String text = String.join("\n", plan);
    assertFalse(text.contains("Seq Scan"), "scans the effect table:\n" + text);
    assertFalse(text.contains("Bitmap"), "reads the matching rows into a bitmap:\n" + text);
    long read = 0;
    for (String line : plan) {
      Matcher m = ACTUAL_ROWS.matcher(line);
      if (m.find() && line.contains("Index")) {
        read += Long.parseLong(m.group(1)) * Long.parseLong(m.group(2));
      }
    }
    // three destinations wait: the walk's probes and two first-due probes each
    assertTrue(read <= 20, read + " rows read through indexes for " + retried + " due effects:\n" + text);
    assertEquals(List.of("crm", "receipts"), claimer.dueDestinations(64));
  }

  /** {@code n} effects to {@code destination}, each its own key, with that status and due time. */
  private void insert(String destination, String status, String availableAt, int n) {
    ledger.sql.execute("insert into hookledger.effect (scope, idempotency_key, provider, event_id, handler, name,"
        + " kind, destination, method, url, status, attempts, available_at)"
        + " select '', gen_random_uuid(), 'stripe', 'evt_' || gen_random_uuid(), 'Billing.paid', 'receipt', 'http', '"
        + destination + "', 'POST', '/receipts', '" + status + "', 1, " + availableAt
        + " from generate_series(1, " + n + ") i");
  }
}
