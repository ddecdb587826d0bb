-- hookledger ledger, version 10: events received and settled per minute, kept as rows change, so
-- that the chart reads a few rows a minute whatever the traffic and the history. Runs in one
-- transaction. Applied by WebhookRuntime.migrate() (hookledger migrate) or by a Flyway of its own;
-- the schema name "hookledger" is replaced by the configured one.

-- V9's statement triggers, now also keeping minute_count (made below): the same one call per
-- statement, one more grouped upsert when it received or finished rows (sorted, as status_count's).
CREATE OR REPLACE FUNCTION hookledger.count_event_statement() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    -- a receive writes waiting rows: only its minute is counted
    IF EXISTS (SELECT 1 FROM new_rows WHERE status NOT IN ('pending', 'processing')) THEN
      INSERT INTO hookledger.status_count AS c (provider, status, stripe, events, duplicates)
      SELECT provider, status, pg_backend_pid() % 64, count(*), sum(duplicates)
      FROM new_rows
      WHERE status NOT IN ('pending', 'processing')
      GROUP BY provider, status
      ORDER BY provider, status
      ON CONFLICT (provider, status, stripe)
      DO UPDATE SET events = c.events + excluded.events, duplicates = c.duplicates + excluded.duplicates;
    END IF;
    INSERT INTO hookledger.minute_count AS c (minute, stripe, received, settled)
    SELECT m, pg_backend_pid() % 64, sum(r), sum(s)
    FROM (SELECT date_trunc('minute', received_at), 1, 0 FROM new_rows
          UNION ALL
          SELECT date_trunc('minute', settled_at), 0, 1 FROM new_rows
          WHERE settled_at IS NOT NULL AND status NOT IN ('pending', 'processing')) AS v (m, r, s)
    GROUP BY m
    ORDER BY m
    ON CONFLICT (minute, stripe)
    DO UPDATE SET received = c.received + excluded.received, settled = c.settled + excluded.settled;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO hookledger.status_count AS c (provider, status, stripe, events, duplicates)
    SELECT provider, status, pg_backend_pid() % 64, -count(*), -sum(duplicates)
    FROM old_rows
    WHERE status NOT IN ('pending', 'processing')
    GROUP BY provider, status
    ORDER BY provider, status
    ON CONFLICT (provider, status, stripe)
    DO UPDATE SET events = c.events + excluded.events, duplicates = c.duplicates + excluded.duplicates;
    -- A row's minutes may be counted in other backends' stripes: the stripes of each minute the
    -- statement took rows from are locked (in order), summed, less those rows, into one row of this
    -- backend's stripe, and none if nothing is left, so that a prune leaves no rows of the minutes it
    -- emptied and minute_count keeps only the minutes the ledger still holds.
    WITH gone AS (SELECT date_trunc('minute', received_at) AS m, -1 AS r, 0 AS s FROM old_rows
                  UNION ALL
                  SELECT date_trunc('minute', settled_at), 0, -1 FROM old_rows
                  WHERE settled_at IS NOT NULL AND status NOT IN ('pending', 'processing')),
    locked AS (SELECT minute, stripe FROM hookledger.minute_count
               WHERE minute IN (SELECT m FROM gone) ORDER BY minute, stripe FOR UPDATE),
    kept AS (DELETE FROM hookledger.minute_count c USING locked l
             WHERE c.minute = l.minute AND c.stripe = l.stripe
             RETURNING c.minute, c.received, c.settled)
    INSERT INTO hookledger.minute_count AS c (minute, stripe, received, settled)
    SELECT m, pg_backend_pid() % 64, sum(r), sum(s)
    FROM (SELECT minute, received, settled FROM kept UNION ALL SELECT m, r, s FROM gone) AS v (m, r, s)
    GROUP BY m
    HAVING sum(r) <> 0 OR sum(s) <> 0
    ORDER BY m
    ON CONFLICT (minute, stripe) -- another backend of this stripe wrote the minute meanwhile
    DO UPDATE SET received = c.received + excluded.received, settled = c.settled + excluded.settled;
  ELSE
    -- a claim, a renewal, a reschedule: waiting rows before and after, the same minute received
    -- (the runtime never changes received_at): nothing to count, said by three cheap probes
    IF NOT EXISTS (SELECT 1 FROM old_rows WHERE status NOT IN ('pending', 'processing'))
       AND NOT EXISTS (SELECT 1 FROM new_rows WHERE status NOT IN ('pending', 'processing'))
       AND NOT EXISTS (SELECT 1 FROM old_rows o JOIN new_rows n USING (provider, scope, event_id)
                       WHERE o.received_at IS DISTINCT FROM n.received_at) THEN
      RETURN NULL;
    END IF;
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
    -- a claim or a renewal changes neither minute: both sides cancel out and nothing is written
    INSERT INTO hookledger.minute_count AS c (minute, stripe, received, settled)
    SELECT m, pg_backend_pid() % 64, sum(r), sum(s)
    FROM (SELECT date_trunc('minute', received_at), -1, 0 FROM old_rows
          UNION ALL
          SELECT date_trunc('minute', settled_at), 0, -1 FROM old_rows
          WHERE settled_at IS NOT NULL AND status NOT IN ('pending', 'processing')
          UNION ALL
          SELECT date_trunc('minute', received_at), 1, 0 FROM new_rows
          UNION ALL
          SELECT date_trunc('minute', settled_at), 0, 1 FROM new_rows
          WHERE settled_at IS NOT NULL AND status NOT IN ('pending', 'processing')) AS v (m, r, s)
    GROUP BY m
    HAVING sum(r) <> 0 OR sum(s) <> 0
    ORDER BY m
    ON CONFLICT (minute, stripe)
    DO UPDATE SET received = c.received + excluded.received, settled = c.settled + excluded.settled;
  END IF;
  RETURN NULL;
END
$$;

CREATE OR REPLACE FUNCTION hookledger.clear_minute_count() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM hookledger.minute_count;
  RETURN NULL;
END
$$;

-- On Citus, V9 left V2's row triggers in place: no minute_count is made there, and the chart reads
-- the event table's indexes, as before (the reader looks for the table).
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'citus') THEN
    RETURN;
  END IF;
  -- Per minute: rows received in it (by received_at, any status) and rows finished in it (by
  -- settled_at, of done, ignored, stale and dead rows), in the backend's stripe (pg_backend_pid() % 64)
  -- as status_count, so that concurrent writers of one minute do not wait for each other's commits.
  -- Always equal to a count of the event rows (a prune or a retry takes its rows back out); a
  -- minute whose rows are all gone is deleted, so the table holds the minutes the ledger still holds.
  CREATE TABLE IF NOT EXISTS hookledger.minute_count (
    minute    timestamptz NOT NULL,
    stripe    smallint    NOT NULL,
    received  bigint      NOT NULL DEFAULT 0,
    settled   bigint      NOT NULL DEFAULT 0,
    PRIMARY KEY (minute, stripe)
  );
  LOCK TABLE hookledger.event IN SHARE ROW EXCLUSIVE MODE;
  DROP TRIGGER IF EXISTS event_minute_count_truncate ON hookledger.event;
  CREATE TRIGGER event_minute_count_truncate AFTER TRUNCATE ON hookledger.event
    FOR EACH STATEMENT EXECUTE FUNCTION hookledger.clear_minute_count();
  -- The counts of the rows already there: one grouped scan, now. The lock above holds writes to the
  -- event table until this transaction commits (writers then run the function replaced above), so
  -- no change is counted twice or missed.
  DELETE FROM hookledger.minute_count;
  INSERT INTO hookledger.minute_count (minute, stripe, received, settled)
  SELECT m, 0, sum(r), sum(s)
  FROM (SELECT date_trunc('minute', received_at), 1, 0 FROM hookledger.event
        UNION ALL
        SELECT date_trunc('minute', settled_at), 0, 1 FROM hookledger.event
        WHERE settled_at IS NOT NULL AND status NOT IN ('pending', 'processing')) AS v (m, r, s)
  GROUP BY m;
END
$$;

INSERT INTO hookledger.schema_version (version, description)
VALUES (10, 'minute counts')
ON CONFLICT (version) DO NOTHING;
