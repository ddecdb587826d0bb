package dev.hookledger.runtime.internal.ledger;

import static org.jooq.impl.DSL.field;
import static org.jooq.impl.DSL.name;

import dev.hookledger.runtime.EventStatus;
import dev.hookledger.runtime.internal.dispatch.TypePattern;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
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
 * {@code handler_applied} runs shard by shard, the two tables being co-located by scope. There the
 * cursor is advanced after each visited event's commit, not in its transaction ({@code BackfillStep}).
 */
public final class BackfillRows {
  public static final Field<Long> ID = field(name("id"), SQLDataType.BIGINT);
  public static final Field<String[]> HANDLERS = field(name("handlers"), SQLDataType.VARCHAR.array());
  public static final Field<String> PROVIDER = field(name("provider"), SQLDataType.VARCHAR);
  public static final Field<String> TYPE_PATTERN = field(name("type_pattern"), SQLDataType.VARCHAR);
  public static final Field<Instant> SINCE = field(name("since"), SQLDataType.INSTANT);
  public static final Field<Instant> UNTIL = field(name("until"), SQLDataType.INSTANT);
  public static final Field<String> LEGACY = field(name("legacy"), SQLDataType.VARCHAR);
  public static final Field<Integer> MAX_PER_SECOND = field(name("max_per_second"), SQLDataType.INTEGER);
  public static final Field<Integer> MAX_BACKLOG = field(name("max_backlog"), SQLDataType.INTEGER);
  public static final Field<String> STATUS = field(name("status"), SQLDataType.VARCHAR);
  public static final Field<Long> SELECTED = field(name("selected"), SQLDataType.BIGINT);
  public static final Field<Long> APPLIED = field(name("applied"), SQLDataType.BIGINT);
  public static final Field<Long> SKIPPED = field(name("skipped"), SQLDataType.BIGINT);
  public static final Field<Long> FAILED = field(name("failed"), SQLDataType.BIGINT);
  public static final Field<Instant> CURSOR_RECEIVED_AT = field(name("cursor_received_at"), SQLDataType.INSTANT);
  public static final Field<String> CURSOR_PROVIDER = field(name("cursor_provider"), SQLDataType.VARCHAR);
  public static final Field<String> CURSOR_SCOPE = field(name("cursor_scope"), SQLDataType.VARCHAR);
  public static final Field<String> CURSOR_EVENT_ID = field(name("cursor_event_id"), SQLDataType.VARCHAR);
  public static final Field<String> LEASE_OWNER = field(name("lease_owner"), SQLDataType.VARCHAR);
  public static final Field<Instant> LEASE_UNTIL = field(name("lease_until"), SQLDataType.INSTANT);
  public static final Field<Instant> CREATED_AT = field(name("created_at"), SQLDataType.INSTANT);
  public static final Field<Instant> UPDATED_AT = field(name("updated_at"), SQLDataType.INSTANT);
  public static final Field<Instant> FINISHED_AT = field(name("finished_at"), SQLDataType.INSTANT);

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
  public record Held(long id, Set<String> handlers, boolean applyLegacy, int maxPerSecond, int maxBacklog,
      Condition selection, EventCursor cursor) {}

  /** Where a backfill is: the order key of the last event it visited. */
  public record EventCursor(Instant receivedAt, EventKey key) {}

  /**
   * A {@code done} event that no handler is recorded for, or that carries {@link #LEGACY_MARK}: it
   * was settled before bookkeeping began, by every handler registered then (see {@link AppliedRows}).
   */
  public Condition legacy() {
    Field<String> handler = field(name("handler"), SQLDataType.VARCHAR);
    return EventTable.STATUS.eq(StatusColumn.sql(EventStatus.DONE))
        .and(DSL.notExists(DSL.selectOne().from(applied).where(sameEvent()))
            .or(DSL.exists(DSL.selectOne().from(applied).where(sameEvent()).and(handler.eq(LEGACY_MARK)))));
  }

  /** Whether {@code key}, a {@code done} event, is legacy; inside the caller's transaction. */
  public boolean isLegacy(DSLContext tx, EventKey key) {
    return tx.fetchExists(DSL.selectOne().from(events.table()).where(EventTable.is(key)).and(legacy()));
  }

  public Condition sameEvent() {
    return field(name(events.schema(), "handler_applied", "provider")).eq(field(name(events.schema(), "event", "provider")))
        .and(field(name(events.schema(), "handler_applied", "scope")).eq(field(name(events.schema(), "event", "scope"))))
        .and(field(name(events.schema(), "handler_applied", "event_id"))
            .eq(field(name(events.schema(), "event", "event_id"))));
  }

  public static Condition selection(String provider, String type, Instant since, Instant until) {
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
    return Optional.of(new Held(r.get(ID), Set.of(r.get(HANDLERS)), appliesLegacy(r.get(LEGACY)), r.get(MAX_PER_SECOND),
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

  /**
   * Whether this node still holds the backfill, read without a lock: on Citus a visit's check of its
   * lease, the cursor being advanced after the visit's commit ({@code BackfillStep}).
   */
  public boolean holds(DSLContext tx, Held held, String owner) {
    return tx.fetchExists(DSL.selectOne().from(table)
        .where(ID.eq(held.id())).and(LEASE_OWNER.eq(owner)).and(STATUS.eq("running")));
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

  /** Whether a backfill's {@code legacy} column says to apply its handlers to legacy events. */
  public static boolean appliesLegacy(String sql) {
    return "apply".equals(sql);
  }

  /** The backfill table. */
  public Table<Record> table() {
    return table;
  }

  /** Every column of the backfill table, in the order the readers expect. */
  public static List<Field<?>> columns() {
    return COLUMNS;
  }
}
