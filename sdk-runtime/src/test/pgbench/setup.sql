-- The tables of the event-shape measurement in docs/performance.md ("The same statements at the
-- database alone"), on a database already migrated by `hookledger migrate`: the hand-written peer's
-- ledger, copies of the event table with fewer indexes, and a lease table; each pre-filled with
-- 300,000 settled rows. Then, for each script here: pgbench -n -c 4 -j 2 -T 15 -f SCRIPT DATABASE
-- (ev_min.sql and ev_brin.sql are event-one-tx.sql on those copies: sed 's/hookledger\.event/ev_min/g').
-- The rows with no triggers: ALTER TABLE hookledger.event DISABLE TRIGGER USER (and ENABLE after).
SET statement_timeout = 0;
INSERT INTO hookledger.event (provider, event_id, type, body, status, settled_at, attempts)
SELECT 'github', md5('pre' || i), 't', '\x7b7d', 'done', now(), 1 FROM generate_series(1, 300000) i;

CREATE TABLE hookledger.event_lease (provider text NOT NULL, scope text NOT NULL DEFAULT '',
  event_id text NOT NULL, owner text NOT NULL, until timestamptz NOT NULL, attempt int NOT NULL,
  PRIMARY KEY (provider, scope, event_id));

CREATE TABLE hs_ledger (provider text NOT NULL, event_id text NOT NULL, body bytea NOT NULL,
  received_at timestamptz NOT NULL DEFAULT now(), status text NOT NULL DEFAULT 'pending',
  settled_at timestamptz, PRIMARY KEY (provider, event_id));
CREATE INDEX ON hs_ledger (received_at) WHERE status = 'pending';
INSERT INTO hs_ledger (provider, event_id, body, status, settled_at)
SELECT 'github', md5('pre' || i), '\x7b7d', 'done', now() FROM generate_series(1, 300000) i;

CREATE TABLE ev_min (LIKE hookledger.event INCLUDING DEFAULTS INCLUDING CONSTRAINTS);
ALTER TABLE ev_min ADD PRIMARY KEY (provider, scope, event_id);
CREATE INDEX ON ev_min (available_at) WHERE status IN ('pending', 'processing');
INSERT INTO ev_min (provider, event_id, type, body, status, settled_at, attempts)
SELECT 'github', md5('pre' || i), 't', '\x7b7d', 'done', now(), 1 FROM generate_series(1, 300000) i;

-- every index of the event table, the six keyed by time as BRIN
CREATE TABLE ev_brin (LIKE hookledger.event INCLUDING DEFAULTS INCLUDING CONSTRAINTS);
ALTER TABLE ev_brin ADD PRIMARY KEY (provider, scope, event_id);
CREATE INDEX ON ev_brin (available_at) WHERE status IN ('pending', 'processing');
CREATE INDEX ON ev_brin (event_id);
CREATE INDEX ON ev_brin USING hash (delivery_id) WHERE delivery_id IS NOT NULL;
CREATE INDEX ON ev_brin (received_at) WHERE status IN ('pending', 'processing') AND last_error IS NOT NULL
  AND (status = 'pending' AND attempts >= 1 OR status = 'processing' AND attempts >= 2);
CREATE INDEX ON ev_brin (type, received_at);
CREATE INDEX ON ev_brin (received_at, provider, scope, event_id);
CREATE INDEX ON ev_brin USING brin (received_at);
CREATE INDEX ON ev_brin USING brin (settled_at) WHERE status IN ('done', 'ignored', 'stale');
CREATE INDEX ON ev_brin USING brin (received_at) WHERE status = 'dead';
CREATE INDEX ON ev_brin USING brin (received_at) WHERE status = 'ignored';
CREATE INDEX ON ev_brin USING brin (received_at) WHERE status = 'stale';
CREATE INDEX ON ev_brin USING brin (settled_at) WHERE status = 'dead';
INSERT INTO ev_brin (provider, event_id, type, body, status, settled_at, attempts)
SELECT 'github', md5('pre' || i), 't', '\x7b7d', 'done', now(), 1 FROM generate_series(1, 300000) i;

VACUUM ANALYZE;
