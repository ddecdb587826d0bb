package dev.hookledger.runtime.admin;

import static dev.hookledger.runtime.internal.ledger.EventTable.LAST_ERROR;
import static dev.hookledger.runtime.internal.ledger.EventTable.RECEIVED_AT;
import static dev.hookledger.runtime.internal.ledger.EventTable.STATUS;

import dev.hookledger.runtime.EventStatus;
import dev.hookledger.runtime.internal.ledger.EventTable;
import dev.hookledger.runtime.internal.ledger.StatusColumn;
import dev.hookledger.runtime.internal.process.RootCause;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jooq.DSLContext;
import org.jooq.Record2;

/**
 * Groups failing and dead events by root cause. Reads the newest {@value #READ} of them through the
 * waiting and dead partial indexes (never settled history), and only the head of each error, where
 * the root cause's line is found.
 */
final class CauseReader {
  /** Failing and dead events read, at most, newest first. */
  static final int READ = 5_000;
  private static final String DEAD = StatusColumn.sql(EventStatus.DEAD);

  private final DSLContext db;
  private final EventTable events;

  CauseReader(DSLContext db, EventTable events) {
    this.db = db;
    this.events = events;
  }

  List<CauseCount> causes() {
    List<Record2<String, String>> rows = db.select(STATUS, LAST_ERROR)
        .from(events.table())
        .where(WaitingRows.FAILING.or(EventTable.statusIn(List.of(EventStatus.DEAD)).and(LAST_ERROR.isNotNull())))
        .orderBy(RECEIVED_AT.desc())
        .limit(READ)
        .fetch();
    Map<String, long[]> byCause = new LinkedHashMap<>();
    for (Record2<String, String> r : rows) {
      long[] n = byCause.computeIfAbsent(RootCause.of(r.value2()), c -> new long[2]);
      n[DEAD.equals(r.value1()) ? 1 : 0]++;
    }
    List<CauseCount> out = new ArrayList<>();
    byCause.forEach((cause, n) -> out.add(new CauseCount(cause, n[0], n[1])));
    out.sort(Comparator.comparingLong(CauseCount::events).reversed().thenComparing(CauseCount::cause));
    return out;
  }
}
