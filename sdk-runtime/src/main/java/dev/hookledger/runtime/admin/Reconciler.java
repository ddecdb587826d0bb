package dev.hookledger.runtime.admin;

import dev.hookledger.runtime.internal.ledger.EventTable;
import dev.hookledger.spi.ListedEvent;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.jooq.DSLContext;
import org.jooq.Record3;
import org.jooq.Record4;
import org.jooq.impl.DSL;

/**
 * Compares a provider's list of events for a window with the ledger, reading only: each listed event
 * is looked up by its key (whenever it was received, so that an event received just outside the
 * window is not called missing), and the ledger's events of the provider and of the scopes it listed,
 * with {@code occurred_at} (else {@code received_at}) in the window, are checked against the list.
 * Both sides are held in memory, so each is bounded: a window of more than {@link #MAX_EVENTS} events
 * on either side is refused, naming the bound, rather than read whole (the admin page also pages a
 * long window a day at a time).
 */
final class Reconciler {
  /** The most events either side of one reconcile may hold. */
  static final int MAX_EVENTS = 100_000;
  private static final int LOOKUP_BATCH = 500;

  private final EventTable events;
  private final int maxEvents;

  public Reconciler(EventTable events) {
    this(events, MAX_EVENTS);
  }

  Reconciler(EventTable events, int maxEvents) {
    this.events = events;
    this.maxEvents = maxEvents;
  }

  public ReconcileReport reconcile(DSLContext dsl, String provider, Instant since, Instant until,
      List<ListedEvent> listed) {
    if (listed.size() > maxEvents) {
      throw tooMany("the provider lists", provider, since, until);
    }
    Map<String, ListedEvent> byKey = new HashMap<>();
    listed.forEach(e -> byKey.put(key(e.scope(), e.eventId()), e));
    Map<String, String> statusOfListed = new HashMap<>();
    List<ListedEvent> all = new ArrayList<>(byKey.values());
    for (int i = 0; i < all.size(); i += LOOKUP_BATCH) {
      List<ListedEvent> batch = all.subList(i, Math.min(all.size(), i + LOOKUP_BATCH));
      for (Record3<String, String, String> r : dsl.select(EventTable.SCOPE, EventTable.EVENT_ID, EventTable.STATUS)
          .from(events.table()).where(EventTable.PROVIDER.eq(provider))
          .and(DSL.row(EventTable.SCOPE, EventTable.EVENT_ID).in(batch.stream()
              .map(e -> DSL.row(e.scope(), e.eventId())).toList()))
          .fetch()) {
        statusOfListed.put(key(r.value1(), r.value2()), r.value3());
      }
    }
    List<ReconcileReport.Entry> missing = new ArrayList<>();
    List<ReconcileReport.Entry> differing = new ArrayList<>();
    for (ListedEvent e : all) {
      String status = statusOfListed.get(key(e.scope(), e.eventId()));
      if (status == null) {
        missing.add(entry(e, null));
      } else if (e.delivery() != ListedEvent.Delivery.DELIVERED || status.equals("dead")) {
        differing.add(entry(e, status));
      }
    }
    Set<String> scopes = listed.stream().map(ListedEvent::scope).collect(Collectors.toSet());
    var window = DSL.coalesce(EventTable.OCCURRED_AT, EventTable.RECEIVED_AT);
    List<Record4<String, String, String, String>> inLedger = dsl
        .select(EventTable.SCOPE, EventTable.EVENT_ID, EventTable.TYPE, EventTable.STATUS)
        .from(events.table()).where(EventTable.PROVIDER.eq(provider))
        .and(scopes.isEmpty() ? DSL.noCondition() : EventTable.SCOPE.in(scopes))
        .and(window.ge(since)).and(window.lt(until))
        .limit(maxEvents + 1)
        .fetch();
    if (inLedger.size() > maxEvents) {
      throw tooMany("the ledger holds", provider, since, until);
    }
    List<ReconcileReport.Entry> unlisted = new ArrayList<>();
    for (Record4<String, String, String, String> r : inLedger) {
      if (!byKey.containsKey(key(r.value1(), r.value2()))) {
        unlisted.add(new ReconcileReport.Entry(r.value1(), r.value2(), r.value3(), null, null, r.value4()));
      }
    }
    Comparator<ReconcileReport.Entry> order = Comparator.comparing(ReconcileReport.Entry::scope)
        .thenComparing(ReconcileReport.Entry::eventId);
    missing.sort(order);
    unlisted.sort(order);
    differing.sort(order);
    return new ReconcileReport(provider, since, until, all.size(), inLedger.size(), missing, unlisted, differing);
  }

  private IllegalArgumentException tooMany(String side, String provider, Instant since, Instant until) {
    return new IllegalArgumentException(side + " more than " + maxEvents + " " + provider + " events from " + since
        + " to " + until + ": reconcile shorter windows");
  }

  private static ReconcileReport.Entry entry(ListedEvent e, String ledgerStatus) {
    return new ReconcileReport.Entry(e.scope(), e.eventId(), e.type(), e.delivery().name().toLowerCase(Locale.ROOT),
        e.detail(), ledgerStatus);
  }

  private static String key(String scope, String eventId) {
    return scope + '\u0000' + eventId;
  }
}
