package dev.hookledger.runtime.admin;

import static dev.hookledger.runtime.internal.ledger.EventTable.RECEIVED_AT;
import static org.jooq.impl.DSL.count;
import static org.jooq.impl.DSL.min;
import static org.jooq.impl.DSL.sum;

import dev.hookledger.runtime.EventStatus;
import dev.hookledger.runtime.internal.ledger.EventTable;
import dev.hookledger.runtime.internal.ledger.StatusColumn;
import dev.hookledger.runtime.internal.ledger.StatusCountTable;
import java.math.BigDecimal;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.jooq.Condition;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Record3;

/** Reads {@link InboxStatus} and {@link Backlog}. */
final class StatusReader {
  private static final Condition WAITING = EventTable.statusIn(StatusColumn.WAITING);

  private final DSLContext db;
  private final EventTable events;
  private final Clock clock;
  private final Duration stuckAfter;

  StatusReader(DSLContext db, EventTable events, Clock clock, Duration stuckAfter) {
    this.db = db;
    this.events = events;
    this.clock = clock;
    this.stuckAfter = stuckAfter;
  }

  /**
   * Counts per provider and status: of finished events, added up from the counts the ledger keeps
   * as rows change (a few rows per provider and status, whatever the history holds); of waiting
   * ones, counted through their partial index. Plus the failing and stuck counts and the oldest
   * waiting event's age (one more read of that index).
   */
  InboxStatus status() {
    Instant now = clock.instant();
    Field<BigDecimal> total = sum(StatusCountTable.EVENTS);
    List<StatusCount> counts = new ArrayList<>(db
        .select(StatusCountTable.PROVIDER, StatusCountTable.STATUS, total, sum(StatusCountTable.DUPLICATES))
        .from(StatusCountTable.of(events))
        .groupBy(StatusCountTable.PROVIDER, StatusCountTable.STATUS)
        .having(total.ne(BigDecimal.ZERO))
        .fetch(r -> new StatusCount(r.value1(), StatusColumn.parse(r.value2()), r.value3().longValue(),
            r.value4().longValue())));
    counts.addAll(db.select(EventTable.PROVIDER, EventTable.STATUS, count(), sum(EventTable.DUPLICATES))
        .from(events.table()).where(WAITING)
        .groupBy(EventTable.PROVIDER, EventTable.STATUS)
        .fetch(r -> new StatusCount(r.value1(), StatusColumn.parse(r.value2()), r.value3(), r.value4().longValue())));
    List<StatusCount> ordered = counts.stream()
        .sorted(Comparator.comparing(StatusCount::provider)
            .thenComparing(StatusCount::status))
        .toList();
    Record3<Integer, Integer, Instant> waiting = db
        .select(count().filterWhere(WaitingRows.FAILING), count().filterWhere(WaitingRows.stuck(stuckAfter)),
            min(RECEIVED_AT))
        .from(events.table()).where(WAITING).fetchSingle();
    Duration oldest = waiting.value3() == null ? null : age(waiting.value3(), now);
    return new InboxStatus(now, ordered, oldest, waiting.value1(), waiting.value2(), stuckAfter);
  }

  /**
   * Waiting and stuck counts and the oldest waiting age, through the waiting rows' partial index;
   * the dead count from the counts the ledger keeps, as {@link #status()} reads it: dead rows are
   * kept, and after an import or a bulk change they can be most of the table, which counting them
   * through their index read whole.
   */
  Backlog backlog() {
    Instant now = clock.instant();
    Record3<Integer, Instant, Integer> waiting = db
        .select(count(), min(RECEIVED_AT), count().filterWhere(WaitingRows.stuck(stuckAfter)))
        .from(events.table()).where(WAITING).fetchSingle();
    BigDecimal dead = db.select(sum(StatusCountTable.EVENTS)).from(StatusCountTable.of(events))
        .where(StatusCountTable.STATUS.eq(StatusColumn.sql(EventStatus.DEAD))).fetchSingle().value1();
    Duration oldest = waiting.value2() == null ? Duration.ZERO : age(waiting.value2(), now);
    return new Backlog(waiting.value1(), dead == null ? 0 : dead.longValueExact(), oldest, waiting.value3());
  }

  /** Never negative: a row received "after" the admin's clock (clock skew) is of age zero. */
  private static Duration age(Instant receivedAt, Instant now) {
    Duration d = Duration.between(receivedAt, now);
    return d.isNegative() ? Duration.ZERO : d;
  }
}
