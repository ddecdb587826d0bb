package dev.hookledger.runtime.internal.outbox;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hookledger.HttpEffect;
import dev.hookledger.Outbox;
import dev.hookledger.WebhookEvent;
import dev.hookledger.internal.Json;
import dev.hookledger.runtime.Destination;
import dev.hookledger.runtime.internal.dispatch.Outboxes;
import dev.hookledger.runtime.internal.ledger.RenderedSql;
import java.util.UUID;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.impl.DSL;

/**
 * Writes effects into the handlers' transactions: one {@link TransactionOutbox} per
 * {@code @OnEvent} call, each {@code send} one insert {@code ON CONFLICT DO NOTHING} on the effect's
 * key, so that a handler run again (a retry after a rollback cannot have left a row; a backfill or a
 * forced run over an event whose effects committed can) enqueues nothing twice. After a commit that
 * enqueued effects, {@link #committed} wakes this node's senders at once. Thread-safe.
 */
public final class EffectWriter implements Outboxes {
  private final EffectTable table;
  private final Destinations destinations;
  private final ObjectMapper mapper;
  private final String insert;
  private final String lockKey;
  private volatile Runnable wake = () -> {};

  public EffectWriter(String schema, Destinations destinations, ObjectMapper mapper) {
    this.table = new EffectTable(schema);
    this.destinations = destinations;
    this.mapper = mapper;
    // rendered once from the row's one definition; each send binds its values in the same order
    this.insert = RenderedSql.render(RenderedSql.renderer().insertInto(table.effect())
        .columns(EffectTable.ROW.stream().<Field<?>>map(EffectTable.Written::field).toList())
        .values(EffectTable.ROW.stream().<Field<?>>map(c -> DSL.val(null, c.field().getDataType())).toList())
        .onConflict(EffectTable.SCOPE, EffectTable.KEY).doNothing(), EffectTable.ROW.size());
    // two transactions enqueuing for one ordering key take their seq in commit order: the later one
    // waits here for the earlier one's commit (see V15's seq)
    this.lockKey = "select pg_advisory_xact_lock(hashtextextended(?, 15))";
  }

  /** What to run after a commit that enqueued effects (the sender pool's wake-up, or a notification). */
  public void onCommit(Runnable wake) {
    this.wake = wake;
  }

  /** The outbox of one {@code @OnEvent} call; {@code enqueued} is told of each effect it writes. */
  @Override
  public Outbox open(DSLContext tx, WebhookEvent event, String handler, Runnable enqueued) {
    return new TransactionOutbox(this, tx, event, handler, enqueued);
  }

  /** After the commit of a transaction that enqueued effects: they are due now. */
  @Override
  public void committed() {
    wake.run();
  }

  /** An effect's columns besides its key and event. */
  record Row(String kind, String destination, String method, String url, String headers, byte[] body,
      String contentType, String payloadType, String orderingKey) {}

  Row http(HttpEffect e) {
    String url;
    if (e.url().isPresent()) {
      url = e.url().get().toString();
    } else {
      Destination d = destinations.named(e.destination()).orElseThrow(() -> new IllegalArgumentException(
          "HttpEffect to destination '" + e.destination() + "': no such destination (register it with"
              + " WebhookRuntime.builder().destination(Destination.named(\"" + e.destination() + "\").url(...)))"));
      if (d.url().isEmpty()) {
        throw new IllegalArgumentException("HttpEffect to destination '" + e.destination()
            + "': the destination has no url (it is an EffectHandler's; give it one with Destination.url(...))");
      }
      url = e.path().orElseThrow();
    }
    return new Row("http", e.destination(), e.method(), url, json(e.headers()), e.body(),
        e.contentType().orElse(null), null, e.orderingKey().orElse(null));
  }

  Row typed(Object effect, String orderingKey) {
    EffectHandlerRegistration<?> h = destinations.handlerFor(effect.getClass()).orElseThrow(() ->
        new IllegalArgumentException("no EffectHandler is registered for " + effect.getClass().getName()
            + " (register one with WebhookRuntime.builder().effectHandler(destination, "
            + effect.getClass().getSimpleName() + ".class, handler))"));
    byte[] body;
    try {
      body = mapper.writeValueAsBytes(effect);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("cannot write " + effect.getClass().getName() + " as JSON: "
          + Json.describe(e), e);
    }
    return new Row("typed", h.destination(), null, null, "{}", body, "application/json", h.type().getName(),
        orderingKey);
  }

  void insert(DSLContext tx, WebhookEvent event, String handler, String name, UUID key, Row r) {
    if (r.orderingKey() != null) {
      EffectTable.rows(tx, lockKey, r.destination() + '\n' + r.orderingKey());
    }
    NewEffect e = new NewEffect(event, handler, name, key, r);
    EffectTable.update(tx, insert, EffectTable.ROW.stream().map(c -> c.value().apply(e)).toArray());
  }

  private static String json(Object value) {
    try {
      return Json.MAPPER.writeValueAsString(value);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }
}
