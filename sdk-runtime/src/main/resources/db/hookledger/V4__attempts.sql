-- hookledger ledger, version 4: every attempt of an event kept, and the attempts it was allowed.
-- Runs in one transaction. Applied by WebhookRuntime.migrate() (hookledger migrate) or by a Flyway of
-- its own; the schema name "hookledger" is replaced by the configured one.

-- One row per failed attempt, written in the transaction that reschedules or buries the event, and
-- one for a success after failures, in the transaction that settles it (a first attempt that
-- succeeds writes none: the event row says all there is, and the hot path stays one statement).
-- Kept apart from the event table so that the event row stays small; pruned with its event.
CREATE TABLE IF NOT EXISTS hookledger.attempt (
  provider     text        NOT NULL,
  scope        text        NOT NULL,
  event_id     text        NOT NULL,
  attempt      integer     NOT NULL,
  node         text        NOT NULL,
  started_at   timestamptz NOT NULL,
  ended_at     timestamptz NOT NULL,
  duration_ms  bigint      NOT NULL,
  outcome      text        NOT NULL,
  cause        text,
  error        text
);

-- no unique attempt number: an operator's retry of a dead event starts its count again
CREATE INDEX IF NOT EXISTS attempt_event_idx
  ON hookledger.attempt (provider, scope, event_id, ended_at);

-- The most attempts the event was allowed, as the runtime that last settled or failed it counted:
-- "attempt k of N" the same in the CLI, the page and the JSON, whatever each reader's own policy.
ALTER TABLE hookledger.event ADD COLUMN IF NOT EXISTS max_attempts integer;

INSERT INTO hookledger.schema_version (version, description)
VALUES (4, 'attempts')
ON CONFLICT (version) DO NOTHING;
