-- hookledger ledger, version 1.
-- Named for Flyway (db/hookledger/V1__ledger.sql); WebhookRuntime.migrate() applies it idempotently
-- for users without a migration tool. The schema name "hookledger" is replaced by the configured one.

CREATE SCHEMA IF NOT EXISTS hookledger;

-- One row per event, keyed by the provider's own id within its scope (GitHub hook, Shopify shop,
-- Stripe account). INSERT ... ON CONFLICT DO NOTHING on this key is the one place duplicates are decided.
CREATE TABLE IF NOT EXISTS hookledger.event (
  provider        text        NOT NULL,
  scope           text        NOT NULL DEFAULT '',
  event_id        text        NOT NULL,
  type            text        NOT NULL,
  api_version     text,
  entity_key      text,
  entity_version  bigint,
  occurred_at     timestamptz,
  livemode        boolean,
  delivery_id     text,
  body            bytea       NOT NULL,          -- byte-exact raw body as received and signed
  payload         bytea,                         -- the JSON document when it is not the body (GitHub form posts)
  headers         jsonb       NOT NULL DEFAULT '{}'::jsonb,  -- selected headers, never signatures
  secret_id       text,                          -- which secret matched (rotation telemetry); null for replays
  signed_at       timestamptz,                   -- the signed timestamp, where the scheme has one
  source          text        NOT NULL DEFAULT 'delivery',  -- delivery | replay
  status          text        NOT NULL DEFAULT 'pending'
                  CHECK (status IN ('pending', 'processing', 'done', 'ignored', 'stale', 'dead')),
  attempts        integer     NOT NULL DEFAULT 0,
  available_at    timestamptz NOT NULL DEFAULT now(),
  lease_owner     text,
  lease_until     timestamptz,
  last_error      text,
  duplicates      integer     NOT NULL DEFAULT 0, -- deliveries of this event refused as duplicates
  received_at     timestamptz NOT NULL DEFAULT now(),
  settled_at      timestamptz,
  PRIMARY KEY (provider, scope, event_id)
);

-- Only rows still waiting are indexed, so that polling cost follows the backlog, not history.
CREATE INDEX IF NOT EXISTS event_waiting_idx
  ON hookledger.event (available_at)
  WHERE status IN ('pending', 'processing');

CREATE INDEX IF NOT EXISTS event_dead_idx
  ON hookledger.event (received_at)
  WHERE status = 'dead';

CREATE INDEX IF NOT EXISTS event_settled_idx
  ON hookledger.event (settled_at)
  WHERE status IN ('done', 'ignored', 'stale');

-- The newest version applied per entity: the ordering guard's
-- INSERT ... ON CONFLICT (provider, entity_key) DO UPDATE ... WHERE version <= new RETURNING.
CREATE TABLE IF NOT EXISTS hookledger.entity_version (
  provider    text        NOT NULL,
  entity_key  text        NOT NULL,
  version     bigint      NOT NULL,
  event_id    text        NOT NULL,
  updated_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (provider, entity_key)
);
