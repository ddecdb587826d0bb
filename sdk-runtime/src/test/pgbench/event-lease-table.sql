-- One event, its lease in a table of its own: the insert, the lease's insert, then one transaction that deletes the lease and settles (setup.sql).
\set n random(1, 2000000000)
insert into hookledger.event (provider, event_id, type, body) values ('github', md5(:n::text), 't', '\x7b7d') on conflict do nothing;
insert into hookledger.event_lease (provider, scope, event_id, owner, until, attempt) values ('github', '', md5(:n::text), 'node', now() + interval '30 s', 1) on conflict do nothing;
begin;
delete from hookledger.event_lease where provider = 'github' and scope = '' and event_id = md5(:n::text);
update hookledger.event set status = 'done', attempts = 1, settled_at = statement_timestamp() where provider = 'github' and scope = '' and event_id = md5(:n::text) and status = 'pending';
commit;
