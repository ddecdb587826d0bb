package dev.hookledger.runtime.admin;

import static dev.hookledger.runtime.internal.ledger.EventTable.AVAILABLE_AT;
import static dev.hookledger.runtime.internal.ledger.EventTable.RECEIVED_AT;
import static org.jooq.impl.DSL.count;
import static org.jooq.impl.DSL.min;
import static org.jooq.impl.DSL.sum;

import dev.hookledger.runtime.EventStatus;
import dev.hookledger.runtime.internal.ledger.CitusLedger;
import dev.hookledger.runtime.internal.ledger.EventTable;
import dev.hookledger.runtime.internal.ledger.StatusColumn;
import dev.hookledger.runtime.internal.ledger.StatusCountTable;
import java.math.BigDecimal;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import org.jooq.Condition;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Record3;
import org.jooq.Record6;
import org.jooq.Table;
import org.jooq.impl.DSL;
import org.jooq.impl.SQLDataType;

/** Reads {@link InboxStatus} and {@link Backlog}. */
final class StatusReader {
  private static final Condition WAITING = EventTable.statusIn(StatusColumn.WAITING);
  private static final Field<Boolean> STUCK = DSL.field(DSL.name("stuck"), SQLDataType.BOOLEAN);
  private static final List<EventStatus> FINISHED = Arrays.stream(EventStatus.values())
      .filter(s -> !s.isWaiting()).toList();

  private final DSLContext db;
  private final EventTable events;
  private final Clock clock;
  private final Duration stuckAfter;
  private final CitusLedger citus;
  /** Set once the roll-up is seen keeping the counts (V22); asked again while it is not (a ledger migrated later). */
  private volatile boolean rolledUp;

  StatusReader(DSLContext db, EventTable events, Clock clock, Duration stuckAfter) {
    this.db = db;
    this.events = events;
    this.clock = clock;
    this.stuckAfter = stuckAfter;
    this.citus = new CitusLedger(db, events);
  }

  /**
   * Counts per provider and status: of finished events, added up from the counts the ledger keeps
   * (a few rows per provider and status, whatever the history holds) and, from schema V22, the
   * events settled since the roll-up's last pass ({@link #finished}); of waiting
   * ones, with the stuck count and the oldest waiting event's age, from the waiting rows due first,
   * at most {@value InboxStatus#COUNTED} + 1 of them ({@link #due()}); the failing count through
   * the failing rows' own index (schema V18), at most as many; on Citus all of them ({@link #waitingOnEveryShard()}).
   */
  InboxStatus status() {
    Instant now = clock.instant();
    Table<?> finished = finished(FINISHED);
    Field<BigDecimal> total = sum(finished.field(StatusCountTable.EVENTS));
    Field<String> provider = finished.field(StatusCountTable.PROVIDER);
    Field<String> status = finished.field(StatusCountTable.STATUS);
    List<StatusCount> counts = new ArrayList<>(db
        .select(provider, status, total, sum(finished.field(StatusCountTable.DUPLICATES)))
        .from(finished)
        .groupBy(provider, status)
        .having(total.ne(BigDecimal.ZERO))
        .fetch(r -> new StatusCount(r.value1(), StatusColumn.parse(r.value2()), r.value3().longValue(),
            r.value4().longValue())));
    Waiting waiting = citus.distributed() ? waitingOnEveryShard() : waitingDueFirst();
    counts.addAll(waiting.counts());
    List<StatusCount> ordered = counts.stream()
        .sorted(Comparator.comparing(StatusCount::provider)
            .thenComparing(StatusCount::status))
        .toList();
    Duration age = waiting.oldestReceived() == null ? null : age(waiting.oldestReceived(), now);
    return new InboxStatus(now, ordered, age, waiting.failing(), waiting.stuck(), stuckAfter);
  }

  /**
   * The counts the ledger keeps of finished events of {@code statuses}, and from version 22 those
   * settled since the roll-up's last pass, in one statement ({@link StatusCountTable#counted}).
   */
  private Table<?> finished(List<EventStatus> statuses) {
    boolean rolled = rolledUp || (rolledUp = StatusCountTable.rolledUp(db, events));
    return StatusCountTable.counted(events, rolled, statuses);
  }

  /** The waiting rows' part of {@link #status()}: counts per provider and status, failing, stuck, the oldest received. */
  private record Waiting(List<StatusCount> counts, int failing, int stuck, Instant oldestReceived) {}

  /** From the waiting rows due first ({@link #due()}), and the failing ones through their own index, each bounded. */
  private Waiting waitingDueFirst() {
    Table<?> due = due();
    Field<String> provider = due.field(EventTable.PROVIDER);
    Field<String> status = due.field(EventTable.STATUS);
    return WaitingRows.inIndexOrder(db, tx -> {
      List<StatusCount> counts = new ArrayList<>();
      int stuck = 0;
      Instant oldestReceived = null;
      for (Record6<String, String, Integer, BigDecimal, Integer, Instant> r : tx
          .select(provider, status, count(), sum(due.field(EventTable.DUPLICATES)), count().filterWhere(due.field(STUCK)),
              min(due.field(RECEIVED_AT)))
          .from(due).groupBy(provider, status).fetch()) {
        counts.add(new StatusCount(r.value1(), StatusColumn.parse(r.value2()), r.value3(), r.value4().longValue()));
        stuck += r.value5();
        oldestReceived = oldestReceived == null || r.value6().isBefore(oldestReceived) ? r.value6() : oldestReceived;
      }
      int failing = tx.fetchCount(tx.selectOne().from(events.table()).where(WaitingRows.FAILING)
          .limit(InboxStatus.COUNTED + 1));
      return new Waiting(counts, failing, stuck, oldestReceived);
    });
  }

  /**
   * On a ledger distributed by Citus: the waiting rows counted whole, each shard its own part, summed
   * on the coordinator. The bounded read's subquery with a limit is planned there through
   * intermediate results on the coordinator: 188 ms where the whole count took 11 ms on an empty
   * ledger of three nodes, past the admin's 2 s read deadline under load.
   */
  private Waiting waitingOnEveryShard() {
    List<StatusCount> counts = db.select(EventTable.PROVIDER, EventTable.STATUS, count(), sum(EventTable.DUPLICATES))
        .from(events.table()).where(WAITING)
        .groupBy(EventTable.PROVIDER, EventTable.STATUS)
        .fetch(r -> new StatusCount(r.value1(), StatusColumn.parse(r.value2()), r.value3(), r.value4().longValue()));
    Record3<Integer, Integer, Instant> waiting = db
        .select(count().filterWhere(WaitingRows.FAILING), count().filterWhere(WaitingRows.stuck(stuckAfter)),
            min(RECEIVED_AT))
        .from(events.table()).where(WAITING).fetchSingle();
    return new Waiting(counts, waiting.value1(), waiting.value2(), waiting.value3());
  }

  /**
   * Waiting and stuck counts and the oldest waiting age, from the waiting rows due first, at most
   * {@value InboxStatus#COUNTED} + 1 of them ({@link #due()}), or on Citus from all of them
   * ({@link #waitingOnEveryShard()} says why); the dead count from the counts the ledger keeps, as
   * {@link #status()} reads it: dead rows are kept, and after an import or a bulk change they can be
   * most of the table, which counting them through their index read whole.
   */
  Backlog backlog() {
    Instant now = clock.instant();
    Record3<Integer, Instant, Integer> waiting;
    if (citus.distributed()) {
      waiting = db.select(count(), min(RECEIVED_AT), count().filterWhere(WaitingRows.stuck(stuckAfter)))
          .from(events.table()).where(WAITING).fetchSingle();
    } else {
      Table<?> due = due();
      waiting = WaitingRows.inIndexOrder(db, tx -> tx
          .select(count(), min(due.field(RECEIVED_AT)), count().filterWhere(due.field(STUCK)))
          .from(due).fetchSingle());
    }
    Table<?> finished = finished(List.of(EventStatus.DEAD));
    BigDecimal dead = db.select(sum(finished.field(StatusCountTable.EVENTS))).from(finished).fetchSingle().value1();
    Duration oldest = waiting.value2() == null ? Duration.ZERO : age(waiting.value2(), now);
    return new Backlog(waiting.value1(), dead == null ? 0 : dead.longValueExact(), oldest, waiting.value3());
  }

  /**
   * The waiting rows due first, at most {@value InboxStatus#COUNTED} + 1: a range of the waiting
   * rows' partial index in its own order ({@code available_at}), which stops there. Counting every
   * waiting row read all of them, a million after a bulk retry of a million dead events (seconds a
   * read, every read until the workers drained them). The stuck rows are due longest, so they come
   * first: the stuck count is exact up to the bound, as the waiting count is.
   */
  private Table<?> due() {
    return db.select(EventTable.PROVIDER, EventTable.STATUS, EventTable.DUPLICATES, RECEIVED_AT,
            DSL.field(WaitingRows.stuck(stuckAfter)).as(STUCK))
        .from(events.table()).where(WAITING)
        .orderBy(AVAILABLE_AT).limit(InboxStatus.COUNTED + 1)
        .asTable("due");
  }

  /** Never negative: a row received "after" the admin's clock (clock skew) is of age zero. */
  private static Duration age(Instant receivedAt, Instant now) {
    Duration d = Duration.between(receivedAt, now);
    return d.isNegative() ? Duration.ZERO : d;
  }
}
