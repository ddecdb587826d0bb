-- One event on the hand-written peer's ledger: its insert, then one transaction that locks and settles it (setup.sql).
\set n random(1, 2000000000)
insert into hs_ledger (provider, event_id, body) values ('github', md5(:n::text), '\x7b7d') on conflict do nothing;
begin;
select event_id from hs_ledger where provider = 'github' and event_id = md5(:n::text) and status = 'pending' for update skip locked;
update hs_ledger set status = 'done', settled_at = now() where provider = 'github' and event_id = md5(:n::text);
commit;
