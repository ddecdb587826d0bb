-- The sample application's own tables, in its own schema (the ledger lives in "hookledger").
-- They are chosen so that a duplicate or a stale event would visibly corrupt them: nothing here is
-- idempotent on its own. The ledger and the ordering guard are what keep them right.

CREATE SCHEMA IF NOT EXISTS sample;

-- Stripe invoice.paid adds amount_paid: a redelivered invoice would be counted twice.
CREATE TABLE IF NOT EXISTS sample.balance (
  customer      text   PRIMARY KEY,
  amount_cents  bigint NOT NULL
);

-- Stripe customer.subscription.*: the newest status and plan; an old event arriving late would
-- put an old status back.
CREATE TABLE IF NOT EXISTS sample.subscription (
  id        text PRIMARY KEY,
  customer  text NOT NULL,
  status    text NOT NULL,
  plan      text
);

-- GitHub issues.opened: one row per ticket and deliberately no unique key on the issue, so a
-- redelivered event would open a second ticket.
CREATE TABLE IF NOT EXISTS sample.ticket (
  id            bigserial   PRIMARY KEY,
  repository    text        NOT NULL,
  issue_number  integer     NOT NULL,
  title         text        NOT NULL,
  opened_at     timestamptz NOT NULL DEFAULT now()
);

-- GitHub push adds the number of commits: a redelivered push would be counted twice.
CREATE TABLE IF NOT EXISTS sample.repository_commits (
  repository  text   PRIMARY KEY,
  commits     bigint NOT NULL
);

-- Shopify orders/create and orders/updated: the newest total and status of each order, whichever
-- of the two arrives first.
CREATE TABLE IF NOT EXISTS sample.shop_order (
  id                bigint        PRIMARY KEY,
  name              text,
  total_price       numeric(14,2) NOT NULL,
  financial_status  text          NOT NULL
);
