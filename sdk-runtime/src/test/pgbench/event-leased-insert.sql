-- One event on the ledger's event table as most store-first events go: an insert that leases it to this node, then one transaction that settles it (setup.sql).
\set n random(1, 2000000000)
insert into hookledger.event (provider, event_id, type, body, status, attempts, lease_owner, lease_until, available_at) values ('github', md5(:n::text), 't', '\x7b7d', 'processing', 1, 'node', now() + interval '30 s', now() + interval '30 s') on conflict do nothing;
begin;
update hookledger.event set status = 'done', settled_at = statement_timestamp(), lease_owner = null, lease_until = null where provider = 'github' and scope = '' and event_id = md5(:n::text) and status = 'processing';
commit;
