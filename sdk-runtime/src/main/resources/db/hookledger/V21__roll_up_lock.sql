-- hookledger ledger, version 21: a change at a time the roll-up pass is closing is counted once.
-- The pass counts the rows of the times it closes as its snapshot sees them, and the count triggers
-- count a row's change only at times before the bound they read. A transaction that changed such a
-- row (an operator's retry of an event settled seconds ago, a prune, an import) after the pass began,
-- reading the bound before the pass moved it, and committed after the pass's snapshot, was counted by
-- neither: the chart kept the row in its old minute. Now each trigger call that reads the bound first
-- takes a shared advisory lock, held to its transaction's end, and each step of the pass takes it
-- exclusively before it reads the sessions and counts (MinuteRollUp; it waits a few seconds at most,
-- else closes nothing that time): a step and such a transaction no longer overlap. Receives, claims
-- and settles write times at or after their transaction's start and return before the lock, as in
-- V20: the live path takes no lock. Runs in one transaction. Applied by WebhookRuntime.migrate()
-- (hookledger migrate) or by a Flyway of its own; the schema name "hookledger" is replaced by the
-- configured one. On a database with the citus extension the functions are replaced, and no trigger
-- calls them there.

-- V20's row function, with the lock before the bound is read.
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

  -- minute_count: only times already closed. A time at or after this transaction's start is open
  -- (the pass never closes past the oldest open transaction's start): a receive (received_at =
  -- now()) and a settle (the statement's time) stop here without reading closed_before.
  IF NOT ((received_moves AND least(OLD.received_at, NEW.received_at) < now())
          OR (settled_moves AND least(CASE WHEN was_finished THEN OLD.settled_at END,
                                      CASE WHEN is_finished THEN NEW.settled_at END) < now())) THEN
    RETURN NULL;
  END IF;
  -- Before reading the bound: wait for a roll-up step that is counting, and keep the next from
  -- closing until this transaction ends. A step counts the rows as its snapshot sees them: a change
  -- to a row at a time the step closes, made before it moved the bound and committed after its
  -- snapshot, was counted neither there nor here.
  PERFORM pg_advisory_xact_lock_shared(1751872118, 'hookledger.minute_roll_up'::regclass::oid::int);
  SELECT r.closed_before INTO closed FROM hookledger.minute_roll_up r;
  -- the minutes the row leaves (-1) and enters (+1), received and settled, of its times before
  -- closed_before (a time after it is counted by the pass, as the row is then); the common cases (an
  -- import of a row received and settled in one minute, a retry) are one insert
  old_received := CASE WHEN OLD.received_at < closed THEN date_trunc('minute', OLD.received_at) END;
  new_received := CASE WHEN NEW.received_at < closed THEN date_trunc('minute', NEW.received_at) END;
  old_settled := CASE WHEN was_finished AND OLD.settled_at < closed THEN date_trunc('minute', OLD.settled_at) END;
  new_settled := CASE WHEN is_finished AND NEW.settled_at < closed THEN date_trunc('minute', NEW.settled_at) END;
  IF old_received IS NOT DISTINCT FROM new_received THEN
    old_received := NULL;
    new_received := NULL;
  END IF;
  IF old_settled IS NOT DISTINCT FROM new_settled THEN
    old_settled := NULL;
    new_settled := NULL;
  END IF;
  IF old_received IS NULL AND old_settled IS NULL AND new_received = new_settled THEN
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

-- V20's statement function, the prune's DELETE, with the same lock.
CREATE OR REPLACE FUNCTION hookledger.count_event_statement() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  counts  boolean; -- the statement removed finished rows: status_count changes
  minutes boolean; -- it removed a row with a closed time: minute_count changes
  closed  timestamptz;
BEGIN
  IF TG_OP <> 'DELETE' THEN
    RETURN NULL;
  END IF;
  -- as in count_event_row: a delete waits for a step that is counting, and the next step for it
  PERFORM pg_advisory_xact_lock_shared(1751872118, 'hookledger.minute_roll_up'::regclass::oid::int);
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
  FROM (SELECT date_trunc('minute', received_at), 1, 0 FROM old_rows WHERE received_at < closed
        UNION ALL
        SELECT date_trunc('minute', settled_at), 0, 1 FROM old_rows
        WHERE settled_at < closed AND status NOT IN ('pending', 'processing')) AS v (m, r, s)
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

INSERT INTO hookledger.schema_version (version, description)
VALUES (21, 'count triggers wait for the roll-up step')
ON CONFLICT (version) DO NOTHING;
