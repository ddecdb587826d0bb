package dev.hookledger.runtime.admin;

import static dev.hookledger.runtime.internal.ledger.EventTable.LAST_ERROR;
import static dev.hookledger.runtime.internal.ledger.EventTable.RECEIVED_AT;
import static dev.hookledger.runtime.internal.ledger.EventTable.STATUS;

import dev.hookledger.runtime.EventStatus;
import dev.hookledger.runtime.internal.ledger.EventTable;
import dev.hookledger.runtime.internal.ledger.StatusColumn;
import dev.hookledger.runtime.internal.process.RootCause;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jooq.Condition;
import org.jooq.DSLContext;
import org.jooq.Record3;

/**
 * Groups failing and dead events by root cause. Reads the newest {@value #READ} of them, each kind
 * through its own partial index (never settled history), and only the head of each error, where the
 * root cause's line is found. The dead rows are read newest first and no further than {@value #READ}
 * (those without an error, as an import may bring, are left out after the read): one read of both
 * kinds, ordered after it, sorted every dead row the ledger keeps, which after an import of
 * hundreds of thousands of them read the whole table.
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
    // each read through its own index, newest first, stopped at its limit whatever the statistics say
    List<Record3<String, String, Instant>> rows = WaitingRows.inIndexOrder(db, tx -> {
      List<Record3<String, String, Instant>> read = new ArrayList<>(newest(tx, WaitingRows.FAILING));
      read.addAll(newest(tx, EventTable.statusIn(List.of(EventStatus.DEAD))));
      return read;
    });
    rows.sort(Comparator.comparing((Record3<String, String, Instant> r) -> r.value3()).reversed());
    rows = rows.subList(0, Math.min(READ, rows.size())).stream().filter(r -> r.value2() != null).toList();
    Map<String, long[]> byCause = new LinkedHashMap<>();
    for (Record3<String, String, Instant> r : rows) {
      long[] n = byCause.computeIfAbsent(RootCause.of(r.value2()), c -> new long[2]);
      n[DEAD.equals(r.value1()) ? 1 : 0]++;
    }
    List<CauseCount> out = new ArrayList<>();
    byCause.forEach((cause, n) -> out.add(new CauseCount(cause, n[0], n[1])));
    out.sort(Comparator.comparingLong(CauseCount::events).reversed().thenComparing(CauseCount::cause));
    return out;
  }

  /** The newest {@value #READ} rows {@code kind} selects, newest first, from the index of that kind. */
  private List<Record3<String, String, Instant>> newest(DSLContext tx, Condition kind) {
    return tx.select(STATUS, LAST_ERROR, RECEIVED_AT).from(events.table()).where(kind)
        .orderBy(RECEIVED_AT.desc()).limit(READ).fetch();
  }
}
