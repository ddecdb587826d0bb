package dev.hookledger.runtime.admin;

import static dev.hookledger.runtime.internal.ledger.EventTable.EVENT_ID;
import static dev.hookledger.runtime.internal.ledger.EventTable.PROVIDER;
import static dev.hookledger.runtime.internal.ledger.EventTable.RECEIVED_AT;
import static dev.hookledger.runtime.internal.ledger.EventTable.SCOPE;
import static dev.hookledger.runtime.internal.ledger.EventTable.TYPE;
import static org.jooq.impl.DSL.noCondition;
import static org.jooq.impl.DSL.row;

import dev.hookledger.runtime.EventStatus;
import dev.hookledger.runtime.internal.admin.ListCursor;
import dev.hookledger.runtime.internal.dispatch.TypePattern;
import dev.hookledger.runtime.internal.ledger.AttemptRows;
import dev.hookledger.runtime.internal.ledger.EventKey;
import dev.hookledger.runtime.internal.ledger.EventTable;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import org.jooq.Condition;
import org.jooq.DSLContext;
import org.jooq.Table;

/** Lists events page by page and reads one in full. */
final class EventReader {
  /** Other scopes named in a "not in the ledger" refusal, at most. */
  private static final int SCOPES_NAMED = 5;

  private final DSLContext db;
  private final EventTable events;
  private final EventViews views;
  private final Duration stuckAfter;
  private final AttemptRows attempts;

  EventReader(DSLContext db, EventTable events, EventViews views, Duration stuckAfter) {
    this.attempts = new AttemptRows(events.schema());
    this.db = db;
    this.events = events;
    this.views = views;
    this.stuckAfter = stuckAfter;
  }

  /** One page, newest first, keyset-paged on (received_at, provider, scope, event_id) descending. */
  EventPage list(EventQuery query) {
    Condition where = noCondition();
    if (query.status().isPresent()) {
      where = where.and(condition(query.status().get()));
    }
    if (query.provider().isPresent()) {
      where = where.and(PROVIDER.eq(query.provider().get()));
    }
    if (query.id().isPresent()) {
      // each side its own index (schema V5): the primary key cannot serve an id without provider and scope
      where = where.and(EVENT_ID.eq(query.id().get()).or(EventTable.DELIVERY_ID.eq(query.id().get())));
    }
    if (query.typePattern().isPresent()) {
      where = where.and(typeMatches(query.typePattern().get()));
    }
    if (query.after().isPresent()) {
      ListCursor c = ListCursor.decode(query.after().get());
      where = where.and(row(RECEIVED_AT, PROVIDER, SCOPE, EVENT_ID)
          .lt(c.receivedAt(), c.provider(), c.scope(), c.eventId()));
    }
    // one more than asked, to know whether a next page exists without a count
    Condition selected = where;
    Function<DSLContext, List<EventSummary>> read = dsl -> dsl.select(views.summaryFields())
        .from(from(query))
        .where(selected)
        .orderBy(RECEIVED_AT.desc(), PROVIDER.desc(), SCOPE.desc(), EVENT_ID.desc())
        .limit(query.limit() + 1)
        .fetch(views::summary);
    // the failing and stuck lists read their own ranges, planned to stop at their limits (WaitingRows says why)
    boolean waitingGroup = query.status().filter(f -> f == StatusFilter.FAILING || f == StatusFilter.STUCK).isPresent();
    List<EventSummary> rows = new ArrayList<>(waitingGroup ? WaitingRows.inIndexOrder(db, read) : read.apply(db));
    String next = null;
    if (rows.size() > query.limit()) {
      rows.remove(rows.size() - 1);
      EventSummary last = rows.get(rows.size() - 1);
      next = new ListCursor(last.receivedAt(), last.provider(), last.scope(), last.eventId()).encode();
    }
    return new EventPage(rows, next);
  }

  /**
   * Where a page is read from: the event table; for the stuck list, the stuck rows due longest, at
   * most {@value InboxStatus#COUNTED} + 1, as {@code status} counts them. Stuck rows are found by
   * their due time (the waiting index's key) and listed newest received first: after a bulk retry
   * of a million events, all of them stuck two minutes later, the list sorted every one of them to
   * show 50; it now sorts the 10,001 due longest, and lists all the stuck ones while they are
   * no more than that.
   */
  private Table<?> from(EventQuery query) {
    if (query.status().filter(f -> f == StatusFilter.STUCK).isEmpty()) {
      return events.table();
    }
    return db.selectFrom(events.table()).where(WaitingRows.stuck(stuckAfter))
        .orderBy(EventTable.AVAILABLE_AT).limit(InboxStatus.COUNTED + 1)
        .asTable(events.table().getUnqualifiedName());
  }

  /** The event in full, if the ledger has it. */
  Optional<EventDetail> show(String provider, String scope, String eventId) {
    EventKey key = new EventKey(provider, scope, eventId);
    return db.select(views.detailFields())
        .from(events.table())
        .where(EventTable.is(key))
        .fetchOptional(views::detail)
        .map(d -> d.withAttempts(attempts.of(db, key).stream().map(a -> new EventAttempt(a.attempt(), a.node(),
            a.startedAt(), a.endedAt(), a.duration(), a.outcome(), a.cause() == null ? "" : a.cause(),
            a.error() == null ? "" : a.error())).toList()));
  }

  /**
   * Why {@code key} is not found, for a refusal: "not in the ledger", and where the same id is in
   * the ledger under other scopes (a GitHub delivery is scoped by its hook), which scope to add.
   */
  String notFound(EventKey key) {
    List<String> scopes = db.selectDistinct(SCOPE).from(events.table())
        .where(PROVIDER.eq(key.provider()), EVENT_ID.eq(key.eventId()), SCOPE.ne(key.scope()))
        .orderBy(SCOPE).limit(SCOPES_NAMED + 1).fetch(SCOPE);
    String missing = key + " is not in the ledger";
    if (scopes.isEmpty()) {
      return missing;
    }
    if (scopes.size() == 1) {
      String s = scopes.get(0);
      return missing + "; found under scope " + (s.isEmpty() ? "'' (none): drop --scope" : s + ": add --scope " + s);
    }
    List<String> named = scopes.stream().limit(SCOPES_NAMED).map(s -> s.isEmpty() ? "''" : s).toList();
    return missing + "; found under scopes " + String.join(", ", named) + (scopes.size() > SCOPES_NAMED ? ", ..." : "")
        + ": add --scope with one of them";
  }

  /** The rows whose type {@code t} matches, as {@code @OnEvent} reads a pattern. */
  static Condition typeMatches(TypePattern t) {
    // startsWith escapes % and _ in the prefix: "invoice_x.*" matches no "invoiceAx." type
    return !t.isWildcard() ? TYPE.eq(t.prefix()) : t.prefix().isEmpty() ? noCondition() : TYPE.startsWith(t.prefix());
  }

  private Condition condition(StatusFilter filter) {
    return switch (filter) {
      case WAITING -> EventTable.WAITING;
      case FAILING -> WaitingRows.FAILING;
      case STUCK -> WaitingRows.stuck(stuckAfter);
      // one status, inlined so that the partial index of its group can serve it
      default -> EventTable.statusIn(List.of(EventStatus.valueOf(filter.name())));
    };
  }
}
