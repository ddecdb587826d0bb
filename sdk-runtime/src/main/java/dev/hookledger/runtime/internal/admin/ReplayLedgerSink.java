package dev.hookledger.runtime.internal.admin;

import static dev.hookledger.runtime.internal.admin.LedgerTables.*;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.hookledger.WebhookEvent;
import dev.hookledger.internal.Json;
import dev.hookledger.spi.ReplaySink;
import java.time.Clock;
import java.time.Instant;
import org.jooq.DSLContext;
import org.jooq.JSONB;

/**
 * Records events fetched by a replay source: {@code INSERT ... ON CONFLICT DO NOTHING} on the
 * ledger key, {@code source = 'replay'}, {@code status = 'pending'}, no secret id, so that an
 * event already received (or replayed before) is skipped and a new one waits for the workers.
 * Counts what it recorded and skipped; not thread-safe (one per replay).
 */
public final class ReplayLedgerSink implements ReplaySink {
  private final DSLContext db;
  private final LedgerTables tables;
  private final Clock clock;
  private final String provider;
  private int recorded;
  private int alreadyReceived;

  public ReplayLedgerSink(DSLContext db, LedgerTables tables, Clock clock, String provider) {
    this.db = db;
    this.tables = tables;
    this.clock = clock;
    this.provider = provider;
  }

  @Override
  public boolean offer(WebhookEvent event) {
    if (!event.provider().equals(provider)) {
      throw new IllegalArgumentException("a replay source for " + provider + " offered an event of provider "
          + event.provider() + ": " + event);
    }
    Instant now = clock.instant();
    int inserted = db.insertInto(tables.event())
        .set(PROVIDER, event.provider())
        .set(SCOPE, event.scope())
        .set(EVENT_ID, event.eventId())
        .set(TYPE, event.type())
        .set(API_VERSION, event.apiVersion().orElse(null))
        .set(ENTITY_KEY, event.entityKey().orElse(null))
        .set(ENTITY_VERSION, event.entityVersion().isPresent() ? event.entityVersion().getAsLong() : null)
        .set(OCCURRED_AT, event.occurredAt().orElse(null))
        .set(LIVEMODE, event.livemode().orElse(null))
        .set(DELIVERY_ID, event.deliveryId().orElse(null))
        .set(BODY, event.body())
        .set(PAYLOAD, event.payloadWrapped() ? event.payloadJson() : null)
        .set(HEADERS, headers(event))
        .setNull(SECRET_ID)
        .set(SIGNED_AT, event.signedAt().orElse(null))
        .set(SOURCE, "replay")
        .set(STATUS, PENDING)
        .set(AVAILABLE_AT, now)
        .set(RECEIVED_AT, now)
        .onConflictDoNothing()
        .execute();
    if (inserted == 1) {
      recorded++;
      return true;
    }
    alreadyReceived++;
    return false;
  }

  /**
   * Whether the ledger has this event, so that a redelivering source (GitHub) does not ask the
   * provider to send again what was already received.
   */
  @Override
  public boolean alreadyReceived(String provider, String scope, String eventId) {
    boolean known = db.fetchExists(db.selectOne().from(tables.event())
        .where(PROVIDER.eq(provider)).and(SCOPE.eq(scope)).and(EVENT_ID.eq(eventId)));
    if (known) {
      alreadyReceived++;
    }
    return known;
  }

  /** Events that were new and now wait for a worker. */
  public int recorded() {
    return recorded;
  }

  /** Events the ledger already had. */
  public int alreadyReceived() {
    return alreadyReceived;
  }

  private static JSONB headers(WebhookEvent event) {
    try {
      return JSONB.valueOf(Json.MAPPER.writeValueAsString(HeaderRedaction.strip(event.headers())));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("headers of " + event + " cannot be written as JSON", e);
    }
  }
}
