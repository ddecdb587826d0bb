package dev.hookledger.runtime.internal.dispatch;

import static java.util.Objects.requireNonNull;

import dev.hookledger.EventContext;
import dev.hookledger.Outbox;
import dev.hookledger.WebhookEvent;
import dev.hookledger.runtime.WebhookListener;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.jooq.DSLContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@link EventContext} of one attempt. Collects {@code afterCommit} actions, which the
 * processor runs once the transaction has committed and drops if it rolled back, and gives each
 * {@code @OnEvent} method its own {@link Outbox} (the method's name is part of its effects' keys).
 */
public final class TransactionEventContext implements EventContext {
  private static final Logger log = LoggerFactory.getLogger(TransactionEventContext.class);

  private final WebhookEvent event;
  private final int attempt;
  private final Outboxes effects;
  private final List<Runnable> afterCommit = new ArrayList<>(0);
  private Map<String, Outbox> outboxes; // made by the first outbox() call: most attempts send nothing
  private DSLContext tx;
  private String handler;
  private boolean enqueued;
  private boolean ended;

  /** A context without an outbox (a test of routing alone). */
  public TransactionEventContext(WebhookEvent event, int attempt) {
    this(event, attempt, null);
  }

  /** @param effects opens the handlers' outboxes; null for none */
  public TransactionEventContext(WebhookEvent event, int attempt, Outboxes effects) {
    this.event = event;
    this.attempt = attempt;
    this.effects = effects;
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

  /** The outbox of the {@code @OnEvent} method now being called. */
  @Override
  public synchronized Outbox outbox() {
    if (ended) {
      throw new IllegalStateException("outbox() called after the transaction of " + event + " ended");
    }
    if (effects == null || handler == null) {
      throw new UnsupportedOperationException("no outbox here: it is given to @OnEvent methods called by a runtime");
    }
    if (outboxes == null) {
      outboxes = new HashMap<>(2);
    }
    return outboxes.computeIfAbsent(handler, h -> effects.open(tx, event, h, this::enqueued));
  }

  /** Called before each {@code @OnEvent} method of this attempt: whose outbox {@link #outbox()} gives. */
  synchronized void calling(String handlerName, DSLContext transaction) {
    this.handler = handlerName;
    this.tx = transaction;
  }

  private synchronized void enqueued() {
    enqueued = true;
  }

  /** Runs the actions after a commit; an action that throws is logged and the rest still run. */
  public void committed() {
    committed(WebhookListener.NONE);
  }

  /**
   * After the commit: hands the effects it enqueued to the senders, then runs the actions; an action
   * that throws is logged and told to {@code listener}, and the rest still run.
   */
  public void committed(WebhookListener listener) {
    boolean wake;
    synchronized (this) {
      wake = enqueued;
    }
    List<Runnable> actions = end();
    if (wake) {
      effects.committed();
    }
    for (Runnable action : actions) {
      try {
        action.run();
      } catch (RuntimeException e) {
        log.warn("afterCommit action of {} failed (the event stays settled; the action is not run again)", event, e);
        listener.afterCommitFailed(event, e);
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
