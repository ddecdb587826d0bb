-- hookledger ledger, version 17: the settle time of dead rows, indexed. The chart's open minutes and
-- the roll-up pass that closes them count the rows settled in a range of minutes, dead ones included
-- (a dead row's settled_at is when it died). V1's index on dead rows is keyed by received_at, for
-- their list: a range of settled_at could not use it as a range, so each of those reads went through
-- every dead row, and after an import (or a bulk change) of hundreds of thousands of dead rows, the
-- chart and every pass read the whole table. With this index each reads the range it counts, as
-- event_settled_idx serves the other finished rows. Built CONCURRENTLY, as V12's, so that a large
-- ledger keeps receiving while it builds: this statement cannot run in a transaction
-- (V17__dead_settled_index.sql.conf tells Flyway so), and is safe to run again. Applied by
-- WebhookRuntime.migrate() (hookledger migrate) or by a Flyway of its own; the schema name
-- "hookledger" is replaced by the configured one.

CREATE INDEX CONCURRENTLY IF NOT EXISTS event_dead_settled_idx
  ON hookledger.event (settled_at)
  WHERE status = 'dead';

INSERT INTO hookledger.schema_version (version, description)
VALUES (17, 'dead settled index')
ON CONFLICT (version) DO NOTHING;
