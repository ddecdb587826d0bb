package dev.hookledger.runtime.internal.ledger;

import static org.jooq.impl.DSL.field;
import static org.jooq.impl.DSL.name;

import dev.hookledger.runtime.EventStatus;
import dev.hookledger.runtime.admin.Backfill;
import dev.hookledger.runtime.admin.BackfillPlan;
import dev.hookledger.runtime.admin.BackfillRequest;
import dev.hookledger.runtime.admin.BackfillStatus;
import dev.hookledger.runtime.admin.LegacyEvents;
import dev.hookledger.runtime.internal.dispatch.TypePattern;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import org.jooq.Condition;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Record;
import org.jooq.Table;
import org.jooq.impl.DSL;
import org.jooq.impl.SQLDataType;

/**
 * The {@code backfill} table (V8) and the events a backfill selects: settled ({@code done},
 * {@code ignored}, {@code stale}) events of its provider, type pattern and window of receipt, in
 * {@code (received_at, provider, scope, event_id)} order after its cursor. A backfill is held by one
 * node at a time with a lease computed by the database; every write of its holder is fenced by the
 * owner, so a node whose lease was taken over commits nothing. Thread-safe.
 *
 * <p>On Citus ({@link CitusLedger}) {@code backfill} is a reference table, where the claim's
 * {@code FOR UPDATE SKIP LOCKED} is a router query; the reads of events across scopes (a page, the
 * count, the plan) lock nothing, so they need no per-scope form, and the plan's join to
 * {@code handler_applied} runs shard by shard, the two tables being co-located by scope.
 */
public final class BackfillRows {
  static final Field<Long> ID = field(name("id"), SQLDataType.BIGINT);
  static final Field<String[]> HANDLERS = field(name("handlers"), SQLDataType.VARCHAR.array());
  static final Field<String> PROVIDER = field(name("provider"), SQLDataType.VARCHAR);
  static final Field<String> TYPE_PATTERN = field(name("type_pattern"), SQLDataType.VARCHAR);
  static final Field<Instant> SINCE = field(name("since"), SQLDataType.INSTANT);
  static final Field<Instant> UNTIL = field(name("until"), SQLDataType.INSTANT);
  static final Field<String> LEGACY = field(name("legacy"), SQLDataType.VARCHAR);
  static final Field<Integer> MAX_PER_SECOND = field(name("max_per_second"), SQLDataType.INTEGER);
  static final Field<Integer> MAX_BACKLOG = field(name("max_backlog"), SQLDataType.INTEGER);
  static final Field<String> STATUS = field(name("status"), SQLDataType.VARCHAR);
  static final Field<Long> SELECTED = field(name("selected"), SQLDataType.BIGINT);
  static final Field<Long> APPLIED = field(name("applied"), SQLDataType.BIGINT);
  static final Field<Long> SKIPPED = field(name("skipped"), SQLDataType.BIGINT);
  static final Field<Long> FAILED = field(name("failed"), SQLDataType.BIGINT);
  static final Field<Instant> CURSOR_RECEIVED_AT = field(name("cursor_received_at"), SQLDataType.INSTANT);
  static final Field<String> CURSOR_PROVIDER = field(name("cursor_provider"), SQLDataType.VARCHAR);
  static final Field<String> CURSOR_SCOPE = field(name("cursor_scope"), SQLDataType.VARCHAR);
  static final Field<String> CURSOR_EVENT_ID = field(name("cursor_event_id"), SQLDataType.VARCHAR);
  static final Field<String> LEASE_OWNER = field(name("lease_owner"), SQLDataType.VARCHAR);
  static final Field<Instant> LEASE_UNTIL = field(name("lease_until"), SQLDataType.INSTANT);
  static final Field<Instant> CREATED_AT = field(name("created_at"), SQLDataType.INSTANT);
  static final Field<Instant> UPDATED_AT = field(name("updated_at"), SQLDataType.INSTANT);
  static final Field<Instant> FINISHED_AT = field(name("finished_at"), SQLDataType.INSTANT);

  private static final List<Field<?>> COLUMNS = List.of(ID, HANDLERS, PROVIDER, TYPE_PATTERN, SINCE, UNTIL, LEGACY,
      MAX_PER_SECOND, MAX_BACKLOG, STATUS, SELECTED, APPLIED, SKIPPED, FAILED, CURSOR_RECEIVED_AT, CURSOR_PROVIDER,
      CURSOR_SCOPE, CURSOR_EVENT_ID, LEASE_OWNER, LEASE_UNTIL, CREATED_AT, UPDATED_AT, FINISHED_AT);

  /** The statuses a backfill visits: settled, not waiting (live processing's) and not dead (an operator's). */
  private static final Condition SETTLED = EventTable.STATUS.in(StatusColumn.sql(EventStatus.DONE),
      StatusColumn.sql(EventStatus.IGNORED), StatusColumn.sql(EventStatus.STALE));

  /** The name {@link AppliedRows} records to keep an event legacy once a backfill has written to it. */
  public static final String LEGACY_MARK = "*";

  private final EventTable events;
  private final Table<Record> table;
  private final Table<Record> applied;

  public BackfillRows(EventTable events) {
    this.events = events;
    this.table = DSL.table(name(events.schema(), "backfill"));
    this.applied = DSL.table(name(events.schema(), "handler_applied"));
  }

  /**
   * One backfill held by this node.
   *
   * @param cursor the last event visited; null before the first
   */
  public record Held(long id, Set<String> handlers, LegacyEvents legacy, int maxPerSecond, int maxBacklog,
      Condition selection, EventCursor cursor) {}

  /** Where a backfill is: the order key of the last event it visited. */
  public record EventCursor(Instant receivedAt, EventKey key) {}

  /** Records a new backfill, its window's end fixed now if the request has none; returns it. */
  public Backfill create(DSLContext tx, BackfillRequest r) {
    Instant until = r.until().orElseGet(() -> tx.select(LedgerTime.NOW).fetchSingle().value1());
    long selected = tx.fetchCount(events.table(), selection(r.provider().orElse(null), r.type(),
        r.since().orElse(null), until));
    long id = tx.insertInto(table)
        .set(HANDLERS, r.handlers().toArray(String[]::new))
        .set(PROVIDER, r.provider().orElse(null))
        .set(TYPE_PATTERN, r.type())
        .set(SINCE, r.since().orElse(null))
        .set(UNTIL, until)
        .set(LEGACY, r.legacy().name().toLowerCase(Locale.ROOT))
        .set(MAX_PER_SECOND, r.maxPerSecond())
        .set(MAX_BACKLOG, r.maxBacklog())
        .set(SELECTED, selected)
        .returningResult(ID).fetchSingle().value1();
    return find(tx, id).orElseThrow();
  }

  /** Counts what {@code r} would do now; writes nothing. */
  public BackfillPlan plan(DSLContext dsl, BackfillRequest r) {
    Instant until = r.until().orElse(null);
    Condition window = selection(r.provider().orElse(null), r.type(), r.since().orElse(null), until);
    String[] names = r.handlers().toArray(String[]::new);
    Field<Integer> named = DSL.selectCount().from(applied).where(sameEvent())
        .and(field(name("handler"), SQLDataType.VARCHAR).in(Arrays.asList(names))).asField();
    Condition allApplied = named.eq(names.length);
    Condition legacy = legacy();
    Record rec = dsl.select(DSL.count(), DSL.count().filterWhere(allApplied),
            DSL.count().filterWhere(legacy.andNot(allApplied)),
            DSL.count().filterWhere(r.legacy() == LegacyEvents.SKIP ? allApplied.not().andNot(legacy) : allApplied.not()))
        .from(events.table()).where(window)
        .fetchSingle();
    return new BackfillPlan(rec.get(0, Long.class), rec.get(1, Long.class), rec.get(2, Long.class),
        rec.get(3, Long.class));
  }

  /**
   * A {@code done} event that no handler is recorded for, or that carries {@link #LEGACY_MARK}: it
   * was settled before bookkeeping began, by every handler registered then (see {@link AppliedRows}).
   */
  private Condition legacy() {
    Field<String> handler = field(name("handler"), SQLDataType.VARCHAR);
    return EventTable.STATUS.eq(StatusColumn.sql(EventStatus.DONE))
        .and(DSL.notExists(DSL.selectOne().from(applied).where(sameEvent()))
            .or(DSL.exists(DSL.selectOne().from(applied).where(sameEvent()).and(handler.eq(LEGACY_MARK)))));
  }

  /** Whether {@code key}, a {@code done} event, is legacy; inside the caller's transaction. */
  public boolean isLegacy(DSLContext tx, EventKey key) {
    return tx.fetchExists(DSL.selectOne().from(events.table()).where(EventTable.is(key)).and(legacy()));
  }

  private Condition sameEvent() {
    return field(name(events.schema(), "handler_applied", "provider")).eq(field(name(events.schema(), "event", "provider")))
        .and(field(name(events.schema(), "handler_applied", "scope")).eq(field(name(events.schema(), "event", "scope"))))
        .and(field(name(events.schema(), "handler_applied", "event_id"))
            .eq(field(name(events.schema(), "event", "event_id"))));
  }

  private static Condition selection(String provider, String type, Instant since, Instant until) {
    TypePattern pattern = TypePattern.parse(type);
    Condition c = SETTLED;
    if (provider != null) {
      c = c.and(EventTable.PROVIDER.eq(provider));
    }
    if (pattern.isWildcard()) {
      if (!pattern.prefix().isEmpty()) {
        c = c.and(EventTable.TYPE.startsWith(pattern.prefix()));
      }
    } else {
      c = c.and(EventTable.TYPE.eq(pattern.prefix()));
    }
    if (since != null) {
      c = c.and(EventTable.RECEIVED_AT.ge(since));
    }
    if (until != null) {
      c = c.and(EventTable.RECEIVED_AT.lt(until));
    }
    return c;
  }

  /** Every backfill, newest first, up to {@code limit}. */
  public List<Backfill> list(DSLContext dsl, int limit) {
    return dsl.select(COLUMNS).from(table).orderBy(ID.desc()).limit(limit).fetch(BackfillRows::toBackfill);
  }

  public Optional<Backfill> find(DSLContext dsl, long id) {
    return dsl.select(COLUMNS).from(table).where(ID.eq(id)).fetchOptional(BackfillRows::toBackfill);
  }

  /** Cancels a running backfill; false if there is none of that id running. */
  public boolean cancel(DSLContext tx, long id) {
    return tx.update(table).set(STATUS, "cancelled").set(FINISHED_AT, LedgerTime.NOW).set(UPDATED_AT, LedgerTime.NOW)
        .setNull(LEASE_OWNER).setNull(LEASE_UNTIL)
        .where(ID.eq(id)).and(STATUS.eq("running")).execute() == 1;
  }

  /**
   * Takes the oldest running backfill whose handlers are all in {@code registered} and that no
   * other node holds (or whose holder's lease ran out), for {@code lease}, by the database's clock.
   */
  public Optional<Held> claim(DSLContext tx, String owner, Set<String> registered, Duration lease) {
    Optional<Long> id = tx.select(ID).from(table)
        .where(STATUS.eq("running"))
        .and(LEASE_OWNER.isNull().or(LEASE_UNTIL.lt(LedgerTime.NOW)).or(LEASE_OWNER.eq(owner)))
        .and(DSL.condition("{0} <@ cast({1} as text[])", HANDLERS, DSL.val(registered.toArray(String[]::new))))
        .orderBy(ID).limit(1).forUpdate().skipLocked()
        .fetchOptional(ID);
    if (id.isEmpty()) {
      return Optional.empty();
    }
    Record r = tx.update(table).set(LEASE_OWNER, owner).set(LEASE_UNTIL, LedgerTime.nowPlus(lease))
        .set(UPDATED_AT, LedgerTime.NOW).where(ID.eq(id.get())).returningResult(COLUMNS).fetchSingle();
    EventCursor cursor = r.get(CURSOR_EVENT_ID) == null ? null : new EventCursor(r.get(CURSOR_RECEIVED_AT),
        new EventKey(r.get(CURSOR_PROVIDER), r.get(CURSOR_SCOPE), r.get(CURSOR_EVENT_ID)));
    return Optional.of(new Held(r.get(ID), Set.of(r.get(HANDLERS)), legacy(r.get(LEGACY)), r.get(MAX_PER_SECOND),
        r.get(MAX_BACKLOG), selection(r.get(PROVIDER), r.get(TYPE_PATTERN), r.get(SINCE), r.get(UNTIL)), cursor));
  }

  /** The next events after {@code cursor}, oldest first. */
  public List<EventCursor> page(DSLContext dsl, Held held, EventCursor cursor, int limit) {
    Condition after = cursor == null ? DSL.noCondition()
        : DSL.row(EventTable.RECEIVED_AT, EventTable.PROVIDER, EventTable.SCOPE, EventTable.EVENT_ID)
            .gt(cursor.receivedAt(), cursor.key().provider(), cursor.key().scope(), cursor.key().eventId());
    return dsl.select(EventTable.RECEIVED_AT, EventTable.PROVIDER, EventTable.SCOPE, EventTable.EVENT_ID)
        .from(events.table()).where(held.selection()).and(after)
        .orderBy(EventTable.RECEIVED_AT, EventTable.PROVIDER, EventTable.SCOPE, EventTable.EVENT_ID)
        .limit(limit)
        .fetch(r -> new EventCursor(r.value1(), new EventKey(r.value2(), r.value3(), r.value4())));
  }

  /** What visiting one event did. */
  public enum Visit { APPLIED, SKIPPED, FAILED }

  /**
   * Moves the cursor past {@code visited}, counts it and renews the lease, fenced by the owner: in
   * the event's own transaction, so the cursor and the handlers' effects commit together.
   *
   * @return false if this node no longer holds the backfill (taken over, or cancelled): roll back
   */
  public boolean advance(DSLContext tx, Held held, String owner, EventCursor visited, Visit visit, Duration lease) {
    Field<Long> counter = visit == Visit.APPLIED ? APPLIED : visit == Visit.SKIPPED ? SKIPPED : FAILED;
    return tx.update(table)
        .set(CURSOR_RECEIVED_AT, visited.receivedAt())
        .set(CURSOR_PROVIDER, visited.key().provider())
        .set(CURSOR_SCOPE, visited.key().scope())
        .set(CURSOR_EVENT_ID, visited.key().eventId())
        .set(counter, counter.plus(1))
        .set(LEASE_UNTIL, LedgerTime.nowPlus(lease))
        .set(UPDATED_AT, LedgerTime.NOW)
        .where(ID.eq(held.id())).and(LEASE_OWNER.eq(owner)).and(STATUS.eq("running"))
        .execute() == 1;
  }

  /** Renews the lease while the backfill waits; false if this node no longer holds it. */
  public boolean renew(DSLContext tx, Held held, String owner, Duration lease) {
    return tx.update(table).set(LEASE_UNTIL, LedgerTime.nowPlus(lease))
        .where(ID.eq(held.id())).and(LEASE_OWNER.eq(owner)).and(STATUS.eq("running")).execute() == 1;
  }

  /** Marks the backfill done (every event visited), fenced by the owner. */
  public void finish(DSLContext tx, Held held, String owner) {
    tx.update(table).set(STATUS, "done").set(FINISHED_AT, LedgerTime.NOW).set(UPDATED_AT, LedgerTime.NOW)
        .setNull(LEASE_OWNER).setNull(LEASE_UNTIL)
        .where(ID.eq(held.id())).and(LEASE_OWNER.eq(owner)).and(STATUS.eq("running")).execute();
  }

  /** Gives the backfill back at once (a node closing), so another node resumes it without waiting for the lease. */
  public void release(DSLContext tx, long id, String owner) {
    tx.update(table).setNull(LEASE_OWNER).setNull(LEASE_UNTIL)
        .where(ID.eq(id)).and(LEASE_OWNER.eq(owner)).execute();
  }

  private static LegacyEvents legacy(String sql) {
    return LegacyEvents.valueOf(sql.toUpperCase(Locale.ROOT));
  }

  private static Backfill toBackfill(Record r) {
    return new Backfill(r.get(ID), List.of(r.get(HANDLERS)), r.get(PROVIDER), r.get(TYPE_PATTERN), r.get(SINCE),
        r.get(UNTIL), legacy(r.get(LEGACY)), BackfillStatus.valueOf(r.get(STATUS).toUpperCase(Locale.ROOT)),
        r.get(SELECTED), r.get(APPLIED), r.get(SKIPPED), r.get(FAILED), r.get(LEASE_OWNER), r.get(CREATED_AT),
        r.get(FINISHED_AT));
  }
}
