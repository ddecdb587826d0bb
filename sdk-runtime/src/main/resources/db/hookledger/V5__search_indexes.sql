-- hookledger ledger, version 5: find one event by its id or its delivery's id, whatever its provider
-- and scope (list --id, the page's search). The primary key starts with provider and scope, so it
-- cannot serve an id alone. Built CONCURRENTLY, as V3's, so a large ledger keeps receiving: these
-- statements cannot run in a transaction (V5__search_indexes.sql.conf tells Flyway so). Each
-- statement is safe to run again.

CREATE INDEX CONCURRENTLY IF NOT EXISTS event_event_id_idx
  ON hookledger.event (event_id);

CREATE INDEX CONCURRENTLY IF NOT EXISTS event_delivery_id_idx
  ON hookledger.event (delivery_id)
  WHERE delivery_id IS NOT NULL;

INSERT INTO hookledger.schema_version (version, description)
VALUES (5, 'search indexes')
ON CONFLICT (version) DO NOTHING;
