-- The role PostgREST connects as on Supabase (`authenticator`, granted the three API
-- roles), so that a schema written for Supabase loads unchanged, notably
--   alter role authenticator set pgrst.db_aggregates_enabled = 'true';
-- /rest/v1 reads its `pgrst.*` settings from pg_db_role_setting as PostgREST does
-- (decision 038). Our server does not connect as it: it keeps connecting as the
-- database owner. So the role is created NOLOGIN and without a password: it only
-- carries settings and grants, and nobody can sign in with it. A role that already
-- exists (a Supabase image, another database of the cluster) is left as it is.
do $$
declare
  me record;
begin
  select rolsuper, rolcreaterole into me from pg_roles where rolname = current_user;
  if not exists (select from pg_roles where rolname = 'authenticator') then
    if not (me.rolsuper or me.rolcreaterole) then
      raise notice 'authenticator role not created: % may not create roles', current_user;
      return;
    end if;
    create role authenticator nologin noinherit;
  end if;
  begin
    grant anon, authenticated, service_role to authenticator;
  exception when insufficient_privilege then
    raise notice 'authenticator role not granted the API roles: % may not grant them', current_user;
  end;
end
$$;
