-- hookledger ledger, version 14: the counts of inserted and updated rows kept by row triggers that
-- append one change row each, folded by the roll-up pass; the live path's one-row statements back to
-- V8's cost, every bulk statement linear. Runs in one transaction. Applied by WebhookRuntime.migrate()
-- (hookledger migrate) or by a Flyway of its own; the schema name "hookledger" is replaced by the
-- configured one.
--
-- V9/V13's statement triggers (transition tables, one plpgsql call per statement) cost every receive,
-- claim and settle: trigger time per event of the three live statements (pgbench, 4 clients) V8 0.15-
-- 0.18 ms, V13 0.38-0.46 ms. V2's row triggers with WHEN cost a receive and a claim nothing, but their
-- upserts of one count row chain its versions within a transaction: a bulk statement of n finished
-- rows is O(n^2) (100,000 rows: over 10 minutes). From here on:
-- - INSERT and UPDATE: row triggers whose WHEN skips waiting rows (a receive of pending rows, a claim,
--   a renewal, a retry's reschedule call nothing). A row that finishes, unfinishes or changes a
--   finished row's counts APPENDS one status_count row in a stripe of its own (64 and up, from a
--   sequence) instead of upserting its backend's stripe: no row is written twice in a transaction, so
--   n rows cost n appends (linear), and a reader adds up the stripes as before. A row whose received
--   or settled minute is already closed (minute_roll_up.closed_before: an import of old rows, a retry
--   of an old dead event) appends its correction to minute_count the same way; a settle's minute is
--   the statement's, never closed, and reads nothing.
-- - DELETE (a prune batch): V9/V13's statement trigger (one grouped upsert per statement), its
--   emptied minutes now found through minute_count's key.
-- - The roll-up pass (MinuteRollUp, every 30 s in each running runtime, one node at a time) folds the
--   appended rows into stripe 0 (fold_count_changes, bounded batches): a reader adds up, between two
--   passes, the changes of up to 30 s more (at 500 settles/s, 15,000 status_count rows).
-- Counts stay exact: the appended rows are counts like any stripe, and a fold moves them in one
-- transaction.
--
-- Measured (PostgreSQL 15, this project's 2-core machine under other builds' load; the sdk-runtime
-- README's ledger section has every figure): trigger time per event of the live statements, pgbench
-- 4 clients 15 s alternating, V8 0.12/0.18 ms, V13 0.38/0.44 ms, V14 0.12/0.11 ms. Bulk statements
-- are linear but cost more per row than V13's one grouped upsert (a plpgsql call and one or two
-- appends per row): an import of 1,000 / 10,000 / 100,000 finished rows in closed minutes 0.15 /
-- 1.2 / 6.9 s (V13 0.06 / 0.6 / 2.6 s), a retry of as many dead rows 0.28 / 2.2 / 10.1 s (V13 0.08 /
-- 1.0 / 4.6 s), their fold 0.03 / 0.5 / 2.3 s. Where no runtime runs, nothing folds: the appended
-- rows wait for the next pass, and every read of status_count adds them up meanwhile.
--
-- On a database with the citus extension nothing changes: V2's row triggers stay (see V9).

-- One call per row that changes the counts. Its rows' stripes come from the sequence, so that a
-- bulk statement never writes the same count row twice: each append is an insert of a new key.
CREATE OR REPLACE FUNCTION hookledger.count_event_row() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  was_finished boolean := TG_OP = 'UPDATE' AND OLD.status NOT IN ('pending', 'processing');
  is_finished  boolean := NEW.status NOT IN ('pending', 'processing');
  received_moves boolean := TG_OP = 'INSERT' OR OLD.received_at IS DISTINCT FROM NEW.received_at;
  settled_moves  boolean := was_finished IS DISTINCT FROM is_finished
                            OR (is_finished AND OLD.settled_at IS DISTINCT FROM NEW.settled_at);
  closed timestamptz;
  old_received timestamptz;
  new_received timestamptz;
  old_settled  timestamptz;
  new_settled  timestamptz;
BEGIN
  -- status_count: the row's side that is finished, or both
  IF NOT was_finished THEN
    IF is_finished THEN
      INSERT INTO hookledger.status_count (provider, status, stripe, events, duplicates)
      VALUES (NEW.provider, NEW.status, nextval('hookledger.count_change'), 1, NEW.duplicates);
    END IF;
  ELSIF NOT is_finished THEN
    INSERT INTO hookledger.status_count (provider, status, stripe, events, duplicates)
    VALUES (OLD.provider, OLD.status, nextval('hookledger.count_change'), -1, -OLD.duplicates);
  ELSIF OLD.provider = NEW.provider AND OLD.status = NEW.status THEN
    IF OLD.duplicates IS DISTINCT FROM NEW.duplicates THEN
      INSERT INTO hookledger.status_count (provider, status, stripe, events, duplicates)
      VALUES (NEW.provider, NEW.status, nextval('hookledger.count_change'), 0, NEW.duplicates - OLD.duplicates);
    END IF;
  ELSE
    INSERT INTO hookledger.status_count (provider, status, stripe, events, duplicates)
    VALUES (OLD.provider, OLD.status, nextval('hookledger.count_change'), -1, -OLD.duplicates),
           (NEW.provider, NEW.status, nextval('hookledger.count_change'), 1, NEW.duplicates);
  END IF;

  -- minute_count: only minutes already closed. A minute at or after this transaction's start is
  -- open (the pass never closes past the oldest open transaction's start): a receive (received_at
  -- = now()) and a settle (the statement's time) stop here without reading closed_before.
  IF NOT ((received_moves AND least(OLD.received_at, NEW.received_at) < now())
          OR (settled_moves AND least(CASE WHEN was_finished THEN OLD.settled_at END,
                                      CASE WHEN is_finished THEN NEW.settled_at END) < now())) THEN
    RETURN NULL;
  END IF;
  SELECT r.closed_before INTO closed FROM hookledger.minute_roll_up r;
  -- the minutes the row leaves (-1) and enters (+1), received and settled, then those closed; the
  -- common cases (an import of a row received and settled in one minute, a retry) are one insert
  old_received := date_trunc('minute', OLD.received_at);
  new_received := date_trunc('minute', NEW.received_at);
  old_settled := CASE WHEN was_finished THEN date_trunc('minute', OLD.settled_at) END;
  new_settled := CASE WHEN is_finished THEN date_trunc('minute', NEW.settled_at) END;
  IF old_received IS NOT DISTINCT FROM new_received THEN
    old_received := NULL;
    new_received := NULL;
  END IF;
  IF old_settled IS NOT DISTINCT FROM new_settled THEN
    old_settled := NULL;
    new_settled := NULL;
  END IF;
  IF new_received < closed AND new_settled < closed AND old_received IS NULL AND old_settled IS NULL
     AND new_received = new_settled THEN
    INSERT INTO hookledger.minute_count (minute, stripe, received, settled)
    VALUES (new_received, nextval('hookledger.count_change'), 1, 1);
  ELSE
    INSERT INTO hookledger.minute_count (minute, stripe, received, settled)
    SELECT m, nextval('hookledger.count_change'), sum(r), sum(s)
    FROM (VALUES (old_received, -1, 0), (old_settled, 0, -1), (new_received, 1, 0), (new_settled, 0, 1)) AS v (m, r, s)
    WHERE m < closed
    GROUP BY m
    HAVING sum(r) <> 0 OR sum(s) <> 0;
  END IF;
  RETURN NULL;
END
$$;

-- V13's statement function, left to the prune's DELETE (the row triggers count inserts and updates):
-- the same grouped upserts, and the minutes a batch emptied looked up by minute_count's key
-- (minute = ANY), whatever plan a join with the transition table would get: the table holds every
-- minute of the ledger's years, plus the changes not yet folded.
CREATE OR REPLACE FUNCTION hookledger.count_event_statement() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  counts  boolean; -- the statement removed finished rows: status_count changes
  minutes boolean; -- it removed a row of a closed minute: minute_count changes
  closed  timestamptz;
BEGIN
  IF TG_OP <> 'DELETE' THEN
    RETURN NULL;
  END IF;
  SELECT r.closed_before INTO closed FROM hookledger.minute_roll_up r;
  SELECT coalesce(bool_or(f), false), coalesce(bool_or(received_at < closed OR (f AND settled_at < closed)), false)
  INTO counts, minutes
  FROM (SELECT status NOT IN ('pending', 'processing'), received_at, settled_at FROM old_rows) AS v (f, received_at, settled_at);
  IF counts THEN
    INSERT INTO hookledger.status_count AS c (provider, status, stripe, events, duplicates)
    SELECT provider, status, pg_backend_pid() % 64, -count(*), -sum(duplicates)
    FROM old_rows
    WHERE status NOT IN ('pending', 'processing')
    GROUP BY provider, status
    ORDER BY provider, status
    ON CONFLICT (provider, status, stripe)
    DO UPDATE SET events = c.events + excluded.events, duplicates = c.duplicates + excluded.duplicates;
  END IF;
  IF NOT minutes THEN
    RETURN NULL;
  END IF;
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
  WHERE minute = ANY (ARRAY(SELECT date_trunc('minute', received_at) FROM old_rows
                            UNION
                            SELECT date_trunc('minute', settled_at) FROM old_rows WHERE settled_at IS NOT NULL))
    AND received = 0 AND settled = 0;
  RETURN NULL;
END
$$;

-- Moves at most `most` appended rows of each table into stripe 0, in one transaction, and returns
-- how many it moved. Run by the roll-up pass; safe beside writers and another fold (a row deleted by
-- one is skipped by the other), sorted as every other writer of stripe 0 (the same lock order).
-- Minutes whose counts come to nothing go, as a prune's do. The rows are taken by their ctid (a TID
-- scan, whatever the statistics say): a join on the key, planned on a table analysed while small,
-- ran as a nested loop over 300,000 appended rows, quadratic.
CREATE OR REPLACE FUNCTION hookledger.fold_count_changes(most integer) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
  statuses bigint;
  minutes  bigint;
  emptied  timestamptz[];
BEGIN
  WITH gone AS (
    DELETE FROM hookledger.status_count
    WHERE ctid = ANY (ARRAY(SELECT ctid FROM hookledger.status_count WHERE stripe >= 64 LIMIT most))
    RETURNING provider, status, events, duplicates),
  folded AS (
    INSERT INTO hookledger.status_count AS c (provider, status, stripe, events, duplicates)
    SELECT provider, status, 0, sum(events), sum(duplicates) FROM gone
    GROUP BY provider, status
    ORDER BY provider, status
    ON CONFLICT (provider, status, stripe)
    DO UPDATE SET events = c.events + excluded.events, duplicates = c.duplicates + excluded.duplicates)
  SELECT count(*) INTO statuses FROM gone;

  WITH gone AS (
    DELETE FROM hookledger.minute_count
    WHERE ctid = ANY (ARRAY(SELECT ctid FROM hookledger.minute_count WHERE stripe >= 64 LIMIT most))
    RETURNING minute, received, settled),
  folded AS (
    INSERT INTO hookledger.minute_count AS c (minute, stripe, received, settled)
    SELECT minute, 0, sum(received), sum(settled) FROM gone
    GROUP BY minute
    ORDER BY minute
    ON CONFLICT (minute, stripe)
    DO UPDATE SET received = c.received + excluded.received, settled = c.settled + excluded.settled
    RETURNING c.minute, c.received, c.settled)
  SELECT (SELECT count(*) FROM gone), (SELECT array_agg(minute) FROM folded WHERE received = 0 AND settled = 0)
  INTO minutes, emptied;
  -- after the statement that emptied them (a row is not written twice in one statement)
  DELETE FROM hookledger.minute_count
  WHERE minute = ANY (emptied) AND stripe = 0 AND received = 0 AND settled = 0;
  RETURN statuses + minutes;
END
$$;

DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'citus') THEN
    RETURN;
  END IF;
  -- The event table first, then the count tables, as every writer takes them (a statement on event,
  -- then its triggers' writes to the counts): the other way round, this transaction held the count
  -- tables while waiting for event, and a handler's transaction that had locked its row and then
  -- settled it waited for the counts: a deadlock, when upgraded under traffic. ACCESS EXCLUSIVE at
  -- once, the mode the DROP TRIGGERs below need, so that no weaker lock is upgraded later.
  LOCK TABLE hookledger.event IN ACCESS EXCLUSIVE MODE;
  -- Stripes 0-63 are V2's (one per backend) and the pass's (0); appended changes take the next
  -- ones, each its own: wider than V2's smallint
  CREATE SEQUENCE IF NOT EXISTS hookledger.count_change AS bigint START 64 MINVALUE 64 CACHE 100;
  ALTER TABLE hookledger.status_count ALTER COLUMN stripe TYPE bigint;
  ALTER TABLE hookledger.minute_count ALTER COLUMN stripe TYPE bigint;
  -- the fold finds the appended minutes without reading the years of minutes in stripe 0
  CREATE INDEX IF NOT EXISTS minute_count_changes ON hookledger.minute_count (minute, stripe) WHERE stripe >= 64;
  -- Replaced in this transaction: writers to the event table wait for it (locked above), so no change
  -- is counted twice or missed. DELETE keeps V9's statement
  -- trigger (count_event_statement, replaced above).
  DROP TRIGGER IF EXISTS event_status_count_rows_inserted ON hookledger.event;
  DROP TRIGGER IF EXISTS event_status_count_rows_updated ON hookledger.event;
  DROP TRIGGER IF EXISTS event_status_count_insert ON hookledger.event;
  DROP TRIGGER IF EXISTS event_status_count_update ON hookledger.event;
  -- V2's trigger names, so that distribute.sql's drop of V2's triggers (a ledger given the extension
  -- later) drops these too. An insert of waiting rows received now calls nothing.
  CREATE TRIGGER event_status_count_insert AFTER INSERT ON hookledger.event
    FOR EACH ROW WHEN (NEW.status NOT IN ('pending', 'processing') OR NEW.received_at < now())
    EXECUTE FUNCTION hookledger.count_event_row();
  -- claims (pending to processing), renewals and retries' reschedules: no call
  CREATE TRIGGER event_status_count_update
    AFTER UPDATE OF provider, status, duplicates, received_at, settled_at ON hookledger.event
    FOR EACH ROW
    WHEN (OLD.received_at IS DISTINCT FROM NEW.received_at
          OR ((OLD.status NOT IN ('pending', 'processing') OR NEW.status NOT IN ('pending', 'processing'))
              AND (OLD.provider IS DISTINCT FROM NEW.provider OR OLD.status IS DISTINCT FROM NEW.status
                   OR OLD.duplicates IS DISTINCT FROM NEW.duplicates
                   OR OLD.settled_at IS DISTINCT FROM NEW.settled_at)))
    EXECUTE FUNCTION hookledger.count_event_row();
END
$$;

INSERT INTO hookledger.schema_version (version, description)
VALUES (14, 'row counts')
ON CONFLICT (version) DO NOTHING;
