package dev.hookledger.runtime.internal.dispatch;

import dev.hookledger.EventContext;
import dev.hookledger.Outbox;
import dev.hookledger.WebhookEvent;
import java.sql.Connection;
import org.jooq.DSLContext;

/**
 * What the handlers of one event may receive, for one attempt inside one transaction: the event, the
 * transaction's {@code DSLContext} and JDBC connection, the {@link EventContext} and the
 * {@link Outbox} of the method being called.
 */
public final class Invocation {
  private final WebhookEvent event;
  private final DSLContext tx;
  private final TransactionEventContext context;
  private Connection connection;

  public Invocation(WebhookEvent event, DSLContext tx, TransactionEventContext context) {
    this.event = event;
    this.tx = tx;
    this.context = context;
  }

  public WebhookEvent event() {
    return event;
  }

  public DSLContext tx() {
    return tx;
  }

  public TransactionEventContext context() {
    return context;
  }

  /** The outbox of the {@code @OnEvent} method being called. */
  Outbox outbox() {
    return context.outbox();
  }

  /** The transaction's connection, wrapped so that a handler cannot end the transaction. */
  Connection connection() {
    if (connection == null) {
      connection = TransactionConnection.wrap(tx.configuration().connectionProvider().acquire());
    }
    return connection;
  }
}
