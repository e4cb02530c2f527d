-- Database changes for Realtime's "postgres_changes" (server/realtime/postgres-changes.ts).
--
-- As on Supabase, a table's changes are published when the table is in the
-- publication `supabase_realtime` (`alter publication supabase_realtime add
-- table ...` in a product migration, unchanged on hosted Supabase). Supabase
-- reads them from the WAL; here a row trigger on each published table writes
-- them to `_realtime.changes` and wakes the servers with NOTIFY, which
-- PostgreSQL delivers at commit, so rolled-back changes are never seen. Each
-- server reads every change after its own cursor and checks row-level security
-- per subscriber with `_realtime.visible_records`.
--
-- `_realtime` is private: the API roles have no access to anything in it.

do $$
begin
  if not exists (select from pg_catalog.pg_publication where pubname = 'supabase_realtime') then
    create publication supabase_realtime;
  end if;
end
$$;

create schema if not exists _realtime;
revoke all on schema _realtime from public;

create table _realtime.changes (
  id bigserial primary key,
  relid oid not null,
  schema text not null,
  "table" text not null,
  type text not null check (type in ('INSERT', 'UPDATE', 'DELETE')),
  -- When the change was captured (Supabase sends the commit's time; a
  -- transaction's commit follows within its duration).
  commit_timestamp timestamptz not null default clock_timestamp(),
  -- to_jsonb(NEW) for INSERT and UPDATE.
  record jsonb,
  -- to_jsonb(OLD), the whole row, for UPDATE and DELETE: row-level security is
  -- checked against it. Only the replica identity (the primary key unless
  -- REPLICA IDENTITY FULL) is delivered.
  old_record jsonb
);
-- Append-only and pruned by age: a BRIN index costs almost nothing to keep.
create index changes_commit_timestamp_idx on _realtime.changes using brin (commit_timestamp);
revoke all on table _realtime.changes from public;
revoke all on sequence _realtime.changes_id_seq from public;

-- The trigger on every published table. One NOTIFY per transaction (same
-- payload, so PostgreSQL folds them): the listeners read by cursor anyway.
create or replace function _realtime.capture() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  insert into _realtime.changes (relid, schema, "table", type, record, old_record)
  values (
    tg_relid,
    tg_table_schema,
    tg_table_name,
    tg_op,
    case when tg_op <> 'DELETE' then to_jsonb(new) end,
    case when tg_op <> 'INSERT' then to_jsonb(old) end
  );
  perform pg_catalog.pg_notify('realtime_changes', pg_catalog.pg_current_xact_id()::text);
  return null;
end
$$;

-- Keeps a capture trigger on exactly the tables of the publication.
create or replace function _realtime.sync_capture() returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  target regclass;
begin
  -- Tables published but not yet captured.
  for target in
    select c.oid::regclass
    from pg_catalog.pg_publication_tables p
    join pg_catalog.pg_namespace n on n.nspname = p.schemaname
    join pg_catalog.pg_class c on c.relnamespace = n.oid and c.relname = p.tablename
    where p.pubname = 'supabase_realtime'
      and c.relkind in ('r', 'p')
      and not exists (
        select
        from pg_catalog.pg_trigger t
        where t.tgrelid = c.oid and t.tgname = '_realtime_capture'
      )
  loop
    execute format(
      'create trigger _realtime_capture after insert or update or delete on %s '
        'for each row execute function _realtime.capture()',
      target
    );
  end loop;
  -- Captured tables no longer published (only our own triggers, by name and function).
  for target in
    select t.tgrelid::regclass
    from pg_catalog.pg_trigger t
    where t.tgname = '_realtime_capture'
      and t.tgfoid = '_realtime.capture()'::regprocedure
      and not t.tgisinternal
      and t.tgparentid = 0
      and not exists (
        select
        from pg_catalog.pg_publication_tables p
        join pg_catalog.pg_namespace n on n.nspname = p.schemaname
        join pg_catalog.pg_class c on c.relnamespace = n.oid and c.relname = p.tablename
        where p.pubname = 'supabase_realtime' and c.oid = t.tgrelid
      )
  loop
    execute format('drop trigger _realtime_capture on %s', target);
  end loop;
end
$$;

create or replace function _realtime.sync_capture_on_ddl() returns event_trigger
language plpgsql
as $$
begin
  perform _realtime.sync_capture();
end
$$;

-- Event triggers need a superuser; without one the server still calls
-- sync_capture() after its migrations (and tables published later by hand are
-- captured at the next start).
do $$
begin
  if (select rolsuper from pg_catalog.pg_roles where rolname = current_user) then
    create event trigger _realtime_sync_capture on ddl_command_end
      when tag in (
        'CREATE PUBLICATION', 'ALTER PUBLICATION', 'DROP PUBLICATION',
        'CREATE TABLE', 'CREATE TABLE AS', 'SELECT INTO', 'CREATE SCHEMA', 'ALTER TABLE'
      )
      execute function _realtime.sync_capture_on_ddl();
  end if;
end
$$;

-- Prunes what every server has long read.
create or replace function _realtime.prune(keep interval default interval '5 minutes')
returns bigint
language sql
set search_path = ''
as $$
  with gone as (
    delete from _realtime.changes
    where commit_timestamp < pg_catalog.now() - keep
    returning 1
  )
  select count(*) from gone
$$;

-- A filter's value as the column's type, in to_jsonb's form (realtime.cast on Supabase).
create or replace function _realtime.cast(value text, type regtype) returns jsonb
language plpgsql
stable
set search_path = ''
as $$
declare
  result jsonb;
begin
  execute format('select pg_catalog.to_jsonb(%L::%s)', value, type) into result;
  return result;
end
$$;

-- Switches the transaction to a subscriber's role and claims, as the API does.
create or replace function _realtime.act_as(role_name text, claims jsonb) returns void
language plpgsql
as $$
begin
  perform
    pg_catalog.set_config('role', role_name, true),
    pg_catalog.set_config('request.jwt.claims', claims::text, true),
    pg_catalog.set_config('request.jwt.claim.sub', '', true),
    pg_catalog.set_config('request.jwt.claim.role', '', true),
    pg_catalog.set_config('request.jwt.claim.email', '', true),
    pg_catalog.set_config('request.jwt.claim', '', true);
end
$$;

-- How one role sees one table's changes: the columns it may select, the
-- primary key and the replica identity's columns (what an old record keeps),
-- and "mode": "none" (no SELECT privilege), "all" (row-level security off, or
-- a role that bypasses it: BYPASSRLS, or the owner unless FORCE) or "check",
-- with "statement": the table's SELECT policies as they apply to the role
-- (permissive ones OR'ed, restrictive ones AND'ed) evaluated on records
-- rather than on the table, so deleted and former rows are checked as they
-- were. The statement takes one parameter, a JSON array of [index, record]
-- pairs, and returns the indexes of the records that pass. It must run under
-- the role, with its claims set (act_as).
create or replace function _realtime.role_plan(relid oid, role_name text) returns jsonb
language plpgsql
stable
set search_path = ''
as $$
declare
  rel record;
  role_oid oid;
  meta jsonb;
  permissive text;
  restrictive text;
  qual text;
begin
  select c.oid, c.relname, c.relrowsecurity, c.relforcerowsecurity, c.relowner, c.relreplident
  into rel
  from pg_catalog.pg_class c
  where c.oid = role_plan.relid;
  if rel.oid is null then
    return jsonb_build_object('error', 'unknown table ' || role_plan.relid);
  end if;
  select r.oid into role_oid from pg_catalog.pg_roles r where r.rolname = role_name;
  if role_oid is null then
    return jsonb_build_object('error', 'unknown role ' || role_name);
  end if;

  meta = jsonb_build_object(
    'columns', coalesce((
      select jsonb_agg(jsonb_build_object('name', a.attname, 'type', t.typname) order by a.attnum)
      from pg_catalog.pg_attribute a
      join pg_catalog.pg_type t on t.oid = a.atttypid
      where a.attrelid = rel.oid and a.attnum > 0 and not a.attisdropped
        and pg_catalog.has_column_privilege(role_oid, rel.oid, a.attnum, 'SELECT')
    ), '[]'),
    'pk', coalesce((
      select jsonb_agg(a.attname order by a.attnum)
      from pg_catalog.pg_index i
      join pg_catalog.pg_attribute a on a.attrelid = rel.oid and a.attnum = any(i.indkey)
      where i.indrelid = rel.oid and i.indisprimary
    ), '[]'),
    'keys', coalesce((
      select jsonb_agg(a.attname order by a.attnum)
      from pg_catalog.pg_attribute a
      where a.attrelid = rel.oid and a.attnum > 0 and not a.attisdropped
        and case rel.relreplident
          when 'f' then true
          when 'd' then exists (
            select from pg_catalog.pg_index i
            where i.indrelid = rel.oid and i.indisprimary and a.attnum = any(i.indkey))
          when 'i' then exists (
            select from pg_catalog.pg_index i
            where i.indrelid = rel.oid and i.indisreplident and a.attnum = any(i.indkey))
          else false
        end
    ), '[]')
  );

  if not pg_catalog.has_any_column_privilege(role_oid, rel.oid, 'SELECT') then
    return meta || '{"mode": "none"}';
  end if;
  if not rel.relrowsecurity
    or (select r.rolbypassrls from pg_catalog.pg_roles r where r.oid = role_oid)
    or (pg_catalog.pg_has_role(role_oid, rel.relowner, 'USAGE') and not rel.relforcerowsecurity)
  then
    return meta || '{"mode": "all"}';
  end if;

  select
    string_agg('(' || pg_catalog.pg_get_expr(p.polqual, p.polrelid) || ')', ' or ')
      filter (where p.polpermissive),
    string_agg('(' || pg_catalog.pg_get_expr(p.polqual, p.polrelid) || ')', ' and ')
      filter (where not p.polpermissive)
  into permissive, restrictive
  from pg_catalog.pg_policy p
  where p.polrelid = rel.oid
    and p.polcmd in ('r', '*')
    and p.polqual is not null
    and (
      p.polroles = '{0}'
      or exists (
        select from unnest(p.polroles) pr
        where pr = role_oid or pg_catalog.pg_has_role(role_oid, pr, 'USAGE')
      )
    );
  qual = coalesce(permissive, 'false');
  if restrictive is not null then
    qual = '(' || qual || ') and ' || restrictive;
  end if;
  return meta || jsonb_build_object('mode', 'check', 'statement', format(
    'select coalesce(pg_catalog.jsonb_agg((_realtime_pair ->> 0)::int), ''[]'') '
      'from pg_catalog.jsonb_array_elements($1::jsonb) as _realtime_input(_realtime_pair), '
      'pg_catalog.jsonb_populate_record(null::%s, _realtime_pair -> 1) as %I '
      'where %s',
    rel.oid::regclass, rel.relname, qual
  ));
end
$$;

-- Row-level security for a batch of changes, one call for every subscriber
-- (the server's fallback when its pipeline of role_plan statements fails:
-- with "isolate", each group runs in a subtransaction, so a policy raising an
-- error costs only that group).
--
-- request: {"groups": [{"role": r, "claims": {...}}, ...], "isolate": bool,
--           "tables": [{"relid": oid, "records": [row json, ...],
--                       "checks": [{"group": group index, "records": [record index, ...]}, ...]}, ...]}
-- answer:  {"tables": [{"roles": {role: role_plan without the statement},
--                       "visible": {group index: [record index, ...]},
--                       "errors": {group index: message}}, ...]}
--
-- Not security definer: it switches role with set_config, as the API does;
-- only the server's own user may call it.
create or replace function _realtime.visible_records(request jsonb) returns jsonb
language plpgsql
set search_path = ''
as $$
declare
  tbl jsonb;
  answer_tables jsonb = '[]';
  plans jsonb;
  plan jsonb;
  visible jsonb;
  errors jsonb;
  records jsonb;
  pairs jsonb;
  isolate boolean = coalesce((request ->> 'isolate')::boolean, false);
  chk jsonb;
  group_index int;
  grp jsonb;
  role_name text;
  result jsonb;
begin
  for tbl in select * from jsonb_array_elements(request -> 'tables') loop
    plans = '{}';
    visible = '{}';
    errors = '{}';
    records = tbl -> 'records';
    for chk in select * from jsonb_array_elements(tbl -> 'checks') loop
      group_index = (chk ->> 'group')::int;
      grp = request -> 'groups' -> group_index;
      role_name = grp ->> 'role';
      if not plans ? role_name then
        plans = plans || jsonb_build_object(role_name, _realtime.role_plan((tbl ->> 'relid')::oid, role_name));
      end if;
      plan = plans -> role_name;
      if plan ? 'error' then
        errors = errors || jsonb_build_object(group_index::text, plan ->> 'error');
        continue;
      end if;
      if plan ->> 'mode' = 'none' then
        visible = visible || jsonb_build_object(group_index::text, '[]'::jsonb);
        continue;
      end if;
      if plan ->> 'mode' = 'all' then
        visible = visible || jsonb_build_object(group_index::text, chk -> 'records');
        continue;
      end if;
      pairs = (
        select coalesce(jsonb_agg(jsonb_build_array(i, records -> (i #>> '{}')::int) order by n), '[]')
        from jsonb_array_elements(chk -> 'records') with ordinality as w(i, n)
      );
      if isolate then
        begin
          perform _realtime.act_as(role_name, grp -> 'claims');
          execute plan ->> 'statement' into result using pairs;
          perform pg_catalog.set_config('role', 'none', true);
          visible = visible || jsonb_build_object(group_index::text, result);
        exception when others then
          errors = errors || jsonb_build_object(group_index::text, sqlerrm);
        end;
      else
        perform _realtime.act_as(role_name, grp -> 'claims');
        execute plan ->> 'statement' into result using pairs;
        perform pg_catalog.set_config('role', 'none', true);
        visible = visible || jsonb_build_object(group_index::text, result);
      end if;
    end loop;
    answer_tables = answer_tables || jsonb_build_array(jsonb_build_object(
      'roles', (
        select coalesce(jsonb_object_agg(key, value - 'statement'), '{}')
        from jsonb_each(plans) where not value ? 'error'
      ),
      'visible', visible,
      'errors', errors
    ));
  end loop;
  perform pg_catalog.set_config('role', 'none', true);
  return jsonb_build_object('tables', answer_tables);
end
$$;

revoke all on all functions in schema _realtime from public;
