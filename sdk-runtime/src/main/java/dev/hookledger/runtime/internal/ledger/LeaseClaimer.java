package dev.hookledger.runtime.internal.ledger;

import static dev.hookledger.runtime.internal.ledger.EventTable.*;
import static org.jooq.impl.DSL.row;

import dev.hookledger.runtime.EventStatus;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.jooq.Condition;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Param;
import org.jooq.Query;
import org.jooq.Record;
import org.jooq.Result;
import org.jooq.ResultQuery;
import org.jooq.Row4;
import org.jooq.impl.DSL;
import org.jooq.impl.SQLDataType;

/**
 * Claims waiting events as leases, each claim committed before its event is processed: status
 * {@code processing}, {@code lease_owner}, {@code lease_until}, {@code attempts + 1}, and
 * {@code available_at = lease_until}, so that an expired lease is found by the same condition as a
 * pending event that is due ({@code available_at <= now()} on the partial index of waiting rows). All
 * times are the database's ({@link LedgerTime}): nodes whose clocks disagree judge leases alike.
 * Thread-safe; any number of runtimes may claim from one ledger at once. On a ledger distributed by
 * Citus ({@link CitusLedger}) a claim goes scope by scope, each a router query on one shard.
 */
public final class LeaseClaimer {
  private static final List<Field<?>> EVENT_AND_ATTEMPTS = Stream.concat(EventRows.EVENT_COLUMNS.stream(), Stream.of(ATTEMPTS))
      .toList();
  /** Whether the claimed row held an error: its success is then recorded in its history (Lease#afterFailure). */
  private static final Field<Boolean> AFTER_FAILURE = DSL.field(LAST_ERROR.isNotNull()).as("after_failure");
  private static final List<Field<?>> EVENT_ATTEMPTS_AND_LEASE = Stream.concat(EVENT_AND_ATTEMPTS.stream(),
      Stream.of(LEASE_UNTIL, AFTER_FAILURE)).toList();

  /** The size of a row's body and payload: what its event holds in memory once claimed. */
  private static final Field<Long> BODY_BYTES = DSL.field("octet_length({0}) + coalesce(octet_length({1}), 0)",
      SQLDataType.BIGINT, BODY, PAYLOAD).as("body_bytes");

  private static final List<Field<?>> DUE_COLUMNS = List.of(PROVIDER, SCOPE, EVENT_ID, STATUS, ATTEMPTS, LEASE_OWNER,
      LEASE_UNTIL, LAST_ERROR, BODY_BYTES);

  /** On Citus: the due rows a claim reads to find the scopes it claims from (see {@link #dueScopes}). */
  public static final int DUE_SCOPES_READ = 1000;

  private final DSLContext dsl;
  private final EventTable events;
  private final CitusLedger citus;
  /** {@link #dueRows} with its limit bound. */
  private final String dueSql;
  /** {@link #take} of pending rows, their keys bound as three arrays: owner, lease ms twice, providers, scopes, ids. */
  private final String takeSql;
  /** On Citus: {@link #dueSql} and {@link #takeSql} of one scope, bound last, so that each is a router query. */
  private final String dueOfScopeSql;
  private final String takeOfScopeSql;
  /** On Citus: the scopes of the due rows that waited longest, read in the waiting index's order, their number bound. */
  private final String dueScopesSql;

  public LeaseClaimer(DSLContext dsl, EventTable events) {
    this(dsl, events, new CitusLedger(dsl, events));
  }

  /** @param citus says whether the ledger is distributed: then each claim goes scope by scope */
  public LeaseClaimer(DSLContext dsl, EventTable events, CitusLedger citus) {
    this.dsl = dsl;
    this.events = events;
    this.citus = citus;
    // rendered once: jOOQ's rendering of these two statements, on every claim, was most of the
    // poller's CPU while workers were behind
    this.dueSql = RenderedSql.render(dueRows(RenderedSql.renderer(), DSL.noCondition(), DSL.val(0)), 1);
    this.takeSql = RenderedSql.render(takeDue(DSL.noCondition()), 6);
    this.dueOfScopeSql = RenderedSql.render(dueRows(RenderedSql.renderer(), SCOPE.eq(DSL.val("")), DSL.val(0)), 2);
    this.takeOfScopeSql = RenderedSql.render(takeDue(SCOPE.eq(DSL.val(""))), 7);
    this.dueScopesSql = dueScopesSql(events);
  }

  /**
   * On Citus, the statement that finds the scopes to claim from (see {@link #dueScopes}): the scope
   * of each of the {@value #DUE_SCOPES_READ} due rows due longest, those first. The limit is written
   * in the statement, not bound, so that Citus sends it on to every shard's query whatever plan the
   * coordinator caches.
   */
  public static String dueScopesSql(EventTable events) {
    return RenderedSql.render(RenderedSql.renderer().select(SCOPE)
        .from(events.table())
        .where(WAITING).and(AVAILABLE_AT.le(LedgerTime.NOW))
        .orderBy(AVAILABLE_AT)
        .limit(DSL.inline(DUE_SCOPES_READ)), 0);
  }

  private Query takeDue(Condition scope) {
    return RenderedSql.renderer().update(events.table())
        .set(STATUS, DSL.inline(StatusColumn.sql(EventStatus.PROCESSING)))
        .set(ATTEMPTS, ATTEMPTS.plus(DSL.inline(1)))
        .set(LEASE_OWNER, DSL.val(""))
        .set(LEASE_UNTIL, LedgerTime.nowPlusMillis(DSL.val(0L)))
        .set(AVAILABLE_AT, LedgerTime.nowPlusMillis(DSL.val(0L)))
        .where(DSL.condition("({0}, {1}, {2}) in (select * from unnest({3}, {4}, {5}))", PROVIDER, SCOPE, EVENT_ID,
            DSL.val(null, SQLDataType.VARCHAR.array()), DSL.val(null, SQLDataType.VARCHAR.array()),
            DSL.val(null, SQLDataType.VARCHAR.array())))
        .and(scope)
        .returningResult(EVENT_ATTEMPTS_AND_LEASE);
  }

  /** What one batch claim took, and what it set aside as {@code dead}. */
  public record Claimed(List<Lease> leases, List<Buried> buried) {
    public int size() {
      return leases.size() + buried.size();
    }
  }

  /**
   * Claims up to {@code limit} due events, oldest first, skipping rows another claim or processing
   * transaction has locked, and no more of them than fit in {@code maxBytes} of bodies (always at
   * least one): the claimed events are held in memory until processed. A row whose lease ran out
   * is taken over (its {@code last_error} says so); one that has no attempt left is set
   * {@code dead} instead.
   */
  public Claimed claim(String owner, Duration lease, int limit, int maxAttempts, long maxBytes) {
    if (!citus.distributed()) {
      return claimIn(null, owner, lease, limit, maxAttempts, maxBytes, true).claimed();
    }
    // Citus: FOR UPDATE SKIP LOCKED is refused across shards ("could not run distributed query with
    // FOR UPDATE/SHARE commands"), so each scope with due rows is claimed in a transaction of its
    // own, on its one shard; the scopes are read first, without locks, the one that waited longest first
    List<Lease> leases = new ArrayList<>();
    List<Buried> buried = new ArrayList<>();
    long bytes = 0;
    for (String scope : dueScopes(limit)) {
      Batch batch = claimIn(scope, owner, lease, limit - leases.size() - buried.size(), maxAttempts,
          maxBytes - bytes, leases.isEmpty());
      leases.addAll(batch.claimed().leases());
      buried.addAll(batch.claimed().buried());
      bytes += batch.bytes();
      if (leases.size() + buried.size() >= limit || bytes >= maxBytes) {
        break;
      }
    }
    return new Claimed(leases, buried);
  }

  /** A claim of one transaction, and the bytes of body it took. */
  private record Batch(Claimed claimed, long bytes) {}

  /**
   * The scopes that have due rows, at most {@code limit}, the one that waited longest first: the
   * scopes of the {@value #DUE_SCOPES_READ} rows due longest, each named once. Each shard reads that
   * many rows at most, in the waiting index's order; a group by scope over every due row read all of
   * them on each poll, a million after a bulk retry. A scope whose due rows all wait behind them is
   * named by a later poll, once the ones before it are claimed (a claim moves a row's due time to its
   * lease's end).
   */
  private List<String> dueScopes(int limit) {
    return LedgerDsl.inOwnTransaction(dsl, tx -> tx.connectionResult(c -> {
      try (PreparedStatement ps = c.prepareStatement(dueScopesSql)) {
        Set<String> scopes = new LinkedHashSet<>();
        try (ResultSet rs = ps.executeQuery()) {
          while (rs.next() && scopes.size() < limit) {
            scopes.add(rs.getString(1));
          }
        }
        return List.copyOf(scopes);
      }
    }));
  }

  /**
   * One claim transaction: of every scope if {@code scope} is null, else of that scope only.
   *
   * @param atLeastOne whether to take one event even if its body alone is over {@code maxBytes}
   */
  private Batch claimIn(String scope, String owner, Duration lease, int limit, int maxAttempts, long maxBytes,
      boolean atLeastOne) {
    long claimed = System.nanoTime();
    return dsl.transactionResult(cfg -> {
      DSLContext tx = cfg.dsl();
      List<Lease> leases = new ArrayList<>();
      List<Buried> buried = new ArrayList<>();
      List<EventKey> due = new ArrayList<>();
      long bytes = 0;
      for (Record r : fetchDue(tx, scope, limit)) {
        if (bytes + r.get(BODY_BYTES) > maxBytes && !(atLeastOne && leases.isEmpty() && due.isEmpty())) {
          break; // the rows not taken are unlocked at the commit, for the next claim
        }
        bytes += r.get(BODY_BYTES);
        EventKey key = new EventKey(r.get(PROVIDER), r.get(SCOPE), r.get(EVENT_ID));
        boolean abandoned = StatusColumn.sql(EventStatus.PROCESSING).equals(r.get(STATUS));
        int attempts = r.get(ATTEMPTS);
        if (attempts >= maxAttempts) {
          String reason = (abandoned ? abandoned(r) + "; " : "") + "no attempt left (" + attempts + " of " + maxAttempts + ")";
          buried.add(bury(tx, key, abandoned ? reason : r.get(LAST_ERROR), reason));
        } else if (abandoned) {
          leases.add(take(tx, is(key), owner, abandoned(r), claimed, lease).get(0));
        } else {
          due.add(key);
        }
      }
      if (!due.isEmpty()) {
        leases.addAll(takeDue(tx, scope, due, owner, claimed, lease));
      }
      return new Batch(new Claimed(leases, buried), bytes);
    });
  }

  /**
   * Gives back leases whose events were claimed but not started (a shutdown): {@code pending} again,
   * the claim's attempt not counted, due at once. A lease already taken over is left alone.
   *
   * @return how many were given back
   */
  public int release(List<Lease> leases) {
    if (leases.isEmpty()) {
      return 0;
    }
    List<Row4<String, String, String, Integer>> held = leases.stream()
        .map(l -> row(l.key().provider(), l.key().scope(), l.key().eventId(), l.attempt()))
        .toList();
    return LedgerDsl.inOwnTransaction(dsl, tx -> tx.update(events.table())
        .set(STATUS, StatusColumn.sql(EventStatus.PENDING))
        .set(ATTEMPTS, ATTEMPTS.minus(1))
        .set(AVAILABLE_AT, LedgerTime.NOW)
        .setNull(LEASE_OWNER)
        .setNull(LEASE_UNTIL)
        .where(row(PROVIDER, SCOPE, EVENT_ID, ATTEMPTS).in(held))
        .and(LEASE_OWNER.eq(leases.get(0).owner())) // the fence; no status test: see ProcessingRows.leased
        .execute());
  }

  /**
   * The select of a claim: the oldest due waiting rows, locked, skipping those another transaction
   * holds. Public so that a test can check its plan reads the partial index of waiting rows.
   */
  public ResultQuery<Record> dueRows(DSLContext tx, int limit) {
    return dueRows(tx, DSL.noCondition(), DSL.val(limit));
  }

  private ResultQuery<Record> dueRows(DSLContext tx, Condition scope, Param<Integer> limit) {
    return tx.select(DUE_COLUMNS)
        .from(events.table())
        .where(WAITING).and(AVAILABLE_AT.le(LedgerTime.NOW)).and(scope)
        .orderBy(AVAILABLE_AT)
        .limit(limit)
        .forUpdate().skipLocked();
  }

  private Result<Record> fetchDue(DSLContext tx, String scope, int limit) {
    return tx.connectionResult(c -> {
      try (PreparedStatement ps = c.prepareStatement(scope == null ? dueSql : dueOfScopeSql)) {
        if (scope == null) {
          ps.setInt(1, limit);
        } else {
          ps.setString(1, scope);
          ps.setInt(2, limit);
        }
        try (ResultSet rs = ps.executeQuery()) {
          return tx.fetch(rs, DUE_COLUMNS.toArray(Field<?>[]::new));
        }
      }
    });
  }

  /** Leases the pending rows {@code due}, which this transaction has locked. */
  private List<Lease> takeDue(DSLContext tx, String scope, List<EventKey> due, String owner, long claimedNanos,
      Duration length) {
    Result<Record> taken = tx.connectionResult(c -> {
      try (PreparedStatement ps = c.prepareStatement(scope == null ? takeSql : takeOfScopeSql)) {
        ps.setString(1, owner);
        ps.setLong(2, length.toMillis());
        ps.setLong(3, length.toMillis());
        ps.setArray(4, c.createArrayOf("text", due.stream().map(EventKey::provider).toArray()));
        ps.setArray(5, c.createArrayOf("text", due.stream().map(EventKey::scope).toArray()));
        ps.setArray(6, c.createArrayOf("text", due.stream().map(EventKey::eventId).toArray()));
        if (scope != null) {
          ps.setString(7, scope);
        }
        try (ResultSet rs = ps.executeQuery()) {
          return tx.fetch(rs, EVENT_ATTEMPTS_AND_LEASE.toArray(Field<?>[]::new));
        }
      }
    });
    return taken.map(r -> new Lease(new EventKey(r.get(PROVIDER), r.get(SCOPE), r.get(EVENT_ID)), owner,
        r.get(ATTEMPTS), r.get(LEASE_UNTIL), EventRows.toEvent(r), claimedNanos, length, r.get(AFTER_FAILURE)));
  }

  private List<Lease> take(DSLContext tx, Condition which, String owner, String lastError, long claimedNanos,
      Duration length) {
    var update = tx.update(events.table())
        .set(STATUS, StatusColumn.sql(EventStatus.PROCESSING))
        .set(ATTEMPTS, ATTEMPTS.plus(1))
        .set(LEASE_OWNER, owner)
        .set(LEASE_UNTIL, LedgerTime.nowPlus(length))
        .set(AVAILABLE_AT, LedgerTime.nowPlus(length));
    if (lastError != null) {
      update = update.set(LAST_ERROR, lastError);
    }
    return update.where(which)
        .returningResult(EVENT_ATTEMPTS_AND_LEASE)
        .fetch(r -> new Lease(new EventKey(r.get(PROVIDER), r.get(SCOPE), r.get(EVENT_ID)), owner, r.get(ATTEMPTS),
            r.get(LEASE_UNTIL), EventRows.toEvent(r), claimedNanos, length, r.get(AFTER_FAILURE)));
  }

  private Buried bury(DSLContext tx, EventKey key, String lastError, String reason) {
    Record r = tx.update(events.table())
        .set(STATUS, StatusColumn.sql(EventStatus.DEAD))
        .set(LAST_ERROR, lastError)
        .setNull(LEASE_OWNER)
        .setNull(LEASE_UNTIL)
        .where(is(key))
        .returningResult(EVENT_AND_ATTEMPTS)
        .fetchSingle();
    return new Buried(EventRows.toEvent(r), r.get(ATTEMPTS), reason);
  }

  private static String abandoned(Record r) {
    return "attempt " + r.get(ATTEMPTS) + " by " + r.get(LEASE_OWNER) + " was abandoned: its lease ran out at "
        + r.get(LEASE_UNTIL) + " (its node stopped, or lost the database, for longer than the lease)";
  }
}
