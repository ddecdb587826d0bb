package dev.hookledger.runtime.admin;

import static dev.hookledger.runtime.internal.ledger.EventTable.EVENT_ID;
import static dev.hookledger.runtime.internal.ledger.EventTable.PROVIDER;
import static dev.hookledger.runtime.internal.ledger.EventTable.RECEIVED_AT;
import static dev.hookledger.runtime.internal.ledger.EventTable.SCOPE;
import static dev.hookledger.runtime.internal.ledger.EventTable.STATUS;
import static dev.hookledger.runtime.internal.ledger.EventTable.TYPE;
import static org.jooq.impl.DSL.noCondition;
import static org.jooq.impl.DSL.row;

import dev.hookledger.runtime.internal.admin.ListCursor;
import dev.hookledger.runtime.internal.ledger.EventKey;
import dev.hookledger.runtime.internal.ledger.EventTable;
import dev.hookledger.runtime.internal.ledger.StatusColumn;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.jooq.Condition;
import org.jooq.DSLContext;
import org.jooq.Field;

/** Lists events page by page and reads one in full. */
final class EventReader {
  private final DSLContext db;
  private final EventTable events;

  EventReader(DSLContext db, EventTable events) {
    this.db = db;
    this.events = events;
  }

  /** One page, newest first, keyset-paged on (received_at, provider, scope, event_id) descending. */
  EventPage list(EventQuery query) {
    Condition where = noCondition();
    if (query.status().isPresent()) {
      where = where.and(STATUS.eq(StatusColumn.sql(query.status().get())));
    }
    if (query.provider().isPresent()) {
      where = where.and(PROVIDER.eq(query.provider().get()));
    }
    if (query.type().isPresent()) {
      where = where.and(TYPE.eq(query.type().get()));
    }
    if (query.after().isPresent()) {
      ListCursor c = ListCursor.decode(query.after().get());
      where = where.and(row(RECEIVED_AT, PROVIDER, SCOPE, EVENT_ID)
          .lt(c.receivedAt(), c.provider(), c.scope(), c.eventId()));
    }
    // one more than asked, to know whether a next page exists without a count
    List<EventSummary> rows = new ArrayList<>(db.select(EventViews.SUMMARY_FIELDS)
        .from(events.table())
        .where(where)
        .orderBy(RECEIVED_AT.desc(), PROVIDER.desc(), SCOPE.desc(), EVENT_ID.desc())
        .limit(query.limit() + 1)
        .fetch(EventViews::summary));
    String next = null;
    if (rows.size() > query.limit()) {
      rows.remove(rows.size() - 1);
      EventSummary last = rows.get(rows.size() - 1);
      next = new ListCursor(last.receivedAt(), last.provider(), last.scope(), last.eventId()).encode();
    }
    return new EventPage(rows, next);
  }

  /** The event in full, if the ledger has it. */
  Optional<EventDetail> show(String provider, String scope, String eventId) {
    List<Field<?>> fields = new ArrayList<>(EventViews.SUMMARY_FIELDS);
    fields.addAll(EventViews.DETAIL_FIELDS);
    return db.select(fields)
        .from(events.table())
        .where(EventTable.is(new EventKey(provider, scope, eventId)))
        .fetchOptional(EventViews::detail);
  }
}
