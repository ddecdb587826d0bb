-- The tables of the settle-without-index-writes measurement in docs/performance.md ("A settle that
-- writes no index entry"), after setup.sql: copies of the event table with no btree over a column
-- that a settle changes (status, settled_at, the lease), so that PostgreSQL can update the row in
-- place (HOT); the waiting rows, which the event table's waiting index finds today, in a narrow
-- table of their own. Each pre-filled with 300,000 settled rows. Scripts: event-leased-insert.sql
-- (the event table as it is), hot-settle*.sql (these copies).
SET statement_timeout = 0;

-- the event table's columns and its indexes that no settle changes; fillfactor leaves room on each
-- page for the settled version of the rows inserted there
CREATE TABLE ev_hot (LIKE hookledger.event INCLUDING DEFAULTS INCLUDING CONSTRAINTS) WITH (fillfactor = 80);
ALTER TABLE ev_hot ADD PRIMARY KEY (provider, scope, event_id);
CREATE INDEX ON ev_hot (event_id);
CREATE INDEX ON ev_hot USING hash (delivery_id) WHERE delivery_id IS NOT NULL;
CREATE INDEX ON ev_hot (type, received_at);
CREATE INDEX ON ev_hot (received_at, provider, scope, event_id);
CREATE INDEX ON ev_hot USING brin (settled_at);
INSERT INTO ev_hot (provider, event_id, type, body, status, settled_at, attempts)
SELECT 'github', md5('pre' || i), 't', '\x7b7d', 'done', now(), 1 FROM generate_series(1, 300000) i;

-- the waiting rows: what the event table's waiting index holds, as rows of their own
CREATE TABLE ev_due (provider text NOT NULL, scope text NOT NULL DEFAULT '', event_id text NOT NULL,
  available_at timestamptz NOT NULL DEFAULT now(), PRIMARY KEY (provider, scope, event_id));
CREATE INDEX ON ev_due (available_at);

VACUUM ANALYZE ev_hot;
VACUUM ANALYZE ev_due;
