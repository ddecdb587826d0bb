package dev.hookledger.runtime.admin;

import static dev.hookledger.runtime.internal.ledger.EventTable.AVAILABLE_AT;
import static dev.hookledger.runtime.internal.ledger.EventTable.EVENT_ID;
import static dev.hookledger.runtime.internal.ledger.EventTable.LAST_ERROR;
import static dev.hookledger.runtime.internal.ledger.EventTable.PROVIDER;
import static dev.hookledger.runtime.internal.ledger.EventTable.RECEIVED_AT;
import static dev.hookledger.runtime.internal.ledger.EventTable.SCOPE;
import static org.jooq.impl.DSL.row;

import dev.hookledger.runtime.EventStatus;
import dev.hookledger.runtime.internal.ledger.CitusLedger;
import dev.hookledger.runtime.internal.ledger.EventTable;
import dev.hookledger.runtime.internal.ledger.LedgerTime;
import dev.hookledger.runtime.internal.process.RootCause;
import java.util.List;
import org.jooq.Condition;
import org.jooq.DSLContext;
import org.jooq.Record4;
import org.jooq.Row3;
import org.jooq.SelectForUpdateStep;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Retries the events of a {@link RetrySelection}, bound to the count the operator confirmed: in one
 * transaction the selected rows are read and locked ({@code FOR UPDATE}), counted, and, if there
 * are exactly as many as confirmed, updated by one statement naming their keys; else nothing
 * changes. The lock fences workers as a single retry does: a claim takes only due rows with
 * {@code SKIP LOCKED}, and a row a worker claimed first is no longer pending when our lock is
 * granted, so PostgreSQL's recheck leaves it out and the count no longer matches.
 *
 * <p>On a ledger distributed by Citus, which runs {@code FOR UPDATE} only on one shard, the rows are
 * read without a lock, and the update itself is the count: it names their keys and repeats the
 * selection's condition, so a row a worker claimed or another operator retried in between is left
 * out, and unless it changed exactly as many rows as confirmed it is rolled back.
 */
final class BulkRetrier {
  private static final Logger log = LoggerFactory.getLogger(BulkRetrier.class);

  private final DSLContext db;
  private final EventTable events;
  private final EventRetrier retrier;
  private final CitusLedger citus;

  BulkRetrier(DSLContext db, EventTable events, EventRetrier retrier) {
    this.db = db;
    this.events = events;
    this.retrier = retrier;
    this.citus = new CitusLedger(db, events);
  }

  /** How many events {@code s} selects now. */
  int count(RetrySelection s) {
    return selected(db, s, false).size();
  }

  /**
   * Retries every event {@code s} selects if there are exactly {@code confirmed}.
   *
   * @throws OperationRefusedException if there are not, or more than {@link InboxAdmin#MAX_BULK_RETRY}
   */
  int retry(RetrySelection s, long confirmed) {
    // read before the transaction: its first reading is a transaction of its own, never nested
    boolean distributed = citus.distributed();
    return db.transactionResult(cfg -> {
      DSLContext tx = cfg.dsl();
      List<Row3<String, String, String>> keys = selected(tx, s, !distributed);
      ConfirmedCount.require(keys.size(), confirmed, s);
      if (keys.isEmpty()) {
        return 0;
      }
      Condition these = row(PROVIDER, SCOPE, EVENT_ID).in(keys);
      int updated;
      if (s.group() == RetrySelection.Group.DEAD) {
        updated = retrier.requeueDead(tx, these.and(EventTable.statusIn(List.of(EventStatus.DEAD))));
      } else {
        retrier.recordRetries(tx, these.and(WaitingRows.BACKING_OFF));
        updated = tx.update(events.table()).set(AVAILABLE_AT, LedgerTime.NOW).where(these, WaitingRows.BACKING_OFF).execute();
      }
      // an unlocked read (Citus) may have seen a row change before this update: the exception rolls it back
      ConfirmedCount.require(updated, confirmed, s);
      log.info("{} {} {} by an operator (confirmed {})", updated, s,
          s.group() == RetrySelection.Group.DEAD ? "set back to pending" : "made due now", confirmed);
      return updated;
    });
  }

  /** The keys of the selected rows, oldest received first; locked with {@code lock}. */
  private List<Row3<String, String, String>> selected(DSLContext dsl, RetrySelection s, boolean lock) {
    Condition where = s.group() == RetrySelection.Group.DEAD
        ? EventTable.statusIn(List.of(EventStatus.DEAD)) : WaitingRows.BACKING_OFF;
    if (s.provider().isPresent()) {
      where = where.and(PROVIDER.eq(s.provider().get()));
    }
    if (s.typePattern() != null) {
      where = where.and(EventReader.typeMatches(s.typePattern()));
    }
    SelectForUpdateStep<Record4<String, String, String, String>> select = dsl.select(PROVIDER, SCOPE, EVENT_ID, LAST_ERROR)
        .from(events.table()).where(where).orderBy(RECEIVED_AT).limit(ConfirmedCount.selectLimit());
    List<Record4<String, String, String, String>> rows = lock ? select.forUpdate().fetch() : select.fetch();
    ConfirmedCount.requireBounded(rows.size(), s, "provider, type or cause");
    // the root cause is read from the error as the page and the CLI show it, so that a cause matches as listed
    return rows.stream()
        .filter(r -> s.cause().isEmpty() || r.value4() != null && RootCause.of(r.value4()).equals(s.cause().get()))
        .map(r -> row(r.value1(), r.value2(), r.value3()))
        .toList();
  }
}
