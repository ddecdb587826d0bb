package dev.hookledger.runtime.internal.process;

import dev.hookledger.WebhookEvent;
import dev.hookledger.runtime.WebhookListener;
import dev.hookledger.runtime.internal.ledger.AfterCommitFailureRows;
import dev.hookledger.runtime.internal.ledger.LedgerDsl;
import org.jooq.DSLContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes each failed {@code afterCommit} action into the ledger's count
 * ({@link AfterCommitFailureRows}), in a transaction of its own, so that the operator's page (on any
 * node, or none) shows that an at-most-once action was lost. A failure to write is logged and
 * dropped: the event is settled either way, and the metric still counts it.
 */
public final class AfterCommitFailureLog implements WebhookListener {
  private static final Logger log = LoggerFactory.getLogger(AfterCommitFailureLog.class);

  private final DSLContext dsl;
  private final AfterCommitFailureRows rows;

  public AfterCommitFailureLog(DSLContext dsl, AfterCommitFailureRows rows) {
    this.dsl = dsl;
    this.rows = rows;
  }

  @Override
  public void afterCommitFailed(WebhookEvent event, Throwable error) {
    try {
      LedgerDsl.inOwnTransaction(dsl, tx -> {
        rows.record(tx, event.provider(), event.eventId(), RootCause.of(FailureText.of(error)));
        return null;
      });
    } catch (RuntimeException e) {
      log.warn("{} event {}: the failure of its afterCommit action was not counted in the ledger: {}",
          event.provider(), event.eventId(), e.toString());
    }
  }
}
