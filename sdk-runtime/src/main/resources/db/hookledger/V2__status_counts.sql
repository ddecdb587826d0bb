-- hookledger ledger, version 2: a recorded schema version, and status counts kept as they change.
-- Runs in one transaction. Applied by WebhookRuntime.migrate() (hookledger migrate) or by a Flyway of
-- its own; the schema name "hookledger" is replaced by the configured one.

-- One row per applied version. A ledger made by migrate() before versions were recorded is version 1:
-- it has the event table and not this one. Each later script records itself here, whoever runs it.
CREATE TABLE IF NOT EXISTS hookledger.schema_version (
  version       integer     PRIMARY KEY,
  description   text        NOT NULL,
  installed_at  timestamptz NOT NULL DEFAULT now()
);

INSERT INTO hookledger.schema_version (version, description)
VALUES (1, 'ledger'), (2, 'status counts')
ON CONFLICT (version) DO NOTHING;

-- Finished events (done, ignored, stale, dead) and their duplicate deliveries per provider and status,
-- so that status reads a few hundred rows whatever the history holds; waiting rows (pending,
-- processing) are few and counted from their partial index, so that a receive and a claim call no
-- trigger: only a settle (or a retry, a prune) does. Each backend adds to its own stripe
-- (pg_backend_pid() % 64): a single row per provider and status would be locked by every settle
-- until its commit.
CREATE TABLE IF NOT EXISTS hookledger.status_count (
  provider    text     NOT NULL,
  status      text     NOT NULL,
  stripe      smallint NOT NULL,
  events      bigint   NOT NULL DEFAULT 0,
  duplicates  bigint   NOT NULL DEFAULT 0,
  PRIMARY KEY (provider, status, stripe)
);

-- Rows of one statement are upserted sorted by status: two transactions touching the same two counts
-- then lock them in the same order.
CREATE OR REPLACE FUNCTION hookledger.count_event_status() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO hookledger.status_count AS c (provider, status, stripe, events, duplicates)
    VALUES (NEW.provider, NEW.status, pg_backend_pid() % 64, 1, NEW.duplicates)
    ON CONFLICT (provider, status, stripe)
    DO UPDATE SET events = c.events + 1, duplicates = c.duplicates + excluded.duplicates;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO hookledger.status_count AS c (provider, status, stripe, events, duplicates)
    VALUES (OLD.provider, OLD.status, pg_backend_pid() % 64, -1, -OLD.duplicates)
    ON CONFLICT (provider, status, stripe)
    DO UPDATE SET events = c.events - 1, duplicates = c.duplicates + excluded.duplicates;
  ELSE
    INSERT INTO hookledger.status_count AS c (provider, status, stripe, events, duplicates)
    SELECT p, s, pg_backend_pid() % 64, sum(e), sum(d)
    FROM (VALUES (OLD.provider, OLD.status, -1, -OLD.duplicates),
                 (NEW.provider, NEW.status, 1, NEW.duplicates)) AS v (p, s, e, d)
    WHERE s NOT IN ('pending', 'processing')
    GROUP BY p, s
    ORDER BY p, s
    ON CONFLICT (provider, status, stripe)
    DO UPDATE SET events = c.events + excluded.events, duplicates = c.duplicates + excluded.duplicates;
  END IF;
  RETURN NULL;
END
$$;

CREATE OR REPLACE FUNCTION hookledger.clear_status_count() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM hookledger.status_count;
  RETURN NULL;
END
$$;

DROP TRIGGER IF EXISTS event_status_count_insert ON hookledger.event;
CREATE TRIGGER event_status_count_insert AFTER INSERT ON hookledger.event
  FOR EACH ROW WHEN (NEW.status NOT IN ('pending', 'processing'))
  EXECUTE FUNCTION hookledger.count_event_status();

-- claims (pending to processing), renewals and retries of due events: no call
DROP TRIGGER IF EXISTS event_status_count_update ON hookledger.event;
CREATE TRIGGER event_status_count_update AFTER UPDATE OF provider, status, duplicates ON hookledger.event
  FOR EACH ROW
  WHEN ((OLD.provider IS DISTINCT FROM NEW.provider OR OLD.status IS DISTINCT FROM NEW.status
         OR OLD.duplicates IS DISTINCT FROM NEW.duplicates)
        AND (OLD.status NOT IN ('pending', 'processing') OR NEW.status NOT IN ('pending', 'processing')))
  EXECUTE FUNCTION hookledger.count_event_status();

DROP TRIGGER IF EXISTS event_status_count_delete ON hookledger.event;
CREATE TRIGGER event_status_count_delete AFTER DELETE ON hookledger.event
  FOR EACH ROW WHEN (OLD.status NOT IN ('pending', 'processing'))
  EXECUTE FUNCTION hookledger.count_event_status();

DROP TRIGGER IF EXISTS event_status_count_truncate ON hookledger.event;
CREATE TRIGGER event_status_count_truncate AFTER TRUNCATE ON hookledger.event
  FOR EACH STATEMENT EXECUTE FUNCTION hookledger.clear_status_count();

-- The counts of the rows already there: one scan, now. The triggers above hold writes to the event
-- table until this transaction commits, so no change is counted twice or missed.
DELETE FROM hookledger.status_count;
INSERT INTO hookledger.status_count (provider, status, stripe, events, duplicates)
SELECT provider, status, 0, count(*), coalesce(sum(duplicates), 0)
FROM hookledger.event
WHERE status NOT IN ('pending', 'processing')
GROUP BY provider, status;
