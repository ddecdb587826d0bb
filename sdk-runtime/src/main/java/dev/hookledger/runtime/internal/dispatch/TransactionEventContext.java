package dev.hookledger.runtime.internal.dispatch;

import static java.util.Objects.requireNonNull;

import dev.hookledger.EventContext;
import dev.hookledger.WebhookEvent;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@link EventContext} of one attempt. Collects {@code afterCommit} actions, which the
 * processor runs once the transaction has committed and drops if it rolled back.
 */
public final class TransactionEventContext implements EventContext {
  private static final Logger log = LoggerFactory.getLogger(TransactionEventContext.class);

  private final WebhookEvent event;
  private final int attempt;
  private final List<Runnable> afterCommit = new ArrayList<>(0);
  private boolean ended;

  public TransactionEventContext(WebhookEvent event, int attempt) {
    this.event = event;
    this.attempt = attempt;
  }

  @Override
  public WebhookEvent event() {
    return event;
  }

  @Override
  public int attempt() {
    return attempt;
  }

  /** A name-based UUID of (provider, scope, event id): the same on every attempt, safe in any header. */
  @Override
  public String idempotencyKey() {
    String key = event.provider() + '\n' + event.scope() + '\n' + event.eventId();
    return UUID.nameUUIDFromBytes(key.getBytes(StandardCharsets.UTF_8)).toString();
  }

  @Override
  public synchronized void afterCommit(Runnable action) {
    requireNonNull(action, "action");
    if (ended) {
      throw new IllegalStateException("afterCommit called after the transaction of " + event + " ended");
    }
    afterCommit.add(action);
  }

  /** Runs the actions after a commit; an action that throws is logged and the rest still run. */
  public void committed() {
    for (Runnable action : end()) {
      try {
        action.run();
      } catch (RuntimeException e) {
        log.warn("afterCommit action of {} failed (the event stays settled)", event, e);
      }
    }
  }

  /** Drops the actions after a rollback. */
  public void rolledBack() {
    end();
  }

  private synchronized List<Runnable> end() {
    ended = true;
    List<Runnable> actions = List.copyOf(afterCommit);
    afterCommit.clear();
    return actions;
  }
}
