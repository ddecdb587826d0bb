-- hookledger ledger, version 3: indexes that keep the operator's lists and chart off settled history.
-- Built CONCURRENTLY, so that a ledger with years of events keeps receiving while they build: these
-- statements cannot run in a transaction (V3__operator_indexes.sql.conf tells Flyway so, and
-- WebhookRuntime.migrate() reads the same file). Each statement is safe to run again.

-- list without filters (and the chart's received counts): newest first, a page at a time
CREATE INDEX CONCURRENTLY IF NOT EXISTS event_received_idx
  ON hookledger.event (received_at);

-- list --status ignored / stale: newest first within a status that may be rare. Partial, so that no
-- lookup by key is ever planned on them: a full (status, received_at) or (provider, received_at)
-- index was chosen for "provider = ? and event_id = ?" on a young table and made each write scan it.
-- Done rows are most rows: the received_at index finds a page of them at once.
CREATE INDEX CONCURRENTLY IF NOT EXISTS event_ignored_idx
  ON hookledger.event (received_at)
  WHERE status = 'ignored';

CREATE INDEX CONCURRENTLY IF NOT EXISTS event_stale_idx
  ON hookledger.event (received_at)
  WHERE status = 'stale';

-- list --type invoice.paid
CREATE INDEX CONCURRENTLY IF NOT EXISTS event_type_received_idx
  ON hookledger.event (type, received_at);

INSERT INTO hookledger.schema_version (version, description)
VALUES (3, 'operator indexes')
ON CONFLICT (version) DO NOTHING;
