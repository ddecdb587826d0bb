-- hookledger ledger, version 3: indexes that keep the operator's lists and chart off settled history.
-- Built CONCURRENTLY, so that a ledger with years of events keeps receiving while they build: these
-- statements cannot run in a transaction (V3__operator_indexes.sql.conf tells Flyway so, and
-- WebhookRuntime.migrate() reads the same file). Each statement is safe to run again.

-- list without filters (and the chart's received counts): newest first, a page at a time
CREATE INDEX CONCURRENTLY IF NOT EXISTS event_received_idx
  ON hookledger.event (received_at);

-- list --status done (or stale, ignored, ...): newest first within one status
CREATE INDEX CONCURRENTLY IF NOT EXISTS event_status_received_idx
  ON hookledger.event (status, received_at);

-- list --provider shopify, when most events are another provider's
CREATE INDEX CONCURRENTLY IF NOT EXISTS event_provider_received_idx
  ON hookledger.event (provider, received_at);

-- list --type invoice.paid
CREATE INDEX CONCURRENTLY IF NOT EXISTS event_type_received_idx
  ON hookledger.event (type, received_at);

INSERT INTO hookledger.schema_version (version, description)
VALUES (3, 'operator indexes')
ON CONFLICT (version) DO NOTHING;
