package dev.hookledger.runtime.internal.process;

import dev.hookledger.WebhookEvent;
import dev.hookledger.runtime.internal.ledger.EntityVersions;
import java.time.Clock;
import org.jooq.DSLContext;

/**
 * The ordering guard of the ledger: an event is stale when its entity already has a newer version
 * recorded in {@code entity_version}; otherwise its version is recorded, in the processing
 * transaction, so a rollback undoes it. Events without an entity key or version are never stale.
 */
public final class EntityVersionGuard implements OrderingGuard {
  private final EntityVersions versions;
  private final Clock clock;

  public EntityVersionGuard(EntityVersions versions, Clock clock) {
    this.versions = versions;
    this.clock = clock;
  }

  @Override
  public boolean isStale(DSLContext tx, WebhookEvent event) {
    if (event.entityKey().isEmpty() || event.entityVersion().isEmpty()) {
      return false;
    }
    return !versions.advance(tx, event.provider(), event.entityKey().get(), event.entityVersion().getAsLong(),
        event.eventId(), clock.instant());
  }
}
