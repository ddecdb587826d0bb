package dev.hookledger.runtime.admin;

import static dev.hookledger.runtime.internal.ledger.EventTable.RECEIVED_AT;
import static dev.hookledger.runtime.internal.ledger.EventTable.SETTLED_AT;
import static org.jooq.impl.DSL.noCondition;

import dev.hookledger.runtime.EventStatus;
import dev.hookledger.runtime.internal.ledger.EventTable;
import dev.hookledger.runtime.internal.ledger.MinuteCountTable;
import dev.hookledger.runtime.internal.ledger.StatusColumn;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jooq.Condition;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.impl.DSL;
import org.jooq.impl.SQLDataType;

/**
 * Reads {@link Throughput}: the last hour's rows of the per-minute roll-up ({@code minute_count},
 * schema V10), a range of its primary key, so that the cost is the window's minutes whatever the
 * traffic and the history. From V13 the roll-up holds the rows its pass has counted, up to
 * {@code closed_before} (from V20 within a minute: while a runtime runs, all but the seconds since
 * its pass last ran, and a minute more where it cannot see every session; see
 * {@code MinuteRollUp}): the rows after it are read as below, from index ranges as small as their
 * traffic, and added to the minute they fall in; all in one snapshot, so that a pass committing
 * meanwhile is seen by all of the read or by none. Where the ledger has no roll-up (on Citus), two grouped selects over the
 * last hour's received and settled rows, each a range of an index ({@code received_at};
 * {@code settled_at} of settled rows, and the small set of dead ones), whose cost follows the last
 * hour's traffic.
 */
final class ThroughputReader {
  static final int MINUTES = 60;
  /**
   * Rows with a {@code settled_at}: settled, or dead (buried after their last attempt). Spelled as
   * the two partial indexes' predicates, inlined, so that each arm reads its own index.
   */
  private static final Condition FINISHED = EventTable.statusIn(StatusColumn.SETTLED)
      .or(EventTable.statusIn(List.of(EventStatus.DEAD)));

  private final DSLContext db;
  private final EventTable events;
  private final Clock clock;
  /** Set once the roll-up is seen; asked again while it is not (a ledger migrated after this reader was made). */
  private volatile boolean rollUp;
  /** Set once the roll-up is seen kept by its pass (V13), as {@link #rollUp}. */
  private volatile boolean rollUpPass;

  ThroughputReader(DSLContext db, EventTable events, Clock clock) {
    this.db = db;
    this.events = events;
    this.clock = clock;
  }

  Throughput lastHour() {
    boolean kept = rollUp || (rollUp = MinuteCountTable.kept(db, events));
    if (!kept || !(rollUpPass || (rollUpPass = MinuteCountTable.rolledUp(db, events)))) {
      return lastHour(db);
    }
    // one snapshot: a pass that commits between this read's statements (it moves the bound and adds the
    // rows it closes to the bound's minute) would be seen by the later ones only, and those rows
    // counted from the roll-up and again from the event table
    return db.transactionResult(cfg -> {
      DSLContext tx = cfg.dsl();
      tx.execute("set transaction isolation level repeatable read, read only");
      return lastHour(tx);
    });
  }

  private Throughput lastHour(DSLContext db) {
    Instant last = clock.instant().truncatedTo(ChronoUnit.MINUTES);
    Instant first = last.minus(Duration.ofMinutes(MINUTES - 1));
    Instant end = last.plus(Duration.ofMinutes(1));
    Map<Instant, long[]> counts = new HashMap<>();
    // the rows from `open` on are counted from the event table's indexes (from V20 `open` may fall
    // within a minute, whose roll-up row holds the rows before it: both add to the same minute); the
    // flags as lastHour() found them
    Instant open = first;
    if (rollUp) {
      open = rollUpPass ? MinuteCountTable.closedBefore(db, events) : end;
      if (open.isAfter(first)) {
        countRolledUp(db, first, open.isBefore(end) ? open : end, counts);
      } else {
        open = first; // the pass is more than the window behind (no runtime ran for an hour)
      }
    }
    if (open.isBefore(end)) {
      count(db, RECEIVED_AT, noCondition(), open, end, counts, 0);
      count(db, SETTLED_AT, FINISHED, open, end, counts, 1);
    }
    List<Throughput.Minute> minutes = new ArrayList<>(MINUTES);
    for (Instant m = first; m.isBefore(end); m = m.plus(Duration.ofMinutes(1))) {
      long[] c = counts.getOrDefault(m, new long[2]);
      minutes.add(new Throughput.Minute(m, c[0], c[1]));
    }
    return new Throughput(minutes);
  }

  private void countRolledUp(DSLContext db, Instant from, Instant to, Map<Instant, long[]> counts) {
    Field<Instant> minute = MinuteCountTable.MINUTE;
    db.select(minute, DSL.sum(MinuteCountTable.RECEIVED), DSL.sum(MinuteCountTable.SETTLED))
        .from(MinuteCountTable.of(events))
        .where(minute.ge(from), minute.lt(to))
        .groupBy(minute)
        .fetch()
        .forEach(r -> counts.put(r.value1(), new long[] {r.value2().longValue(), r.value3().longValue()}));
  }

  private void count(DSLContext db, Field<Instant> column, Condition rows, Instant from, Instant to,
      Map<Instant, long[]> counts, int slot) {
    Field<Instant> minute = DSL.field("date_trunc('minute', {0})", SQLDataType.INSTANT, column);
    db.select(minute, DSL.count()).from(events.table())
        .where(rows, column.ge(from), column.lt(to))
        .groupBy(minute)
        .fetch()
        .forEach(r -> counts.computeIfAbsent(r.value1(), k -> new long[2])[slot] += r.value2());
  }
}
