package dev.hookledger.runtime.internal.process;

import dev.hookledger.WebhookEvent;
import dev.hookledger.runtime.internal.ledger.EntityVersions;
import java.time.Clock;
import java.util.function.Predicate;
import org.jooq.DSLContext;

/**
 * The ordering guard of the ledger: an event is stale when its entity already has a newer version
 * recorded in {@code entity_version}; otherwise its version is recorded, in the processing
 * transaction, so a rollback undoes it. Events without an entity key or version are never stale.
 * On Citus the versions of an entity whose events all carry one scope (as the provider's adapter
 * says) are kept under that scope, on the event's own shard.
 */
public final class EntityVersionGuard implements OrderingGuard {
  private final EntityVersions versions;
  private final Clock clock;
  private final Predicate<String> entitiesStayInScope;

  /** @param entitiesStayInScope by provider id: whether its entities' events all carry one scope */
  public EntityVersionGuard(EntityVersions versions, Clock clock, Predicate<String> entitiesStayInScope) {
    this.versions = versions;
    this.clock = clock;
    this.entitiesStayInScope = entitiesStayInScope;
  }

  @Override
  public boolean isStale(DSLContext tx, WebhookEvent event) {
    if (event.entityKey().isEmpty() || event.entityVersion().isEmpty()) {
      return false;
    }
    String scope = entitiesStayInScope.test(event.provider()) ? event.scope() : "";
    return !versions.advance(tx, scope, event.provider(), event.entityKey().get(), event.entityVersion().getAsLong(),
        event.eventId(), clock.instant());
  }
}
