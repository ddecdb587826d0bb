package dev.hookledger.runtime.internal.ledger;

import static dev.hookledger.runtime.internal.ledger.EventTable.*;
import static org.jooq.impl.DSL.row;
import static org.jooq.impl.DSL.select;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.jooq.Condition;
import org.jooq.DSLContext;
import org.jooq.Row4;
import org.jooq.impl.DSL;

/**
 * Renews the leases of attempts still running, so that a handler slower than the lease is not taken
 * over and run a second time beside itself. Fenced as every statement on a leased row: a lease
 * taken over, settled or given back is left alone. Thread-safe.
 */
public final class LeaseRenewals {
  private final DSLContext dsl;
  private final EventTable events;
  private final CitusLedger citus;

  public LeaseRenewals(DSLContext dsl, EventTable events) {
    this(dsl, events, new CitusLedger(dsl, events));
  }

  /** @param citus says whether the ledger is distributed: then each renewal goes scope by scope */
  public LeaseRenewals(DSLContext dsl, EventTable events, CitusLedger citus) {
    this.dsl = dsl;
    this.events = events;
    this.citus = citus;
  }

  /**
   * Moves {@code lease_until} (and {@code available_at}, which a claim reads for it) of each of
   * {@code leases} still held and not yet run out to {@code now() + lease}, by the database's clock, in one
   * statement. A lease that has run out is not revived: another worker may be claiming it right now,
   * and a node whose heartbeat fell that far behind is not one to trust. Rows another transaction has
   * locked are skipped, not waited for: the lock is the settling transaction's (about to clear the
   * lease) or a claim's, and a renewal that queued behind locks could deadlock with a transaction
   * locking several rows in another order. A skipped row is renewed at the next beat.
   *
   * <p>On a ledger distributed by Citus, one statement per scope, each in its own transaction: Citus
   * locks rows ({@code FOR UPDATE}) only in a query that touches one shard.
   *
   * @return how many leases were renewed
   */
  public int renew(List<Lease> leases, Duration lease) {
    if (leases.isEmpty()) {
      return 0;
    }
    if (!citus.distributed()) {
      return renew(leases, lease, DSL.noCondition());
    }
    int renewed = 0;
    for (Map.Entry<String, List<Lease>> ofScope : leases.stream()
        .collect(Collectors.groupingBy(l -> l.key().scope())).entrySet()) {
      renewed += renew(ofScope.getValue(), lease, SCOPE.eq(ofScope.getKey()));
    }
    return renewed;
  }

  private int renew(List<Lease> leases, Duration lease, Condition scope) {
    List<Row4<String, String, String, Integer>> held = leases.stream()
        .map(l -> row(l.key().provider(), l.key().scope(), l.key().eventId(), l.attempt()))
        .toList();
    return LedgerDsl.inOwnTransaction(dsl, tx -> tx.update(events.table())
        .set(LEASE_UNTIL, LedgerTime.nowPlus(lease))
        .set(AVAILABLE_AT, LedgerTime.nowPlus(lease))
        .where(scope)
        .and(row(PROVIDER, SCOPE, EVENT_ID).in(select(PROVIDER, SCOPE, EVENT_ID).from(events.table())
            .where(scope)
            .and(row(PROVIDER, SCOPE, EVENT_ID, ATTEMPTS).in(held))
            .and(LEASE_OWNER.eq(leases.get(0).owner())) // the fence; no status test: see ProcessingRows.leased
            .and(LEASE_UNTIL.gt(LedgerTime.NOW))
            .forUpdate().skipLocked()))
        .execute());
  }
}
