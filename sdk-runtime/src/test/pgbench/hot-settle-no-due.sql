-- As event-leased-insert.sql on ev_hot (hot-settle-setup.sql), with no waiting row anywhere: the bound of a settle that writes no index entry.
\set n random(1, 2000000000)
insert into ev_hot (provider, event_id, type, body, status, attempts, lease_owner, lease_until) values ('github', md5(:n::text), 't', '\x7b7d', 'processing', 1, 'node', now() + interval '30 s') on conflict do nothing;
begin;
update ev_hot set status = 'done', settled_at = statement_timestamp(), lease_owner = null, lease_until = null where provider = 'github' and scope = '' and event_id = md5(:n::text) and status = 'processing';
commit;
