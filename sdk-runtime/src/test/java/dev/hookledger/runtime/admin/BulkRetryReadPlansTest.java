package dev.hookledger.runtime.admin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hookledger.runtime.EventStatus;
import dev.hookledger.runtime.internal.ledger.EventTable;
import dev.hookledger.runtime.internal.ledger.MinuteRollUp;
import dev.hookledger.runtime.testing.StatementRecorder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.jooq.SQLDialect;
import org.jooq.impl.DSL;
import org.junit.jupiter.api.Test;

/**
 * The operator's reads after a bulk retry of many dead events ({@code retry --dead --confirm N}):
 * the retry leaves N waiting rows, due, none failing, and no read may go through all of them. Each
 * statement {@code status}, the health backlog and the admin page's first view send is EXPLAINed
 * with its own bind values, and the index entries (or table rows) its plan reads are held to
 * {@value InboxStatus#COUNTED} + 1, a bound that does not grow with N. Plans, not timings. The counts
 * are checked against the rows at each step: the retry, claims, failures, settles and a prune.
 */
class BulkRetryReadPlansTest {
  private static final int RETRIED = 3 * InboxStatus.COUNTED;
  private static final int BOUND = InboxStatus.COUNTED + 1;
  /** Index entries a plan reads on the event table, whatever the index; a sequential scan reads it all. */
  private static final Pattern EVENT_READ = Pattern.compile(
      "(?:Index (?:Only )?Scan(?: Backward)? using (event_\\w+) on event|Bitmap Index Scan on (event_\\w+)"
          + "|Seq Scan on (event)\\b)[^\n]*actual rows=(\\d+)");

  private final LedgerFixture ledger = new LedgerFixture();
  private final StatementRecorder recorder = new StatementRecorder(ledger.database.dataSource());
  // stuck a millisecond after due, so that the retried rows are stuck at once, as a million are after
  // two minutes; the plans are asserted, not the speed
  private final InboxAdmin admin = InboxAdmin.builder(recorder.dataSource()).stuckAfter(Duration.ofMillis(1))
      .readTimeout(Duration.ofSeconds(60)).build();

  @Test
  void noOperatorReadGoesThroughEveryRetriedEvent() {
    importDeadHistory();
    int retried = admin.retryDead(RETRIED);
    assertEquals(RETRIED, retried);

    recorder.drain();
    InboxStatus status = admin.status();
    Backlog backlog = admin.backlog();
    EventPage stuck = admin.list(EventQuery.builder().status(StatusFilter.STUCK).limit(50).build());
    EventPage failing = admin.list(EventQuery.builder().status(StatusFilter.FAILING).limit(50).build());
    List<CauseCount> causes = admin.causes();
    List<String> statements = recorder.drain();

    // more than the bound wait, and say so; the finished counts stay exact
    assertEquals(BOUND, status.waiting());
    assertEquals(BOUND, status.stuck());
    assertEquals(0, status.failing(), "a retried event is not failing until it fails again");
    assertEquals(0, status.dead());
    assertEquals(RETRIED, status.count(EventStatus.DONE));
    assertEquals(BOUND, backlog.waiting());
    assertEquals(BOUND, backlog.stuck());
    assertEquals(0, backlog.dead());
    assertEquals(50, stuck.events().size());
    assertEquals("evt_2", stuck.events().get(0).eventId(), "the newest received first");
    assertTrue(failing.events().isEmpty());
    // the retried events' last errors are kept, but they are neither failing nor dead now
    assertTrue(causes.isEmpty(), causes.toString());
    // and the command line, the page and the JSON say "more than" rather than the bound
    assertEquals("over 10000", AdminText.counted(status.waiting()));
    assertEquals("over " + (RETRIED + InboxStatus.COUNTED), AdminText.total(status));
    assertEquals("0", AdminText.counted(status.failing()));
    assertEquals(InboxStatus.COUNTED, AdminJson.status(status).get("countedUpTo").asInt());

    assertFalse(statements.isEmpty());
    // each select EXPLAINed with the planner settings its transaction set before it (set_config(...,
    // true), as SET LOCAL), as it ran
    List<String> settings = List.of();
    for (String sql : statements) {
      String lower = sql.stripLeading().toLowerCase(java.util.Locale.ROOT);
      if (lower.startsWith("select set_config(")) {
        settings = List.of(sql);
        continue;
      }
      if (!lower.startsWith("select")) {
        settings = List.of();
        continue;
      }
      List<Read> reads = reads(sql, settings);
      assertTrue(reads.stream().allMatch(r -> r.rows() <= BOUND),
          "reads more than " + BOUND + " of the " + RETRIED + " retried rows:\n" + sql + "\n" + reads + "\n" + plan(sql, settings));
    }
  }

  @Test
  void countsAreExactUpToTheBoundThroughClaimsFailuresSettlesAndAPrune() {
    importDeadHistory();
    admin.retryDead(RETRIED);
    // the workers take the oldest due first: claims, then most of them settled, some failing again
    ledger.sql.execute("update hookledger.event set status = 'processing', attempts = attempts + 1,"
        + " lease_owner = 'w', lease_until = now() + interval '5 minutes', available_at = now() + interval '5 minutes'"
        + " where status = 'pending' and substr(event_id, 5)::int <= " + (2 * (RETRIED - 100)));
    assertCountsMatchRows();
    ledger.sql.execute("update hookledger.event set status = 'pending', available_at = now() + interval '1 hour',"
        + " last_error = 'again', lease_owner = null, lease_until = null"
        + " where status = 'processing' and substr(event_id, 5)::int <= 40");
    ledger.sql.execute("update hookledger.event set status = 'done', settled_at = now(), lease_owner = null,"
        + " lease_until = null where status = 'processing'");
    assertCountsMatchRows();
    InboxStatus status = admin.status();
    assertEquals(20, status.failing());
    assertEquals(120, status.waiting());
    assertEquals(100, status.stuck());
    List<CauseCount> causes = admin.causes();
    assertEquals(List.of("again"), causes.stream().map(CauseCount::cause).toList());
    assertEquals(20, causes.get(0).failing());
    // the roll-up folds the appended count changes, a prune removes the month's settled rows
    new MinuteRollUp(new EventTable("hookledger")).pass(DSL.using(ledger.database.pooled(), SQLDialect.POSTGRES));
    assertCountsMatchRows();
    ledger.sql.execute("delete from hookledger.event where status in ('done', 'ignored', 'stale')"
        + " and settled_at < now() - interval '1 day'");
    assertCountsMatchRows();
    assertEquals(RETRIED, admin.status().total(), "the retried events, settled today or waiting");
  }

  /** A month of settled events imported in one statement, every other one dead, all of them old. */
  private void importDeadHistory() {
    ledger.sql.execute("insert into hookledger.event (provider, event_id, type, body, status, received_at,"
        + " available_at, settled_at, attempts, last_error)"
        + " select case when i % 3 = 0 then 'github' else 'stripe' end, 'evt_' || i, 'invoice.paid', '\\x7b7d',"
        + " case when i % 2 = 0 then 'dead' else 'done' end,"
        + " now() - interval '2 days' - i * interval '1 minute', now() - interval '2 days' - i * interval '1 minute',"
        + " now() - interval '2 days' - i * interval '1 minute' + interval '1 second', 12,"
        + " case when i % 2 = 0 then 'boom' end"
        + " from generate_series(1, " + 2 * RETRIED + ") i");
    new MinuteRollUp(new EventTable("hookledger")).pass(ledger.sql);
  }

  /** {@code status}'s counts per provider and status against the rows, exact up to the bound. */
  private void assertCountsMatchRows() {
    Map<String, Long> rows = ledger.sql.fetch("select provider || ' ' || status, count(*) from hookledger.event"
        + " group by provider, status").stream().collect(Collectors.toMap(r -> r.get(0, String.class), r -> r.get(1, Long.class)));
    long waiting = rows.entrySet().stream().filter(e -> e.getKey().endsWith(" pending") || e.getKey().endsWith(" processing"))
        .mapToLong(Map.Entry::getValue).sum();
    InboxStatus status = admin.status();
    Map<String, Long> counted = status.counts().stream().collect(Collectors.toMap(
        c -> c.provider() + " " + c.status().name().toLowerCase(java.util.Locale.ROOT), StatusCount::events));
    if (waiting <= InboxStatus.COUNTED) {
      assertEquals(rows, counted);
      assertEquals(waiting, admin.backlog().waiting());
    } else {
      rows.entrySet().removeIf(e -> e.getKey().endsWith(" pending") || e.getKey().endsWith(" processing"));
      counted.entrySet().removeIf(e -> e.getKey().endsWith(" pending") || e.getKey().endsWith(" processing"));
      assertEquals(rows, counted, "the finished counts");
      assertEquals(BOUND, status.waiting());
      assertEquals(BOUND, admin.backlog().waiting());
    }
  }

  private record Read(String on, int rows) { }

  private String plan(String sql, List<String> settings) {
    return ledger.sql.transactionResult(cfg -> {
      settings.forEach(cfg.dsl()::fetch);
      return String.join("\n", cfg.dsl().fetch("explain (analyze, costs off, timing off, summary off) " + sql)
          .getValues(0, String.class));
    });
  }

  private List<Read> reads(String sql, List<String> settings) {
    Matcher m = EVENT_READ.matcher(plan(sql, settings));
    List<Read> reads = new ArrayList<>();
    while (m.find()) {
      String on = m.group(1) != null ? m.group(1) : m.group(2) != null ? m.group(2) : m.group(3);
      // a sequential scan's actual rows are those left after its filter: it reads the table whole
      reads.add(new Read(on, m.group(3) != null ? Integer.MAX_VALUE : Integer.parseInt(m.group(4))));
    }
    return reads;
  }
}
