package dev.hookledger.runtime.internal.ledger;

import static org.jooq.impl.DSL.excluded;
import static org.jooq.impl.DSL.field;
import static org.jooq.impl.DSL.name;
import static org.jooq.impl.DSL.val;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Instant;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Record;
import org.jooq.Table;
import org.jooq.impl.DSL;
import org.jooq.impl.SQLDataType;

/**
 * The {@code entity_version} table: the newest version applied per entity, advanced inside the
 * processing transaction so that it commits or rolls back with the handlers' writes. On a ledger
 * distributed by Citus the table is distributed by {@code scope}, co-located with the events
 * ({@code db/hookledger-citus/distribute.sql}): an entity whose events all carry one scope is kept
 * under that scope, on the event's own shard; one whose events span scopes under the scope {@code ''},
 * one row for all of them. Thread-safe.
 */
public final class EntityVersions {
  private static final Field<String> SCOPE = field(name("scope"), SQLDataType.VARCHAR);
  private static final Field<String> PROVIDER = field(name("provider"), SQLDataType.VARCHAR);
  private static final Field<String> ENTITY_KEY = field(name("entity_key"), SQLDataType.VARCHAR);
  private static final Field<Long> VERSION = field(name("version"), SQLDataType.BIGINT);
  private static final Field<String> EVENT_ID = field(name("event_id"), SQLDataType.VARCHAR);
  private static final Field<Instant> UPDATED_AT = field(name("updated_at"), SQLDataType.INSTANT);

  private final CitusLedger citus;
  private final String advanceSql;
  private final String advanceInScopeSql;

  public EntityVersions(String schema, CitusLedger citus) {
    this.citus = citus;
    Table<Record> table = DSL.table(name(schema, "entity_version"));
    Field<Long> storedVersion = field(name(schema, "entity_version", "version"), SQLDataType.BIGINT);
    this.advanceSql = RenderedSql.render(RenderedSql.renderer().insertInto(table)
        .set(PROVIDER, val(""))
        .set(ENTITY_KEY, val(""))
        .set(VERSION, val(0L))
        .set(EVENT_ID, val(""))
        .set(UPDATED_AT, val((Instant) null, UPDATED_AT))
        .onConflict(PROVIDER, ENTITY_KEY)
        .doUpdate()
        .set(VERSION, excluded(VERSION))
        .set(EVENT_ID, excluded(EVENT_ID))
        .set(UPDATED_AT, excluded(UPDATED_AT))
        .where(storedVersion.le(excluded(VERSION)))
        .returningResult(VERSION), 5);
    this.advanceInScopeSql = RenderedSql.render(RenderedSql.renderer().insertInto(table)
        .set(PROVIDER, val(""))
        .set(ENTITY_KEY, val(""))
        .set(VERSION, val(0L))
        .set(EVENT_ID, val(""))
        .set(UPDATED_AT, val((Instant) null, UPDATED_AT))
        .set(SCOPE, val(""))
        .onConflict(SCOPE, PROVIDER, ENTITY_KEY)
        .doUpdate()
        .set(VERSION, excluded(VERSION))
        .set(EVENT_ID, excluded(EVENT_ID))
        .set(UPDATED_AT, excluded(UPDATED_AT))
        .where(storedVersion.le(excluded(VERSION)))
        .returningResult(VERSION), 6);
  }

  /**
   * Records {@code version} as the entity's newest unless a newer one is already recorded:
   * {@code INSERT ... ON CONFLICT (provider, entity_key) DO UPDATE ... WHERE version <= excluded.version
   * RETURNING}. An equal version advances too (ties cannot be ordered, so they are not stale). The row
   * stays locked until {@code tx} ends, so concurrent events of one entity are decided one at a time.
   *
   * @param scope on a distributed ledger, where the entity's versions are kept: the event's scope
   *     for an entity whose events all carry it, else {@code ""}; unused on plain PostgreSQL
   * @return false if a newer version is recorded: the event is stale
   */
  public boolean advance(DSLContext tx, String scope, String provider, String entityKey, long version, String eventId,
      Instant now) {
    boolean inScope = citus.distributed();
    return tx.connectionResult(c -> {
      try (PreparedStatement ps = c.prepareStatement(inScope ? advanceInScopeSql : advanceSql)) {
        ps.setString(1, provider);
        ps.setString(2, entityKey);
        ps.setLong(3, version);
        ps.setString(4, eventId);
        RenderedSql.setInstant(ps, 5, now);
        if (inScope) {
          ps.setString(6, scope);
        }
        try (ResultSet rs = ps.executeQuery()) {
          return rs.next();
        }
      }
    });
  }
}
