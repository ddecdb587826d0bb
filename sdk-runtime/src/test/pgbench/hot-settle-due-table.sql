-- As hot-settle-no-due.sql, the waiting row inserted with the event and deleted with its settle, each in the same statement (hot-settle-setup.sql).
\set n random(1, 2000000000)
with e as (insert into ev_hot (provider, event_id, type, body, status, attempts, lease_owner, lease_until) values ('github', md5(:n::text), 't', '\x7b7d', 'processing', 1, 'node', now() + interval '30 s') on conflict do nothing returning provider, scope, event_id, lease_until) insert into ev_due (provider, scope, event_id, available_at) select * from e;
begin;
with d as (delete from ev_due where provider = 'github' and scope = '' and event_id = md5(:n::text) returning 1) update ev_hot set status = 'done', settled_at = statement_timestamp(), lease_owner = null, lease_until = null where provider = 'github' and scope = '' and event_id = md5(:n::text) and status = 'processing';
commit;
