-- hookledger on Citus: distributes the ledger's tables by scope, after migrate, on the coordinator.
-- WebhookRuntime.migrate() (hookledger migrate) runs it when the citus extension is installed in the
-- database; with Flyway, run it yourself once after the versioned scripts (it is not one of them: a
-- plain PostgreSQL has no create_distributed_table). Safe to run again: a table already distributed
-- is left alone. The schema name "hookledger" is replaced by the configured one.
--
-- The distribution key is scope (the Stripe account, the Shopify shop, the GitHub hook): every event
-- of one scope lives on one shard, so that its insert, its claim (FOR UPDATE SKIP LOCKED, which
-- Citus runs only as a router query on one shard), its handlers' transaction and its settle are
-- each a single-shard transaction. Tables that hold an event's own rows are co-located with it.

-- V2's triggers keep status_count as rows settle. Citus refuses to distribute a table with triggers
-- unless told the trigger functions are safe; these are: on Citus they write only the status_count
-- rows of the changed event's own scope, on a shard co-located with the event's (the block "status
-- counts by scope" below), so a trigger on any shard writes only its own node.
SET LOCAL citus.enable_unsafe_triggers = on;

-- Status counts by scope. A trigger on a shard may write only shards on its own node: Citus refuses
-- anything else from a query on a shard ("cannot execute a distributed query from a query on a
-- shard"), a reference table included, as a reference table's write goes to every node. So on Citus
-- status_count carries the scope of the events it counts and is distributed by it, co-located with
-- the event table, and V2's trigger function writes the row of the changed event's scope: the write
-- stays on that event's shard, in its transaction. Readers add the rows up as before (status reads
-- all shards' rows, a few per scope and status). A ledger distributed before kept status_count as a
-- reference table: it is made local again, its rows kept under the scope '' (they are sums: where a
-- row lives changes nothing of the total), and distributed as here, at the end of this script (once
-- the event table is, and V14's appended changes are folded into the table as it was). Citus
-- propagates a function's change to the workers only in a transaction that has not used several
-- connections per node yet: the trigger function is replaced first, sequentially.
SET LOCAL citus.multi_shard_modify_mode TO 'sequential';

-- Entity versions by scope. The ordering guard writes entity_version in the event's transaction.
-- As a reference table it made that transaction write every node (a two-phase commit per event
-- with an entity). On Citus it carries a scope and is distributed by it, co-located with the
-- events: the versions of an entity whose events all carry one scope (Stripe's objects, Shopify's
-- resources: ProviderAdapter.entitiesStayInScope) are kept under that scope, on the event's own
-- shard; those of an entity whose events span scopes (a GitHub issue reaches every hook that
-- watches it) under the scope '', one row ordered across all of them, on the shard of ''. A ledger
-- distributed before kept it as a reference table: it is made local again, each row kept under ''
-- and copied under the scope of the event that recorded it, so that both kinds find their newest
-- version after the change.
DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_attribute WHERE attrelid = 'hookledger.entity_version'::regclass
                 AND attname = 'scope' AND NOT attisdropped) THEN
    IF EXISTS (SELECT 1 FROM pg_dist_partition WHERE logicalrelid = 'hookledger.entity_version'::regclass) THEN
      PERFORM undistribute_table('hookledger.entity_version');
    END IF;
    ALTER TABLE hookledger.entity_version ADD COLUMN scope text NOT NULL DEFAULT '';
    ALTER TABLE hookledger.entity_version DROP CONSTRAINT entity_version_pkey;
    ALTER TABLE hookledger.entity_version ADD PRIMARY KEY (scope, provider, entity_key);
    IF EXISTS (SELECT 1 FROM hookledger.entity_version) THEN
      INSERT INTO hookledger.entity_version (scope, provider, entity_key, version, event_id, updated_at)
      SELECT DISTINCT ON (e.scope, v.provider, v.entity_key) e.scope, v.provider, v.entity_key, v.version,
             v.event_id, v.updated_at
      FROM hookledger.entity_version v
      JOIN hookledger.event e ON e.provider = v.provider AND e.event_id = v.event_id
      WHERE v.scope = '' AND e.scope <> ''
      ON CONFLICT DO NOTHING;
    END IF;
  END IF;
END
$$;

CREATE OR REPLACE FUNCTION hookledger.count_event_status() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO hookledger.status_count AS c (scope, provider, status, stripe, events, duplicates)
    VALUES (NEW.scope, NEW.provider, NEW.status, pg_backend_pid() % 64, 1, NEW.duplicates)
    ON CONFLICT (scope, provider, status, stripe)
    DO UPDATE SET events = c.events + 1, duplicates = c.duplicates + excluded.duplicates;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO hookledger.status_count AS c (scope, provider, status, stripe, events, duplicates)
    VALUES (OLD.scope, OLD.provider, OLD.status, pg_backend_pid() % 64, -1, -OLD.duplicates)
    ON CONFLICT (scope, provider, status, stripe)
    DO UPDATE SET events = c.events - 1, duplicates = c.duplicates + excluded.duplicates;
  ELSE
    -- the scope is the distribution key: an update never changes it
    INSERT INTO hookledger.status_count AS c (scope, provider, status, stripe, events, duplicates)
    SELECT NEW.scope, p, s, pg_backend_pid() % 64, sum(e), sum(d)
    FROM (VALUES (OLD.provider, OLD.status, -1, -OLD.duplicates),
                 (NEW.provider, NEW.status, 1, NEW.duplicates)) AS v (p, s, e, d)
    WHERE s NOT IN ('pending', 'processing')
    GROUP BY p, s
    ORDER BY p, s
    ON CONFLICT (scope, provider, status, stripe)
    DO UPDATE SET events = c.events + excluded.events, duplicates = c.duplicates + excluded.duplicates;
  END IF;
  RETURN NULL;
END
$$;

-- V2's TRUNCATE trigger empties status_count with a DELETE of the whole distributed table: on a
-- shard that is a distributed query, which Citus refuses there, so TRUNCATE of the event table failed
-- on a cluster with workers. On Citus it goes: truncate status_count with the events
-- (TRUNCATE hookledger.event, hookledger.status_count).
DROP TRIGGER IF EXISTS event_status_count_truncate ON hookledger.event;

DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_dist_partition WHERE logicalrelid = 'hookledger.event'::regclass) THEN
    -- A ledger made before the extension was installed has V9's statement triggers, whose transition
    -- tables Citus cannot pass to a shard ("could not find named tuplestore"), and V10's roll-up,
    -- which a trigger on a shard could not keep on several nodes: both go, and the chart reads the
    -- event table's indexes, as on a ledger made on Citus. V2's row triggers count there instead;
    -- they are dropped for the copy of the rows into the shards, which would count each row again,
    -- and made again on the distributed table, on every shard (the counts kept so far are kept). The
    -- triggers' drop holds writers to the table until this transaction commits: no change is missed.
    -- A later version that puts other triggers or a roll-up on the event table on plain PostgreSQL
    -- (and none on Citus, as V9, V10 and V13) adds their drop here, for a ledger made before the
    -- extension. V13's pass mark goes with V10's table: without it the pass does nothing. V14's row
    -- triggers have V2's names (dropped below); the count changes they appended are folded first,
    -- as no pass folds them on Citus.
    -- From V22 status_count lacks the events settled since the roll-up's bound, which its pass adds as
    -- it closes their times (V22's trigger on minute_roll_up): the bound moved past every time counts
    -- them now, before the table goes.
    IF to_regclass('hookledger.minute_roll_up') IS NOT NULL THEN
      UPDATE hookledger.minute_roll_up SET closed_before = 'infinity';
    END IF;
    IF to_regprocedure('hookledger.fold_count_changes(integer)') IS NOT NULL
       AND to_regclass('hookledger.minute_roll_up') IS NOT NULL THEN
      PERFORM hookledger.fold_count_changes(2147483647);
    END IF;
    DROP TRIGGER IF EXISTS event_status_count_rows_inserted ON hookledger.event;
    DROP TRIGGER IF EXISTS event_status_count_rows_updated ON hookledger.event;
    DROP TRIGGER IF EXISTS event_status_count_rows_deleted ON hookledger.event;
    DROP TRIGGER IF EXISTS event_minute_count_truncate ON hookledger.event;
    DROP TABLE IF EXISTS hookledger.minute_count;
    DROP TABLE IF EXISTS hookledger.minute_roll_up;
    DROP TRIGGER IF EXISTS event_status_count_insert ON hookledger.event;
    DROP TRIGGER IF EXISTS event_status_count_update ON hookledger.event;
    DROP TRIGGER IF EXISTS event_status_count_delete ON hookledger.event;
    PERFORM create_distributed_table('hookledger.event', 'scope');
    -- V2's row triggers, as V2 made them
    CREATE TRIGGER event_status_count_insert AFTER INSERT ON hookledger.event
      FOR EACH ROW WHEN (NEW.status NOT IN ('pending', 'processing'))
      EXECUTE FUNCTION hookledger.count_event_status();
    CREATE TRIGGER event_status_count_update AFTER UPDATE OF provider, status, duplicates ON hookledger.event
      FOR EACH ROW
      WHEN ((OLD.provider IS DISTINCT FROM NEW.provider OR OLD.status IS DISTINCT FROM NEW.status
             OR OLD.duplicates IS DISTINCT FROM NEW.duplicates)
            AND (OLD.status NOT IN ('pending', 'processing') OR NEW.status NOT IN ('pending', 'processing')))
      EXECUTE FUNCTION hookledger.count_event_status();
    CREATE TRIGGER event_status_count_delete AFTER DELETE ON hookledger.event
      FOR EACH ROW WHEN (OLD.status NOT IN ('pending', 'processing'))
      EXECUTE FUNCTION hookledger.count_event_status();
  END IF;
  -- an event's attempts are written in the transaction that reschedules, buries or settles it
  IF NOT EXISTS (SELECT 1 FROM pg_dist_partition WHERE logicalrelid = 'hookledger.attempt'::regclass) THEN
    PERFORM create_distributed_table('hookledger.attempt', 'scope', colocate_with => 'hookledger.event');
  END IF;
  -- V8: which handlers applied an event, inserted in that event's handlers' transaction (and read
  -- and deleted with it): on the event's shard, so that transaction stays on one
  IF NOT EXISTS (SELECT 1 FROM pg_dist_partition WHERE logicalrelid = 'hookledger.handler_applied'::regclass) THEN
    PERFORM create_distributed_table('hookledger.handler_applied', 'scope', colocate_with => 'hookledger.event');
  END IF;
  -- V8: one row per backfill, its cursor advanced in each visited event's transaction, whatever that
  -- event's scope: a reference table (one copy per node), whose lease is claimed by a SELECT ... FOR
  -- UPDATE SKIP LOCKED that Citus runs on it as a router query; local on one node, a two-phase commit
  -- per visited event on several
  IF NOT EXISTS (SELECT 1 FROM pg_dist_partition WHERE logicalrelid = 'hookledger.backfill'::regclass) THEN
    PERFORM create_reference_table('hookledger.backfill');
  END IF;
  -- V6: each node's refused-delivery counts, one small upsert per node every 2 s, read by status:
  -- a reference table, so that a node's flush and the operator's read need no shard.
  IF NOT EXISTS (SELECT 1 FROM pg_dist_partition WHERE logicalrelid = 'hookledger.refusal_count'::regclass) THEN
    PERFORM create_reference_table('hookledger.refusal_count');
  END IF;
  -- entity_version: distributed by scope at the end of this script (the block "entity versions by scope")
  -- V15: an event's effects are inserted in its handlers' transaction, and claimed, settled and
  -- pruned with their scope: on the event's shard, so that the handlers' transaction stays on one.
  -- Their attempts are written in the transaction that settles the effect, on the same shard.
  -- A ledger distributed at an older version has no outbox yet: V15 makes it, and migrate runs this
  -- script again afterwards, which places the tables then.
  IF to_regclass('hookledger.effect') IS NOT NULL
     AND NOT EXISTS (SELECT 1 FROM pg_dist_partition WHERE logicalrelid = to_regclass('hookledger.effect')) THEN
    PERFORM create_distributed_table('hookledger.effect', 'scope', colocate_with => 'hookledger.event');
  END IF;
  IF to_regclass('hookledger.effect_attempt') IS NOT NULL
     AND NOT EXISTS (SELECT 1 FROM pg_dist_partition WHERE logicalrelid = to_regclass('hookledger.effect_attempt')) THEN
    PERFORM create_distributed_table('hookledger.effect_attempt', 'scope', colocate_with => 'hookledger.event');
  END IF;
  -- V15: one row per destination (its breaker, pause and rate bucket), shared by every node and every
  -- scope: a reference table. It is written by the sender's claim and settle, never on an event's
  -- path (the handlers' transaction only inserts effects), so no shard writes it in a nested transaction.
  IF to_regclass('hookledger.destination_state') IS NOT NULL
     AND NOT EXISTS (SELECT 1 FROM pg_dist_partition WHERE logicalrelid = to_regclass('hookledger.destination_state')) THEN
    PERFORM create_reference_table('hookledger.destination_state');
  END IF;
  -- read by every node that checks the ledger's version at start
  IF NOT EXISTS (SELECT 1 FROM pg_dist_partition WHERE logicalrelid = 'hookledger.schema_version'::regclass) THEN
    PERFORM create_reference_table('hookledger.schema_version');
  END IF;
END
$$;

-- Status counts by scope (above): distributed beside the events they count.
DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_attribute WHERE attrelid = 'hookledger.status_count'::regclass
                 AND attname = 'scope' AND NOT attisdropped) THEN
    IF EXISTS (SELECT 1 FROM pg_dist_partition WHERE logicalrelid = 'hookledger.status_count'::regclass) THEN
      PERFORM undistribute_table('hookledger.status_count');
    END IF;
    ALTER TABLE hookledger.status_count ADD COLUMN scope text NOT NULL DEFAULT '';
    ALTER TABLE hookledger.status_count DROP CONSTRAINT status_count_pkey;
    ALTER TABLE hookledger.status_count ADD PRIMARY KEY (scope, provider, status, stripe);
  END IF;
  IF NOT EXISTS (SELECT 1 FROM pg_dist_partition WHERE logicalrelid = 'hookledger.status_count'::regclass) THEN
    PERFORM create_distributed_table('hookledger.status_count', 'scope', colocate_with => 'hookledger.event');
  END IF;
END
$$;

-- Entity versions by scope (above): distributed beside the events whose versions they keep.
DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_dist_partition WHERE logicalrelid = 'hookledger.entity_version'::regclass) THEN
    PERFORM create_distributed_table('hookledger.entity_version', 'scope', colocate_with => 'hookledger.event');
  END IF;
END
$$;
