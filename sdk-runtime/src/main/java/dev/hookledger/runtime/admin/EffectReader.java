package dev.hookledger.runtime.admin;

import static dev.hookledger.runtime.internal.outbox.EffectTable.ATTEMPT;
import static dev.hookledger.runtime.internal.outbox.EffectTable.ATTEMPTS;
import static dev.hookledger.runtime.internal.outbox.EffectTable.AVAILABLE_AT;
import static dev.hookledger.runtime.internal.outbox.EffectTable.BREAKER;
import static dev.hookledger.runtime.internal.outbox.EffectTable.CONSECUTIVE_FAILURES;
import static dev.hookledger.runtime.internal.outbox.EffectTable.CREATED_AT;
import static dev.hookledger.runtime.internal.outbox.EffectTable.DESTINATION;
import static dev.hookledger.runtime.internal.outbox.EffectTable.DURATION_MS;
import static dev.hookledger.runtime.internal.outbox.EffectTable.ENDED_AT;
import static dev.hookledger.runtime.internal.outbox.EffectTable.ERROR;
import static dev.hookledger.runtime.internal.outbox.EffectTable.EVENT_ID;
import static dev.hookledger.runtime.internal.outbox.EffectTable.HANDLER;
import static dev.hookledger.runtime.internal.outbox.EffectTable.KEY;
import static dev.hookledger.runtime.internal.outbox.EffectTable.KIND;
import static dev.hookledger.runtime.internal.outbox.EffectTable.LAST_ERROR;
import static dev.hookledger.runtime.internal.outbox.EffectTable.LAST_STATUS_CODE;
import static dev.hookledger.runtime.internal.outbox.EffectTable.METHOD;
import static dev.hookledger.runtime.internal.outbox.EffectTable.NAME;
import static dev.hookledger.runtime.internal.outbox.EffectTable.NODE;
import static dev.hookledger.runtime.internal.outbox.EffectTable.OPENED_AT;
import static dev.hookledger.runtime.internal.outbox.EffectTable.ORDERING_KEY;
import static dev.hookledger.runtime.internal.outbox.EffectTable.OUTCOME;
import static dev.hookledger.runtime.internal.outbox.EffectTable.PAUSED;
import static dev.hookledger.runtime.internal.outbox.EffectTable.PROVIDER;
import static dev.hookledger.runtime.internal.outbox.EffectTable.RESPONSE_EXCERPT;
import static dev.hookledger.runtime.internal.outbox.EffectTable.SCOPE;
import static dev.hookledger.runtime.internal.outbox.EffectTable.SETTLED_AT;
import static dev.hookledger.runtime.internal.outbox.EffectTable.STARTED_AT;
import static dev.hookledger.runtime.internal.outbox.EffectTable.STATUS;
import static dev.hookledger.runtime.internal.outbox.EffectTable.STATUS_CODE;
import static org.jooq.impl.DSL.count;
import static org.jooq.impl.DSL.inline;
import static org.jooq.impl.DSL.min;

import dev.hookledger.runtime.BreakerState;
import dev.hookledger.runtime.EffectStatus;
import dev.hookledger.runtime.internal.outbox.EffectTable;
import dev.hookledger.runtime.internal.process.RootCause;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import org.jooq.Condition;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Record;
import org.jooq.impl.DSL;

/**
 * Reads the outbox for the operator: each destination's backlog and shared state, lists of effects,
 * and an event's effects with their attempts. Counts read only waiting and dead effects (their
 * partial indexes) and the few rows of {@code destination_state}: never the effects sent.
 */
final class EffectReader {
  static final List<EffectStatus> WAITING = List.of(EffectStatus.PENDING, EffectStatus.SENDING);
  private static final Condition IS_DEAD = EffectTable.statusIn(List.of(EffectStatus.DEAD));
  private static final List<Field<?>> SUMMARY = EffectTable.SUMMARY;

  private final DSLContext db;
  private final EffectTable tables;
  private final Clock clock;
  private final Map<String, Double> rates;

  EffectReader(DSLContext db, EffectTable tables, Clock clock, Map<String, Double> rates) {
    this.db = db;
    this.tables = tables;
    this.clock = clock;
    this.rates = rates;
  }

  /** Every destination that has effects waiting or dead, state, or a configured rate; by name. */
  List<DestinationStatus> destinations() {
    Instant now = clock.instant();
    Map<String, long[]> counts = new TreeMap<>();      // pending, sending, dead
    Map<String, Instant> oldest = new TreeMap<>();
    rates.keySet().forEach(d -> counts.put(d, new long[3]));
    Field<Integer> pending = count().filterWhere(STATUS.eq(inline(EffectStatus.PENDING.displayText())));
    db.select(DESTINATION, pending, count(), min(CREATED_AT)).from(tables.effect())
        .where(EffectTable.statusIn(WAITING)).groupBy(DESTINATION)
        .forEach(r -> {
          long[] c = counts.computeIfAbsent(r.value1(), d -> new long[3]);
          c[0] = r.value2();
          c[1] = r.value3() - r.value2();
          oldest.put(r.value1(), r.value4());
        });
    db.select(DESTINATION, count()).from(tables.effect()).where(IS_DEAD).groupBy(DESTINATION)
        .forEach(r -> counts.computeIfAbsent(r.value1(), d -> new long[3])[2] = r.value2());
    Map<String, Record> states = new TreeMap<>();
    db.select(DESTINATION, BREAKER, CONSECUTIVE_FAILURES, OPENED_AT, PAUSED).from(tables.state())
        .forEach(r -> {
          states.put(r.value1(), r);
          counts.computeIfAbsent(r.value1(), d -> new long[3]);
        });
    List<DestinationStatus> out = new ArrayList<>();
    counts.forEach((d, c) -> {
      Record s = states.get(d);
      Instant o = oldest.get(d);
      Duration age = o == null || o.isAfter(now) ? Duration.ZERO : Duration.between(o, now);
      out.add(new DestinationStatus(d, c[0], c[1], c[2], age,
          s == null ? BreakerState.CLOSED : BreakerState.of(s.get(BREAKER)),
          s == null ? 0 : s.get(CONSECUTIVE_FAILURES), s == null ? null : s.get(OPENED_AT),
          s != null && Boolean.TRUE.equals(s.get(PAUSED)), rates.getOrDefault(d, 0.0)));
    });
    return out;
  }

  /** The effects {@code q} selects, newest enqueued first. */
  List<EffectSummary> list(EffectQuery q) {
    Condition where = DSL.noCondition();
    if (q.status().isPresent()) {
      where = where.and(EffectTable.statusIn(List.of(q.status().get())));
    }
    if (q.destination().isPresent()) {
      where = where.and(DESTINATION.eq(q.destination().get()));
    }
    // a cause is the root cause of the error as shown, read in Java: of at most the newest of the bound
    int read = q.cause().isPresent() ? ConfirmedCount.selectLimit() : q.limit();
    return db.select(SUMMARY).from(tables.effect()).where(where).orderBy(CREATED_AT.desc()).limit(read)
        .fetch(EffectReader::summary).stream()
        .filter(e -> q.cause().isEmpty() || q.cause().get().equals(e.cause()))
        .limit(q.limit())
        .toList();
  }

  /** The effects of one event, oldest enqueued first, each with its attempts. */
  List<EffectDetail> effectsOf(String provider, String scope, String eventId) {
    List<EffectSummary> effects = db.select(SUMMARY).from(tables.effect())
        .where(PROVIDER.eq(provider), SCOPE.eq(scope), EVENT_ID.eq(eventId))
        .orderBy(CREATED_AT, EffectTable.SEQ).fetch(EffectReader::summary);
    if (effects.isEmpty()) {
      return List.of();
    }
    Map<UUID, List<EffectAttempt>> attempts = new TreeMap<>();
    db.select(KEY, ATTEMPT, NODE, STARTED_AT, ENDED_AT, DURATION_MS, STATUS_CODE, OUTCOME, RESPONSE_EXCERPT, ERROR)
        .from(tables.attempt())
        .where(SCOPE.eq(scope), KEY.in(effects.stream().map(e -> UUID.fromString(e.idempotencyKey())).toList()))
        .orderBy(ENDED_AT, ATTEMPT)
        .forEach(r -> attempts.computeIfAbsent(r.value1(), k -> new ArrayList<>()).add(new EffectAttempt(r.value2(),
            r.value3(), r.value4(), r.value5(), Duration.ofMillis(r.value6()), r.value7(), r.value8(), r.value9(),
            r.value10())));
    return effects.stream()
        .map(e -> new EffectDetail(e, attempts.getOrDefault(UUID.fromString(e.idempotencyKey()), List.of())))
        .toList();
  }

  /** One effect, or null. */
  EffectSummary find(String scope, UUID key) {
    return db.select(SUMMARY).from(tables.effect()).where(SCOPE.eq(scope), KEY.eq(key)).fetchOne(EffectReader::summary);
  }

  private static EffectSummary summary(Record r) {
    String error = r.get(LAST_ERROR);
    String target = "http".equals(r.get(KIND)) ? r.get(METHOD) + " " + r.get(EffectTable.URL)
        : r.get(EffectTable.PAYLOAD_TYPE);
    return new EffectSummary(r.get(SCOPE), r.get(KEY).toString(), r.get(PROVIDER), r.get(EVENT_ID), r.get(HANDLER),
        r.get(NAME), r.get(KIND), r.get(DESTINATION), target, r.get(ORDERING_KEY), EffectStatus.of(r.get(STATUS)),
        r.get(ATTEMPTS), r.get(AVAILABLE_AT), r.get(LAST_STATUS_CODE), error,
        error == null || error.isEmpty() ? null : RootCause.of(error), r.get(CREATED_AT), r.get(SETTLED_AT));
  }
}
