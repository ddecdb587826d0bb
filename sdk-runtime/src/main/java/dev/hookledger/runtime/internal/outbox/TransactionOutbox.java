package dev.hookledger.runtime.internal.outbox;

import static java.util.Objects.requireNonNull;

import dev.hookledger.HttpEffect;
import dev.hookledger.Outbox;
import dev.hookledger.WebhookEvent;
import java.util.HashSet;
import java.util.Set;
import java.util.UUID;
import org.jooq.DSLContext;

/**
 * The {@link Outbox} of one {@code @OnEvent} method's call on one event: each {@code send} is an
 * insert in that call's transaction, keyed by the event, the method's recorded name and the effect's
 * name (or {@code #n}, the ordinal of the send). Not thread-safe, as a handler's transaction is not.
 */
final class TransactionOutbox implements Outbox {
  private final EffectWriter writer;
  private final DSLContext tx;
  private final WebhookEvent event;
  private final String handler;
  private final Runnable enqueued;
  private final Set<String> names = new HashSet<>();
  private int ordinal;

  TransactionOutbox(EffectWriter writer, DSLContext tx, WebhookEvent event, String handler, Runnable enqueued) {
    this.writer = writer;
    this.tx = tx;
    this.event = event;
    this.handler = handler;
    this.enqueued = enqueued;
  }

  @Override
  public String send(HttpEffect effect) {
    requireNonNull(effect, "effect");
    String name = name(effect.name().orElse(null));
    return enqueue(name, writer.http(effect));
  }

  @Override
  public String send(String name, Object effect) {
    requireNonNull(name, "name");
    requireNonNull(effect, "effect");
    return enqueue(name(name), writer.typed(effect, null));
  }

  @Override
  public String send(String name, Object effect, String orderingKey) {
    requireNonNull(name, "name");
    requireNonNull(effect, "effect");
    requireNonNull(orderingKey, "orderingKey");
    if (orderingKey.isEmpty()) {
      throw new IllegalArgumentException("orderingKey must not be empty");
    }
    return enqueue(name(name), writer.typed(effect, orderingKey));
  }

  /** The effect's name: the one given (unique within this call), else {@code #} and the send's ordinal. */
  private String name(String given) {
    ordinal++;
    if (given == null) {
      given = "#" + ordinal;
    } else if (given.startsWith("#") || given.isBlank()) {
      throw new IllegalArgumentException("effect name '" + given + "' must not be blank nor start with '#'"
          + " (the names of unnamed effects)");
    }
    if (!names.add(given)) {
      throw new IllegalArgumentException("effect name '" + given + "' was already sent by @OnEvent method '"
          + handler + "' for " + event + ": each effect of a handler needs a name of its own");
    }
    return given;
  }

  private String enqueue(String name, EffectWriter.Row row) {
    UUID key = EffectKeys.of(event.provider(), event.scope(), event.eventId(), handler, name);
    writer.insert(tx, event, handler, name, key, row);
    enqueued.run();
    return key.toString();
  }
}
