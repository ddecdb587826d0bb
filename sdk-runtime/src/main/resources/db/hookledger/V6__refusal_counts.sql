-- hookledger ledger, version 6: refused deliveries counted per node, so that `hookledger status`,
-- another process, sees what each node refused. Runs in one transaction. Applied by
-- WebhookRuntime.migrate() (hookledger migrate) or by a Flyway of its own; the schema name
-- "hookledger" is replaced by the configured one.

-- One row per node, provider and reason, holding that node's cumulative count since it started:
-- upserted by the node every 2 s at most, only when its counts changed, never per request, so that
-- a million forged deliveries cost one statement every 2 s. Bounded by design: provider is a
-- registered provider's id or 'unknown' (never a sender's text), reason a closed set; rows of nodes
-- not seen for 7 days are deleted by the nodes still running.
CREATE TABLE IF NOT EXISTS hookledger.refusal_count (
  node     text        NOT NULL,
  provider text        NOT NULL,
  reason   text        NOT NULL,
  refused  bigint      NOT NULL,
  last_at  timestamptz NOT NULL,
  PRIMARY KEY (node, provider, reason)
);

INSERT INTO hookledger.schema_version (version, description)
VALUES (6, 'refusal counts')
ON CONFLICT (version) DO NOTHING;
