-- One event on the ledger's event table: its insert, its claim and its settle, each in a transaction of its own (setup.sql).
\set n random(1, 2000000000)
insert into hookledger.event (provider, event_id, type, body) values ('github', md5(:n::text), 't', '\x7b7d') on conflict do nothing;
update hookledger.event set status = 'processing', attempts = attempts + 1, lease_owner = 'node', lease_until = now() + interval '30 s', available_at = now() + interval '30 s' where provider = 'github' and scope = '' and event_id = md5(:n::text) and status = 'pending';
update hookledger.event set status = 'done', settled_at = statement_timestamp(), lease_owner = null, lease_until = null where provider = 'github' and scope = '' and event_id = md5(:n::text) and status = 'processing';
