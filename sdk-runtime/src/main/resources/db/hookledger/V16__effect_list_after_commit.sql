-- hookledger ledger, version 16: the indexes of the operator's list of effects, and the count of
-- failed afterCommit actions. `list --effects`, the page's effects list and effects.json read the
-- newest enqueued effects first, filtered by destination or not: on V15's indexes alone, a list
-- without a status (or with status done) read the whole effect table and sorted it, a cost that grew
-- with every effect ever sent. With these, each reads an index backwards and stops at its page.
-- Built CONCURRENTLY, as V12's, so that a ledger with a large effect table keeps enqueueing: these
-- statements cannot run in a transaction (V16__effect_list_after_commit.sql.conf tells Flyway so),
-- and each is safe to run again. Applied by WebhookRuntime.migrate() (hookledger migrate) or by a
-- Flyway of its own; the schema name "hookledger" is replaced by the configured one.

-- every effect, newest first: the list without a filter, or with a status that is most of the table
CREATE INDEX CONCURRENTLY IF NOT EXISTS effect_created_idx
  ON hookledger.effect (created_at);

-- one destination's effects, newest first
CREATE INDEX CONCURRENTLY IF NOT EXISTS effect_destination_created_idx
  ON hookledger.effect (destination, created_at);

-- afterCommit actions that threw, per provider, kept by every node that ran one: an afterCommit
-- action is at most once, and a failure is not run again, so the operator's page shows that it
-- happened (how many, when last, of which event, the error's first line). One row a provider,
-- counted up in its own short transaction after the failure: never a row per failure.
CREATE TABLE IF NOT EXISTS hookledger.after_commit_failure (
  provider       text        PRIMARY KEY,
  failures       bigint      NOT NULL,
  last_at        timestamptz NOT NULL,
  last_event_id  text        NOT NULL,
  last_error     text        NOT NULL
);

INSERT INTO hookledger.schema_version (version, description)
VALUES (16, 'effect list after commit')
ON CONFLICT (version) DO NOTHING;
