-- hookledger ledger, version 18: the failing rows, indexed by their receipt. A failing event is
-- waiting after a failed attempt (pending with an attempt counted and an error kept, or processing
-- its second attempt or later: the admin's WaitingRows.FAILING, whose SQL this predicate repeats
-- clause for clause, so that the planner proves the index serves it). The failing list (newest
-- first), the causes' failing arm and the failing count read them through V1's index on every
-- waiting row, filtered: cheap while the waiting rows are few, but a bulk retry of a million dead
-- events leaves a million waiting rows, none of them failing (a retried event has its attempts set
-- back to 0), and each of those reads went through all of them. This index holds the failing rows
-- only: a receive, a claim, a renewal and a settle of an event that never failed insert nothing into
-- it; only a failure's reschedule and the next claim of a failing event do. Built CONCURRENTLY, as
-- V17's, so that a large ledger keeps receiving while it builds: this statement cannot run in a
-- transaction (V18__failing_index.sql.conf tells Flyway so), and is safe to run again. Applied by
-- WebhookRuntime.migrate() (hookledger migrate) or by a Flyway of its own; the schema name
-- "hookledger" is replaced by the configured one.

CREATE INDEX CONCURRENTLY IF NOT EXISTS event_failing_idx
  ON hookledger.event (received_at)
  WHERE status IN ('pending', 'processing') AND last_error IS NOT NULL
    AND (status = 'pending' AND attempts >= 1 OR status = 'processing' AND attempts >= 2);

INSERT INTO hookledger.schema_version (version, description)
VALUES (18, 'failing index')
ON CONFLICT (version) DO NOTHING;
