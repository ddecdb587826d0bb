-- hookledger ledger, version 9: status counts kept once per statement, not once per row.
-- Runs in one transaction. Applied by WebhookRuntime.migrate() (hookledger migrate) or by a Flyway of
-- its own; the schema name "hookledger" is replaced by the configured one.
--
-- V2's row triggers upsert a status_count row once per changed row. Within one transaction every
-- upsert of the same count row adds a version that the transaction itself cannot prune, and each next
-- upsert walks them all: a bulk insert (an import, bench's fill) or update of n settled rows in one
-- transaction costs O(n^2) (100,000 rows: over 10 minutes). These triggers see a statement's rows
-- as transition tables and write one aggregated upsert per provider and status, whatever n is.
-- What stays quadratic: n separate one-row statements settling rows of one provider and status in ONE
-- transaction (each statement still upserts that row once); the runtime never does that (one event
-- per transaction, or one multi-row statement per batch).
--
-- The counts are the same as V2's: finished rows (done, ignored, stale, dead) and their duplicate
-- deliveries, in the backend's stripe (pg_backend_pid() % 64); waiting rows are not counted here.
--
-- On a database with the citus extension nothing changes: V2's row triggers stay. Citus runs them on
-- each shard of the distributed event table (see db/hookledger-citus/distribute.sql), and statement
-- triggers with transition tables on a distributed table are not a path Citus is tested on here.

CREATE OR REPLACE FUNCTION hookledger.count_event_statement() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- Each arm names only the transition tables its operation has (plpgsql plans a statement when it
  -- first runs). Rows are upserted sorted by provider and status: two transactions touching the same
  -- counts lock them in the same order. Groups whose changes cancel out (a claim, a renewal, an edit
  -- of last_error) write nothing.
  IF TG_OP = 'INSERT' THEN
    INSERT INTO hookledger.status_count AS c (provider, status, stripe, events, duplicates)
    SELECT provider, status, pg_backend_pid() % 64, count(*), sum(duplicates)
    FROM new_rows
    WHERE status NOT IN ('pending', 'processing')
    GROUP BY provider, status
    ORDER BY provider, status
    ON CONFLICT (provider, status, stripe)
    DO UPDATE SET events = c.events + excluded.events, duplicates = c.duplicates + excluded.duplicates;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO hookledger.status_count AS c (provider, status, stripe, events, duplicates)
    SELECT provider, status, pg_backend_pid() % 64, -count(*), -sum(duplicates)
    FROM old_rows
    WHERE status NOT IN ('pending', 'processing')
    GROUP BY provider, status
    ORDER BY provider, status
    ON CONFLICT (provider, status, stripe)
    DO UPDATE SET events = c.events + excluded.events, duplicates = c.duplicates + excluded.duplicates;
  ELSE
    INSERT INTO hookledger.status_count AS c (provider, status, stripe, events, duplicates)
    SELECT p, s, pg_backend_pid() % 64, sum(e), sum(d)
    FROM (SELECT provider, status, -1, -duplicates FROM old_rows
          WHERE status NOT IN ('pending', 'processing')
          UNION ALL
          SELECT provider, status, 1, duplicates FROM new_rows
          WHERE status NOT IN ('pending', 'processing')) AS v (p, s, e, d)
    GROUP BY p, s
    HAVING sum(e) <> 0 OR sum(d) <> 0
    ORDER BY p, s
    ON CONFLICT (provider, status, stripe)
    DO UPDATE SET events = c.events + excluded.events, duplicates = c.duplicates + excluded.duplicates;
  END IF;
  RETURN NULL;
END
$$;

DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'citus') THEN
    RETURN;
  END IF;
  -- Replaced in this transaction: writers to the event table wait for it (CREATE TRIGGER locks the
  -- table against writes), so no change is counted twice or missed, and the counts V2 kept stay.
  DROP TRIGGER IF EXISTS event_status_count_insert ON hookledger.event;
  DROP TRIGGER IF EXISTS event_status_count_update ON hookledger.event;
  DROP TRIGGER IF EXISTS event_status_count_delete ON hookledger.event;
  DROP TRIGGER IF EXISTS event_status_count_rows_inserted ON hookledger.event;
  DROP TRIGGER IF EXISTS event_status_count_rows_updated ON hookledger.event;
  DROP TRIGGER IF EXISTS event_status_count_rows_deleted ON hookledger.event;
  -- A trigger with transition tables may not name columns (UPDATE OF ...) nor have a WHEN: each
  -- statement calls it once, and a statement that finishes nothing writes nothing.
  CREATE TRIGGER event_status_count_rows_inserted AFTER INSERT ON hookledger.event
    REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION hookledger.count_event_statement();
  CREATE TRIGGER event_status_count_rows_updated AFTER UPDATE ON hookledger.event
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION hookledger.count_event_statement();
  CREATE TRIGGER event_status_count_rows_deleted AFTER DELETE ON hookledger.event
    REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION hookledger.count_event_statement();
END
$$;

INSERT INTO hookledger.schema_version (version, description)
VALUES (9, 'statement counts')
ON CONFLICT (version) DO NOTHING;
