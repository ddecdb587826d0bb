package dev.hookledger.runtime.inbox;

import dev.hookledger.EventContext;
import dev.hookledger.OnEvent;
import org.jooq.DSLContext;

/**
 * A handler added after events were stored: one row in {@code backfilled} per application (not
 * idempotent, so two rows for one event show it applied twice). Fails its first application to an
 * event whose id ends in {@code -fails} ({@code EventContext.attempt()} is 1 in a backfill).
 */
public final class BackfillAudit {
  static final String NAME = "audit.backfilled";

  private final String node;

  public BackfillAudit(String node) {
    this.node = node;
  }

  @OnEvent(value = "job.count", name = NAME)
  void audit(EventContext context, DSLContext tx) {
    if (context.event().eventId().endsWith("-fails") && context.attempt() == 1) {
      throw new IllegalStateException("audit fails on its first attempt");
    }
    tx.execute("insert into backfilled (event_id, node) values (?, ?)", context.event().eventId(), node);
  }
}
