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

-- Row-level security for a batch of changes, one call for every subscriber.
--
-- request: {"groups": [{"role": r, "claims": {...}}, ...], "isolate": bool,
--           "tables": [{"relid": oid, "records": [row json, ...],
--                       "checks": [{"group": group index, "records": [record index, ...]}, ...]}, ...]}
-- answer:  {"tables": [{"roles": {role: {"columns": [{name, type}], "keys": [...], "pk": [...]}},
--                       "visible": {group index: [record index, ...]},
--                       "errors": {group index: message}}, ...]}
--
-- A record is visible to a group when its role may select from the table and
-- the record passes the table's SELECT policies as they apply to that role
-- (permissive ones OR'ed, restrictive ones AND'ed), evaluated under the role
-- and its claims against the record itself, so that deleted and former rows
-- are checked as they were. Roles that bypass row-level security (BYPASSRLS,
-- or the owner unless FORCE) and tables without it see every record.
--
-- With "isolate", a group whose check fails (a policy raising an error) is
-- reported in "errors" instead of failing the call.
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
  rel record;
  roles_meta jsonb;
  visible jsonb;
  errors jsonb;
  quals jsonb;
  records jsonb[];
  subset jsonb[];
  statement text;
  isolate boolean = coalesce((request ->> 'isolate')::boolean, false);
  chk jsonb;
  wanted int[];
  group_index int;
  grp jsonb;
  role_name text;
  role_oid oid;
  qual text;
  permissive text;
  restrictive text;
  result jsonb;
  bypass boolean;
begin
  for tbl in select * from jsonb_array_elements(request -> 'tables') loop
    select c.oid, c.relname, c.relrowsecurity, c.relforcerowsecurity, c.relowner, c.relreplident
    into rel
    from pg_catalog.pg_class c
    where c.oid = (tbl ->> 'relid')::oid;

    roles_meta = '{}';
    visible = '{}';
    errors = '{}';
    quals = '{}';
    if rel.oid is null then
      answer_tables = answer_tables || jsonb_build_array(
        jsonb_build_object('roles', roles_meta, 'visible', visible, 'errors', errors)
      );
      continue;
    end if;
    records = array(select jsonb_array_elements(tbl -> 'records'));

    for chk in select * from jsonb_array_elements(tbl -> 'checks') loop
      group_index = (chk ->> 'group')::int;
      wanted = array(
        select (i #>> '{}')::int from jsonb_array_elements(chk -> 'records') with ordinality as w(i, n)
        order by n
      );
      grp = request -> 'groups' -> group_index;
      role_name = grp ->> 'role';
      select r.oid into role_oid from pg_catalog.pg_roles r where r.rolname = role_name;
      if role_oid is null then
        errors = errors || jsonb_build_object(group_index::text, 'unknown role ' || role_name);
        continue;
      end if;

      if not roles_meta ? role_name then
        roles_meta = roles_meta || jsonb_build_object(role_name, jsonb_build_object(
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
        ));
      end if;

      if not pg_catalog.has_any_column_privilege(role_oid, rel.oid, 'SELECT') then
        visible = visible || jsonb_build_object(group_index::text, '[]'::jsonb);
        continue;
      end if;

      bypass = not rel.relrowsecurity
        or (select r.rolbypassrls from pg_catalog.pg_roles r where r.oid = role_oid)
        or (pg_catalog.pg_has_role(role_oid, rel.relowner, 'USAGE') and not rel.relforcerowsecurity);
      if bypass then
        visible = visible || jsonb_build_object(group_index::text, to_jsonb(wanted));
        continue;
      end if;

      if not quals ? role_name then
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
        quals = quals || jsonb_build_object(role_name, qual);
      end if;
      qual = quals ->> role_name;

      statement = format(
        'select coalesce(pg_catalog.jsonb_agg(_realtime_index), ''[]'') '
          'from rows from (pg_catalog.unnest($1), pg_catalog.unnest($2)) '
          'as _realtime_input(_realtime_record, _realtime_index), '
          'pg_catalog.jsonb_populate_record(null::%s, _realtime_record) as %I '
          'where %s',
        rel.oid::regclass, rel.relname, qual
      );
      subset = array(select records[w + 1] from unnest(wanted) with ordinality as u(w, n) order by n);
      if isolate then
        -- A subtransaction per group: one failing policy costs only its group.
        begin
          perform _realtime.act_as(role_name, grp -> 'claims');
          execute statement into result using subset, wanted;
          perform pg_catalog.set_config('role', 'none', true);
          visible = visible || jsonb_build_object(group_index::text, result);
        exception when others then
          errors = errors || jsonb_build_object(group_index::text, sqlerrm);
        end;
      else
        -- The fast path: any error fails the call, and the caller asks again isolated.
        perform _realtime.act_as(role_name, grp -> 'claims');
        execute statement into result using subset, wanted;
        perform pg_catalog.set_config('role', 'none', true);
        visible = visible || jsonb_build_object(group_index::text, result);
      end if;
    end loop;

    answer_tables = answer_tables || jsonb_build_array(
      jsonb_build_object('roles', roles_meta, 'visible', visible, 'errors', errors)
    );
  end loop;
  perform pg_catalog.set_config('role', 'none', true);
  return jsonb_build_object('tables', answer_tables);
end
$$;

revoke all on all functions in schema _realtime from public;
