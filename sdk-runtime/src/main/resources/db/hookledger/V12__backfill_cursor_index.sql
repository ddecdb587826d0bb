-- hookledger ledger, version 12: the backfill cursor's index, which V8 meant to build. V8's
-- "CREATE INDEX CONCURRENTLY IF NOT EXISTS event_received_idx" reused the name of V3's one-column
-- index on received_at, so IF NOT EXISTS skipped it on every ledger: a backfill's pages, read in
-- (received_at, provider, scope, event_id) order after its cursor, sorted the window's rows instead
-- of reading an index in order. Built CONCURRENTLY, as V3's, so a large ledger keeps receiving: this
-- statement cannot run in a transaction (V12__backfill_cursor_index.sql.conf tells Flyway so), and
-- is safe to run again. V3's index stays: the operator's reads by received_at use it, and it is the
-- smaller one to read. Applied by WebhookRuntime.migrate() (hookledger migrate) or by a Flyway of
-- its own; the schema name "hookledger" is replaced by the configured one.

CREATE INDEX CONCURRENTLY IF NOT EXISTS event_backfill_cursor_idx
  ON hookledger.event (received_at, provider, scope, event_id);

INSERT INTO hookledger.schema_version (version, description)
VALUES (12, 'backfill cursor index')
ON CONFLICT (version) DO NOTHING;
