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
-- unless told the trigger functions are safe; these are: they write only status_count, a reference
-- table (one copy per node), so a trigger on any shard finds it. On one node the write is local; on
-- several it is a two-phase commit per settle.
SET LOCAL citus.enable_unsafe_triggers = on;

DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_dist_partition WHERE logicalrelid = 'hookledger.status_count'::regclass) THEN
    PERFORM create_reference_table('hookledger.status_count');
  END IF;
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
  -- The ordering guard's key is (provider, entity_key), not scope: a GitHub issue reaches every hook
  -- that watches it, and its versions are ordered across them. A reference table (one copy per node)
  -- keeps that; a write to it is local on a single node and a two-phase commit on several.
  IF NOT EXISTS (SELECT 1 FROM pg_dist_partition WHERE logicalrelid = 'hookledger.entity_version'::regclass) THEN
    PERFORM create_reference_table('hookledger.entity_version');
  END IF;
  -- V15: an event's effects are inserted in its handlers' transaction, and claimed, settled and
  -- pruned with their scope: on the event's shard, so that the handlers' transaction stays on one.
  -- Their attempts are written in the transaction that settles the effect, on the same shard.
  IF NOT EXISTS (SELECT 1 FROM pg_dist_partition WHERE logicalrelid = 'hookledger.effect'::regclass) THEN
    PERFORM create_distributed_table('hookledger.effect', 'scope', colocate_with => 'hookledger.event');
  END IF;
  IF NOT EXISTS (SELECT 1 FROM pg_dist_partition WHERE logicalrelid = 'hookledger.effect_attempt'::regclass) THEN
    PERFORM create_distributed_table('hookledger.effect_attempt', 'scope', colocate_with => 'hookledger.event');
  END IF;
  -- V15: one row per destination (its breaker, pause and rate bucket), shared by every node and every
  -- scope: a reference table. It is written by the sender's claim and settle, never on an event's
  -- path (the handlers' transaction only inserts effects), so no shard writes it in a nested transaction.
  IF NOT EXISTS (SELECT 1 FROM pg_dist_partition WHERE logicalrelid = 'hookledger.destination_state'::regclass) THEN
    PERFORM create_reference_table('hookledger.destination_state');
  END IF;
  -- read by every node that checks the ledger's version at start
  IF NOT EXISTS (SELECT 1 FROM pg_dist_partition WHERE logicalrelid = 'hookledger.schema_version'::regclass) THEN
    PERFORM create_reference_table('hookledger.schema_version');
  END IF;
END
$$;
