-- hookledger ledger, version 13: the per-minute roll-up kept by a periodic pass over closed minutes,
-- not by a trigger on every statement. Runs in one transaction. Applied by WebhookRuntime.migrate()
-- (hookledger migrate) or by a Flyway of its own; the schema name "hookledger" is replaced by the
-- configured one.
--
-- V10's statement triggers upserted minute_count on every receive and every settle: with V9 they
-- cost 0.45 ms of trigger time per event against V2's 0.18 ms, and a database-only loop of the live
-- statements ran at 0.8x. From here on:
-- - minute_count holds the minutes before minute_roll_up.closed_before, each exactly a count of the
--   event rows (received by received_at, finished by settled_at), in stripe 0;
-- - a running runtime's roll-up pass (MinuteRollUp, every 30 s, one node at a time) counts the
--   minutes from closed_before to a minute before the oldest open transaction, from the event
--   table's indexes, and moves closed_before on: it catches up after any downtime, and a pass that
--   fails or runs twice changes nothing (one transaction, the pointer moved with the counts);
-- - the chart reads minute_count before closed_before and index ranges of the event table from it
--   to now (the open minutes, a few);
-- - the statement trigger keeps status_count as V9 did, and touches minute_count only for rows whose
--   received or settled minute is already closed (a prune, a retry of an old dead event, a bulk
--   import of old rows): the live path's receives, claims and settles write their open minute, and
--   the trigger only reads closed_before.

CREATE OR REPLACE FUNCTION hookledger.count_event_statement() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  counts  boolean; -- the statement finished, unfinished or removed finished rows: status_count changes
  minutes boolean; -- it touched a row in a closed minute: minute_count may change
  closed  timestamptz;
BEGIN
  -- The closed minutes' bound, then one probe a statement. A receive (waiting rows, now),
  -- a claim or a renewal (waiting rows) stops here; a settle adds its status count. received_at is
  -- compared on both sides of an update: a settle of an event received in a closed minute runs the
  -- minute query below, whose two sides cancel out and write nothing.
  SELECT r.closed_before INTO closed FROM hookledger.minute_roll_up r;
  IF TG_OP = 'INSERT' THEN
    SELECT coalesce(bool_or(f), false), coalesce(bool_or(received_at < closed OR (f AND settled_at < closed)), false)
    INTO counts, minutes
    FROM (SELECT status NOT IN ('pending', 'processing'), received_at, settled_at FROM new_rows) AS v (f, received_at, settled_at);
  ELSIF TG_OP = 'DELETE' THEN
    SELECT coalesce(bool_or(f), false), coalesce(bool_or(received_at < closed OR (f AND settled_at < closed)), false)
    INTO counts, minutes
    FROM (SELECT status NOT IN ('pending', 'processing'), received_at, settled_at FROM old_rows) AS v (f, received_at, settled_at);
  ELSE
    SELECT coalesce(bool_or(f), false), coalesce(bool_or(received_at < closed OR (f AND settled_at < closed)), false)
    INTO counts, minutes
    FROM (SELECT status NOT IN ('pending', 'processing'), received_at, settled_at FROM old_rows
          UNION ALL
          SELECT status NOT IN ('pending', 'processing'), received_at, settled_at FROM new_rows) AS v (f, received_at, settled_at);
  END IF;

  -- status_count: V9's grouped upserts, sorted by provider and status (the same lock order for all)
  IF counts AND TG_OP = 'INSERT' THEN
    INSERT INTO hookledger.status_count AS c (provider, status, stripe, events, duplicates)
    SELECT provider, status, pg_backend_pid() % 64, count(*), sum(duplicates)
    FROM new_rows
    WHERE status NOT IN ('pending', 'processing')
    GROUP BY provider, status
    ORDER BY provider, status
    ON CONFLICT (provider, status, stripe)
    DO UPDATE SET events = c.events + excluded.events, duplicates = c.duplicates + excluded.duplicates;
  ELSIF counts AND TG_OP = 'DELETE' THEN
    INSERT INTO hookledger.status_count AS c (provider, status, stripe, events, duplicates)
    SELECT provider, status, pg_backend_pid() % 64, -count(*), -sum(duplicates)
    FROM old_rows
    WHERE status NOT IN ('pending', 'processing')
    GROUP BY provider, status
    ORDER BY provider, status
    ON CONFLICT (provider, status, stripe)
    DO UPDATE SET events = c.events + excluded.events, duplicates = c.duplicates + excluded.duplicates;
  ELSIF counts THEN
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

  -- minute_count: only the closed minutes of the rows (a prune, a retry of an old dead event, a bulk
  -- import of old rows), in stripe 0, sorted by minute
  IF NOT minutes THEN
    RETURN NULL;
  END IF;
  IF TG_OP = 'INSERT' THEN
    INSERT INTO hookledger.minute_count AS c (minute, stripe, received, settled)
    SELECT m, 0, sum(r), sum(s)
    FROM (SELECT date_trunc('minute', received_at), 1, 0 FROM new_rows
          UNION ALL
          SELECT date_trunc('minute', settled_at), 0, 1 FROM new_rows
          WHERE settled_at IS NOT NULL AND status NOT IN ('pending', 'processing')) AS v (m, r, s)
    WHERE m < closed
    GROUP BY m
    ORDER BY m
    ON CONFLICT (minute, stripe)
    DO UPDATE SET received = c.received + excluded.received, settled = c.settled + excluded.settled;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO hookledger.minute_count AS c (minute, stripe, received, settled)
    SELECT m, 0, -sum(r), -sum(s)
    FROM (SELECT date_trunc('minute', received_at), 1, 0 FROM old_rows
          UNION ALL
          SELECT date_trunc('minute', settled_at), 0, 1 FROM old_rows
          WHERE settled_at IS NOT NULL AND status NOT IN ('pending', 'processing')) AS v (m, r, s)
    WHERE m < closed
    GROUP BY m
    ORDER BY m
    ON CONFLICT (minute, stripe)
    DO UPDATE SET received = c.received + excluded.received, settled = c.settled + excluded.settled;
    -- a prune empties whole minutes: their rows go, so that the table holds the minutes the ledger holds
    DELETE FROM hookledger.minute_count
    WHERE received = 0 AND settled = 0
      AND minute IN (SELECT date_trunc('minute', received_at) FROM old_rows
                     UNION
                     SELECT date_trunc('minute', settled_at) FROM old_rows WHERE settled_at IS NOT NULL);
  ELSE
    INSERT INTO hookledger.minute_count AS c (minute, stripe, received, settled)
    SELECT m, 0, sum(r), sum(s)
    FROM (SELECT date_trunc('minute', received_at), -1, 0 FROM old_rows
          UNION ALL
          SELECT date_trunc('minute', settled_at), 0, -1 FROM old_rows
          WHERE settled_at IS NOT NULL AND status NOT IN ('pending', 'processing')
          UNION ALL
          SELECT date_trunc('minute', received_at), 1, 0 FROM new_rows
          UNION ALL
          SELECT date_trunc('minute', settled_at), 0, 1 FROM new_rows
          WHERE settled_at IS NOT NULL AND status NOT IN ('pending', 'processing')) AS v (m, r, s)
    WHERE m < closed
    GROUP BY m
    HAVING sum(r) <> 0 OR sum(s) <> 0
    ORDER BY m
    ON CONFLICT (minute, stripe)
    DO UPDATE SET received = c.received + excluded.received, settled = c.settled + excluded.settled;
  END IF;
  RETURN NULL;
END
$$;

-- On Citus nothing changes: V9 kept V2's row triggers, V10 made no minute_count, and the chart
-- reads the event table's indexes there (the reader and the pass look for minute_roll_up).
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'citus') THEN
    RETURN;
  END IF;
  -- One row: the minutes before closed_before are in minute_count.
  CREATE TABLE IF NOT EXISTS hookledger.minute_roll_up (
    one           boolean     PRIMARY KEY DEFAULT true CHECK (one),
    closed_before timestamptz NOT NULL
  );
  -- Writers wait (they run the function replaced above once this commits). V10's triggers counted
  -- every row written so far into minute_count, exactly, in stripes: those before this minute are
  -- kept, summed into stripe 0, and this minute on is left to the pass.
  LOCK TABLE hookledger.event IN SHARE ROW EXCLUSIVE MODE;
  IF NOT EXISTS (SELECT 1 FROM hookledger.minute_roll_up) THEN
    INSERT INTO hookledger.minute_roll_up (closed_before) VALUES (date_trunc('minute', now()));
    CREATE TEMP TABLE rolled_up_minutes ON COMMIT DROP AS
      SELECT minute, sum(received) AS received, sum(settled) AS settled
      FROM hookledger.minute_count
      WHERE minute < date_trunc('minute', now())
      GROUP BY minute
      HAVING sum(received) <> 0 OR sum(settled) <> 0;
    DELETE FROM hookledger.minute_count;
    INSERT INTO hookledger.minute_count (minute, stripe, received, settled)
    SELECT minute, 0, received, settled FROM rolled_up_minutes;
  END IF;
END
$$;

INSERT INTO hookledger.schema_version (version, description)
VALUES (13, 'minute roll up')
ON CONFLICT (version) DO NOTHING;
