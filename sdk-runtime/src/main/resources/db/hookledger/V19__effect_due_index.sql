-- hookledger ledger, version 19: a destination's waiting effects, indexed by when each falls due.
-- The outbox's sender asks on every poll which destinations have due effects, the one due longest
-- first. That read grouped every due effect by destination through V15's index on available_at: cheap
-- while the backlog is small, but after a bulk retry of a million dead effects each poll read the
-- million. With this index the read visits each destination that has waiting effects once (its
-- first key, then its least available_at per status), whatever its backlog. It replaces V15's
-- (destination, status) index, whose every use it serves as well (the in-flight count of a
-- destination reads its prefix), so a claim and a settle maintain as many indexes as before. Built
-- CONCURRENTLY, as V17's, so that a ledger keeps sending while it builds: these statements cannot run
-- in a transaction (V19__effect_due_index.sql.conf tells Flyway so), and are safe to run again.
-- Applied by WebhookRuntime.migrate() (hookledger migrate) or by a Flyway of its own; the schema name
-- "hookledger" is replaced by the configured one.

CREATE INDEX CONCURRENTLY IF NOT EXISTS effect_destination_due_idx
  ON hookledger.effect (destination, status, available_at)
  WHERE status IN ('pending', 'sending');

DROP INDEX CONCURRENTLY IF EXISTS hookledger.effect_destination_waiting_idx;

INSERT INTO hookledger.schema_version (version, description)
VALUES (19, 'effect due index')
ON CONFLICT (version) DO NOTHING;
