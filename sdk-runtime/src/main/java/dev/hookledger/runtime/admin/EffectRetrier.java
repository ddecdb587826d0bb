package dev.hookledger.runtime.admin;

import static dev.hookledger.runtime.internal.outbox.EffectTable.ATTEMPTS;
import static dev.hookledger.runtime.internal.outbox.EffectTable.AVAILABLE_AT;
import static dev.hookledger.runtime.internal.outbox.EffectTable.CREATED_AT;
import static dev.hookledger.runtime.internal.outbox.EffectTable.DESTINATION;
import static dev.hookledger.runtime.internal.outbox.EffectTable.KEY;
import static dev.hookledger.runtime.internal.outbox.EffectTable.LAST_ERROR;
import static dev.hookledger.runtime.internal.outbox.EffectTable.LEASE_OWNER;
import static dev.hookledger.runtime.internal.outbox.EffectTable.LEASE_UNTIL;
import static dev.hookledger.runtime.internal.outbox.EffectTable.SCOPE;
import static dev.hookledger.runtime.internal.outbox.EffectTable.SETTLED_AT;
import static dev.hookledger.runtime.internal.outbox.EffectTable.STATUS;
import static org.jooq.impl.DSL.row;

import dev.hookledger.runtime.EffectStatus;
import dev.hookledger.runtime.internal.ledger.CitusLedger;
import dev.hookledger.runtime.internal.ledger.LedgerDsl;
import dev.hookledger.runtime.internal.ledger.LedgerTime;
import dev.hookledger.runtime.internal.outbox.EffectTable;
import dev.hookledger.runtime.internal.process.RootCause;
import java.util.List;
import java.util.UUID;
import org.jooq.Condition;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Record;
import org.jooq.Record3;
import org.jooq.Row2;
import org.jooq.SelectForUpdateStep;
import org.jooq.UpdateSetMoreStep;
import org.jooq.impl.DSL;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Puts effects back in the outbox's queue, as {@link EventRetrier} and {@link BulkRetrier} do events:
 * a dead effect pending again, due now, with {@code attempts = 0} (the destination's full budget) and
 * no lease; a failing effect backing off due now, attempts kept. Its {@code last_error} is kept until
 * the next attempt replaces it, and its attempts stay recorded. Locked first ({@code FOR UPDATE}),
 * so that a sender's claim (which skips locked rows) and the operator never both take an effect.
 *
 * <p>On a ledger distributed by Citus, which runs {@code FOR UPDATE} only on one shard, a retry by
 * selection reads the rows without a lock, as {@link BulkRetrier} does events, and the update is the
 * count: it names their keys and repeats the selection's condition, so an effect a sender claimed or
 * another operator retried in between is left out, and unless it changed exactly as many rows as
 * confirmed it is rolled back. A single effect's retry names its scope: it stays locked, on one shard.
 */
final class EffectRetrier {
  private static final Logger log = LoggerFactory.getLogger(EffectRetrier.class);
  private static final Condition DEAD = EffectTable.statusIn(List.of(EffectStatus.DEAD));
  /** Pending after a failed attempt and not due yet: backing off. */
  static final Condition BACKING_OFF = EffectTable.statusIn(List.of(EffectStatus.PENDING))
      .and(ATTEMPTS.gt(0)).and(AVAILABLE_AT.gt(LedgerTime.NOW));

  private final DSLContext db;
  private final EffectTable tables;
  private final CitusLedger citus;

  EffectRetrier(DSLContext db, EffectTable tables, CitusLedger citus) {
    this.db = db;
    this.tables = tables;
    this.citus = citus;
  }

  /**
   * Retries one effect: dead, set back to pending; failing, made due now.
   *
   * @throws OperationRefusedException if there is no such effect, or it is done, sending or due already
   */
  void retry(String scope, UUID key) {
    Field<Boolean> notDue = DSL.field(AVAILABLE_AT.gt(LedgerTime.NOW));
    Condition is = SCOPE.eq(scope).and(KEY.eq(key));
    String name = "effect " + key + (scope.isEmpty() ? "" : " (scope " + scope + ")");
    String refusal = LedgerDsl.inOwnTransaction(db, tx -> {
      Record row = tx.select(STATUS, ATTEMPTS, notDue).from(tables.effect()).where(is).forUpdate().fetchOne();
      if (row == null) {
        return "the outbox has no " + name;
      }
      EffectStatus status = EffectStatus.of(row.get(STATUS));
      if (status == EffectStatus.DEAD) {
        requeue(tx).where(is).execute();
        log.info("{} set back to pending by an operator", name);
        return null;
      }
      if (status == EffectStatus.PENDING && Boolean.TRUE.equals(row.get(notDue))) {
        tx.update(tables.effect()).set(AVAILABLE_AT, LedgerTime.NOW).where(is).execute();
        log.info("{} made due now by an operator", name);
        return null;
      }
      return switch (status) {
        case DONE -> name + " is done: its destination accepted it; only dead and failing effects are retried";
        case SENDING -> name + " is sending: a node is making an attempt now";
        default -> name + " is pending and due already: it is waiting for a sender";
      };
    });
    if (refusal != null) {
      throw new OperationRefusedException(refusal);
    }
  }

  /** How many effects {@code s} selects now. */
  int count(EffectSelection s) {
    return selected(db, s, false).size();
  }

  /**
   * Retries every effect {@code s} selects if there are exactly {@code confirmed}; else changes nothing.
   *
   * @throws OperationRefusedException if there are not, or more than {@link InboxAdmin#MAX_BULK_RETRY}
   */
  int retry(EffectSelection s, long confirmed) {
    // read before the transaction: its first reading is a transaction of its own, never nested
    boolean distributed = citus.distributed();
    return db.transactionResult(cfg -> {
      DSLContext tx = cfg.dsl();
      List<Row2<String, UUID>> keys = selected(tx, s, !distributed);
      ConfirmedCount.require(keys.size(), confirmed, s);
      if (keys.isEmpty()) {
        return 0;
      }
      Condition these = row(SCOPE, KEY).in(keys);
      boolean dead = s.group() == RetrySelection.Group.DEAD;
      int updated = dead ? requeue(tx).where(these, DEAD).execute()
          : tx.update(tables.effect()).set(AVAILABLE_AT, LedgerTime.NOW).where(these, BACKING_OFF).execute();
      // an unlocked read (Citus) may have seen a row change before this update: the exception rolls it back
      ConfirmedCount.require(updated, confirmed, s);
      log.info("{} {} {} by an operator (confirmed {})", updated, s, dead ? "set back to pending" : "made due now",
          confirmed);
      return updated;
    });
  }

  /** The keys of the selected effects, oldest enqueued first; locked with {@code lock}. */
  private List<Row2<String, UUID>> selected(DSLContext dsl, EffectSelection s, boolean lock) {
    Condition where = s.group() == RetrySelection.Group.DEAD ? DEAD : BACKING_OFF;
    if (s.destination().isPresent()) {
      where = where.and(DESTINATION.eq(s.destination().get()));
    }
    SelectForUpdateStep<Record3<String, UUID, String>> select = dsl.select(SCOPE, KEY, LAST_ERROR)
        .from(tables.effect()).where(where).orderBy(CREATED_AT).limit(ConfirmedCount.selectLimit());
    List<Record3<String, UUID, String>> rows = lock ? select.forUpdate().fetch() : select.fetch();
    ConfirmedCount.requireBounded(rows.size(), s, "destination or cause");
    // the root cause as the page and the CLI show it, so that a cause matches as listed
    return rows.stream()
        .filter(r -> s.cause().isEmpty() || r.value3() != null && RootCause.of(r.value3()).equals(s.cause().get()))
        .map(r -> row(r.value1(), r.value2()))
        .toList();
  }

  private UpdateSetMoreStep<Record> requeue(DSLContext dsl) {
    return dsl.update(tables.effect())
        .set(STATUS, EffectStatus.PENDING.displayText())
        .set(ATTEMPTS, 0)
        .set(AVAILABLE_AT, LedgerTime.NOW)
        .setNull(LEASE_OWNER)
        .setNull(LEASE_UNTIL)
        .setNull(SETTLED_AT);
  }
}
