-- hookledger ledger, version 22: status_count kept like minute_count, by the roll-up, so that a live
-- settle writes no count row and calls no function. Until now every settle appended a status_count
-- row from a plpgsql row trigger (46 us a settle, the row and its index entries in the WAL; at the
-- database alone a ledger with the count triggers off settled 0.82x of a hand-written table's rate, as
-- it is 0.74x). From here on:
-- - status_count counts a finished row once its settled_at is before minute_roll_up.closed_before
--   (or has none): the count triggers count only such times, as they already do for minute_count;
-- - the roll-up pass, as it moves closed_before on, adds the finished rows settled in the times it
--   closes, from the settled-at indexes, through a trigger on minute_roll_up (count_closed_statuses):
--   so a runtime of the version before, whose pass moves the bound the same way, counts them too;
-- - a reader adds the finished rows settled since closed_before to status_count's sums, in the same
--   statement (one snapshot): a few seconds of settles where a pass runs every 10 s.
-- The triggers' WHEN clauses now skip a row whose finished side's time is the transaction's own
-- (a settle's statement time, an INLINE insert's now()): the pass counts those times later, and the
-- live path calls no plpgsql at all. A change to a row settled before the transaction began (a
-- duplicate's counter, a retry, an import, a prune) is counted as before; at a time the pass may be
-- closing it first takes V21's lock. Runs in one transaction. Applied by WebhookRuntime.migrate()
-- (hookledger migrate) or by a Flyway of its own; the schema name "hookledger" is replaced by the
-- configured one. On a database with the citus extension the functions are replaced, and no trigger
-- calls them there (V2's row triggers keep its counts).

-- V21's row function: the status part counts a finished side at a closed time only. A side's time is
-- closed if it is null or before closed_before, open if at or after this transaction's start (the
-- pass never closes past it), else the bound is read: first without the lock (a time before the bound
-- read is closed for good: the bound only moves on, and a step counts from the bound it moves), and
-- only for a time at or after it with V21's lock, which waits for a step that is counting.
CREATE OR REPLACE FUNCTION hookledger.count_event_row() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  was_finished boolean := TG_OP = 'UPDATE' AND OLD.status NOT IN ('pending', 'processing');
  is_finished  boolean := NEW.status NOT IN ('pending', 'processing');
  received_moves boolean := TG_OP = 'INSERT' OR OLD.received_at IS DISTINCT FROM NEW.received_at;
  settled_moves  boolean := was_finished IS DISTINCT FROM is_finished
                            OR (is_finished AND OLD.settled_at IS DISTINCT FROM NEW.settled_at);
  -- the times this change may count at, those before this transaction's start (null: none)
  earliest timestamptz;
  closed timestamptz;
  old_counted boolean;
  new_counted boolean;
  old_received timestamptz;
  new_received timestamptz;
  old_settled  timestamptz;
  new_settled  timestamptz;
BEGIN
  earliest := least(CASE WHEN received_moves AND OLD.received_at < now() THEN OLD.received_at END,
                    CASE WHEN received_moves AND NEW.received_at < now() THEN NEW.received_at END,
                    CASE WHEN was_finished AND OLD.settled_at < now() THEN OLD.settled_at END,
                    CASE WHEN is_finished AND NEW.settled_at < now() THEN NEW.settled_at END);
  IF earliest IS NOT NULL THEN
    SELECT r.closed_before INTO closed FROM hookledger.minute_roll_up r;
    IF greatest(CASE WHEN received_moves AND OLD.received_at < now() THEN OLD.received_at END,
                CASE WHEN received_moves AND NEW.received_at < now() THEN NEW.received_at END,
                CASE WHEN was_finished AND OLD.settled_at < now() THEN OLD.settled_at END,
                CASE WHEN is_finished AND NEW.settled_at < now() THEN NEW.settled_at END) >= closed THEN
      -- as in V21: wait for a step that is counting, and keep the next from closing until this
      -- transaction ends, then read the bound again
      PERFORM pg_advisory_xact_lock_shared(1751872118, 'hookledger.minute_roll_up'::regclass::oid::int);
      SELECT r.closed_before INTO closed FROM hookledger.minute_roll_up r;
    END IF;
  END IF;

  -- status_count: the finished sides at closed times; the others are the pass's, as the row is then
  old_counted := was_finished AND (OLD.settled_at IS NULL OR OLD.settled_at < closed);
  new_counted := is_finished AND (NEW.settled_at IS NULL OR NEW.settled_at < closed);
  IF old_counted AND new_counted AND OLD.provider = NEW.provider AND OLD.status = NEW.status THEN
    IF OLD.duplicates IS DISTINCT FROM NEW.duplicates THEN
      INSERT INTO hookledger.status_count (provider, status, stripe, events, duplicates)
      VALUES (NEW.provider, NEW.status, nextval('hookledger.count_change'), 0, NEW.duplicates - OLD.duplicates);
    END IF;
  ELSIF old_counted AND new_counted THEN
    INSERT INTO hookledger.status_count (provider, status, stripe, events, duplicates)
    VALUES (OLD.provider, OLD.status, nextval('hookledger.count_change'), -1, -OLD.duplicates),
           (NEW.provider, NEW.status, nextval('hookledger.count_change'), 1, NEW.duplicates);
  ELSIF old_counted THEN
    INSERT INTO hookledger.status_count (provider, status, stripe, events, duplicates)
    VALUES (OLD.provider, OLD.status, nextval('hookledger.count_change'), -1, -OLD.duplicates);
  ELSIF new_counted THEN
    INSERT INTO hookledger.status_count (provider, status, stripe, events, duplicates)
    VALUES (NEW.provider, NEW.status, nextval('hookledger.count_change'), 1, NEW.duplicates);
  END IF;

  -- minute_count: as V21, the minutes the row leaves (-1) and enters (+1) of its closed times
  IF closed IS NULL THEN
    RETURN NULL;
  END IF;
  old_received := CASE WHEN received_moves AND OLD.received_at < closed THEN date_trunc('minute', OLD.received_at) END;
  new_received := CASE WHEN received_moves AND NEW.received_at < closed THEN date_trunc('minute', NEW.received_at) END;
  old_settled := CASE WHEN settled_moves AND was_finished AND OLD.settled_at < closed THEN date_trunc('minute', OLD.settled_at) END;
  new_settled := CASE WHEN settled_moves AND is_finished AND NEW.settled_at < closed THEN date_trunc('minute', NEW.settled_at) END;
  IF old_received IS NOT DISTINCT FROM new_received THEN
    old_received := NULL;
    new_received := NULL;
  END IF;
  IF old_settled IS NOT DISTINCT FROM new_settled THEN
    old_settled := NULL;
    new_settled := NULL;
  END IF;
  IF old_received IS NULL AND old_settled IS NULL AND new_received IS NULL AND new_settled IS NULL THEN
    RETURN NULL;
  ELSIF old_received IS NULL AND old_settled IS NULL AND new_received = new_settled THEN
    INSERT INTO hookledger.minute_count (minute, stripe, received, settled)
    VALUES (new_received, nextval('hookledger.count_change'), 1, 1);
  ELSE
    INSERT INTO hookledger.minute_count (minute, stripe, received, settled)
    SELECT m, nextval('hookledger.count_change'), sum(r), sum(s)
    FROM (VALUES (old_received, -1, 0), (old_settled, 0, -1), (new_received, 1, 0), (new_settled, 0, 1)) AS v (m, r, s)
    WHERE m IS NOT NULL
    GROUP BY m
    HAVING sum(r) <> 0 OR sum(s) <> 0;
  END IF;
  RETURN NULL;
END
$$;

-- V21's statement function, the prune's DELETE: status_count loses the finished rows at closed times.
CREATE OR REPLACE FUNCTION hookledger.count_event_statement() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  counts  boolean; -- the statement removed finished rows at closed times: status_count changes
  minutes boolean; -- it removed a row with a closed time: minute_count changes
  closed  timestamptz;
BEGIN
  IF TG_OP <> 'DELETE' THEN
    RETURN NULL;
  END IF;
  PERFORM pg_advisory_xact_lock_shared(1751872118, 'hookledger.minute_roll_up'::regclass::oid::int);
  SELECT r.closed_before INTO closed FROM hookledger.minute_roll_up r;
  SELECT coalesce(bool_or(f AND (settled_at IS NULL OR settled_at < closed)), false),
         coalesce(bool_or(received_at < closed OR (f AND settled_at < closed)), false)
  INTO counts, minutes
  FROM (SELECT status NOT IN ('pending', 'processing'), received_at, settled_at FROM old_rows) AS v (f, received_at, settled_at);
  IF counts THEN
    INSERT INTO hookledger.status_count AS c (provider, status, stripe, events, duplicates)
    SELECT provider, status, pg_backend_pid() % 64, -count(*), -sum(duplicates)
    FROM old_rows
    WHERE status NOT IN ('pending', 'processing') AND (settled_at IS NULL OR settled_at < closed)
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
  FROM (SELECT date_trunc('minute', received_at), 1, 0 FROM old_rows WHERE received_at < closed
        UNION ALL
        SELECT date_trunc('minute', settled_at), 0, 1 FROM old_rows
        WHERE settled_at < closed AND status NOT IN ('pending', 'processing')) AS v (m, r, s)
  GROUP BY m
  ORDER BY m
  ON CONFLICT (minute, stripe)
  DO UPDATE SET received = c.received + excluded.received, settled = c.settled + excluded.settled;
  DELETE FROM hookledger.minute_count
  WHERE minute = ANY (ARRAY(SELECT date_trunc('minute', received_at) FROM old_rows
                            UNION
                            SELECT date_trunc('minute', settled_at) FROM old_rows WHERE settled_at IS NOT NULL))
    AND received = 0 AND settled = 0;
  RETURN NULL;
END
$$;

-- The pass's part: as closed_before moves on, the finished rows settled in the times it closes join
-- status_count (stripe 0, which the fold writes too: the same upsert, in provider and status order);
-- moved back (by hand), those of the times it reopens leave it, for a reader counts them again.
CREATE OR REPLACE FUNCTION hookledger.count_closed_statuses() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  sign   integer := CASE WHEN NEW.closed_before > OLD.closed_before THEN 1 ELSE -1 END;
  low    timestamptz := least(OLD.closed_before, NEW.closed_before);
  high   timestamptz := greatest(OLD.closed_before, NEW.closed_before);
BEGIN
  -- each arm spelled as a settled-at index's predicate, so that it reads that index
  INSERT INTO hookledger.status_count AS c (provider, status, stripe, events, duplicates)
  SELECT provider, status, 0, sign * count(*), sign * sum(duplicates)
  FROM (SELECT provider, status, duplicates FROM hookledger.event
        WHERE status IN ('done', 'ignored', 'stale') AND settled_at >= low AND settled_at < high
        UNION ALL
        SELECT provider, status, duplicates FROM hookledger.event
        WHERE status = 'dead' AND settled_at >= low AND settled_at < high) AS v
  GROUP BY provider, status
  ORDER BY provider, status
  ON CONFLICT (provider, status, stripe)
  DO UPDATE SET events = c.events + excluded.events, duplicates = c.duplicates + excluded.duplicates;
  RETURN NULL;
END
$$;

DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'citus') THEN
    RETURN;
  END IF;
  -- No step counts meanwhile (a step takes this lock exclusively first; one waiting gives up after a
  -- few seconds and closes nothing), then the event table as V14 took it: no writer runs until this
  -- transaction ends, so the finished rows read below are every one the old triggers counted.
  PERFORM pg_advisory_xact_lock(1751872118, 'hookledger.minute_roll_up'::regclass::oid::int);
  LOCK TABLE hookledger.event IN ACCESS EXCLUSIVE MODE;
  -- The old triggers counted every finished row; from here on those at open times are the pass's.
  INSERT INTO hookledger.status_count (provider, status, stripe, events, duplicates)
  SELECT provider, status, nextval('hookledger.count_change'), -count(*), -sum(duplicates)
  FROM hookledger.event
  WHERE status NOT IN ('pending', 'processing')
    AND settled_at >= (SELECT closed_before FROM hookledger.minute_roll_up)
  GROUP BY provider, status;
  DROP TRIGGER IF EXISTS event_status_count_insert ON hookledger.event;
  DROP TRIGGER IF EXISTS event_status_count_update ON hookledger.event;
  -- V14's, less the rows whose only counted change is at this transaction's own time: an insert of
  -- a waiting row received now, or of a finished row settled now (INLINE); a claim, a renewal, a
  -- reschedule, a settle
  CREATE TRIGGER event_status_count_insert AFTER INSERT ON hookledger.event
    FOR EACH ROW
    WHEN (NEW.received_at < now()
          OR (NEW.status NOT IN ('pending', 'processing') AND (NEW.settled_at IS NULL OR NEW.settled_at < now())))
    EXECUTE FUNCTION hookledger.count_event_row();
  CREATE TRIGGER event_status_count_update
    AFTER UPDATE OF provider, status, duplicates, received_at, settled_at ON hookledger.event
    FOR EACH ROW
    WHEN (OLD.received_at IS DISTINCT FROM NEW.received_at
          OR (((OLD.status NOT IN ('pending', 'processing') AND (OLD.settled_at IS NULL OR OLD.settled_at < now()))
               OR (NEW.status NOT IN ('pending', 'processing') AND (NEW.settled_at IS NULL OR NEW.settled_at < now())))
              AND (OLD.provider IS DISTINCT FROM NEW.provider OR OLD.status IS DISTINCT FROM NEW.status
                   OR OLD.duplicates IS DISTINCT FROM NEW.duplicates
                   OR OLD.settled_at IS DISTINCT FROM NEW.settled_at)))
    EXECUTE FUNCTION hookledger.count_event_row();
  DROP TRIGGER IF EXISTS minute_roll_up_status_count ON hookledger.minute_roll_up;
  CREATE TRIGGER minute_roll_up_status_count
    AFTER UPDATE OF closed_before ON hookledger.minute_roll_up
    FOR EACH ROW WHEN (OLD.closed_before IS DISTINCT FROM NEW.closed_before)
    EXECUTE FUNCTION hookledger.count_closed_statuses();
END
$$;

INSERT INTO hookledger.schema_version (version, description)
VALUES (22, 'status counts by the roll-up')
ON CONFLICT (version) DO NOTHING;
