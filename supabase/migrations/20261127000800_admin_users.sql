-- The admin users page (issue 17, decision 025): search and page through the
-- accounts, read one account (profile, role, workspaces, sign-in methods,
-- second factors), change its role, ban and unban it, delete it, and the
-- audit entries of inviting someone and sending a password reset, which the
-- admin-users edge function does through the auth service.
--
-- Every function here is for Cervana admins only (with their second factor
-- once they have one): private.require_admin runs before anything else. A ban
-- or a role change ends the person's sessions in the same transaction, and the
-- server refuses a token whose session has ended (auth.require_live_session,
-- server/db/migrations/0009_admin_users.sql), so both take effect at once.
-- Removing an admin (demoting, banning or deleting them) takes a lock that
-- serialises every such change, and the last admin who can sign in stays.
-- Runs unchanged on the embedded PGlite, PostgreSQL 15+ and a hosted project.

-- The search matches the start of a name or company (the email address and its
-- domain are indexed by the server's own auth schema, migration 0009).
create index profiles_full_name_prefix_idx on public.profiles (lower(full_name) text_pattern_ops);
create index profiles_company_prefix_idx on public.profiles (lower(company) text_pattern_ops);

-- ---------------------------------------------------------------------------
-- Helpers
-- ---------------------------------------------------------------------------

-- The role the product gives an account: its app_metadata role, else customer.
create or replace function private.user_role(app_metadata jsonb) returns text
language sql
immutable
set search_path = ''
as $$
  select case coalesce(app_metadata ->> 'role', '')
    when 'admin' then 'admin'
    when 'partner' then 'partner'
    else 'customer'
  end
$$;

-- An admin action on an account: not a row change of a table admins work (the
-- auth schema is the auth service's), so it is written here, in the same
-- transaction as the change. The actor is always the caller's own token.
create or replace function private.audit_user_action(
  p_action text,
  p_user_id uuid,
  p_before jsonb,
  p_after jsonb
) returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  insert into public.admin_audit_log (actor_id, actor_email, action, target_table, target_id, before, after, client_ip)
  values (auth.uid(), auth.jwt() ->> 'email', p_action, 'users', p_user_id::text, p_before, p_after, private.client_ip());
end
$$;

-- Serialises every change that could remove an admin, so two admins removing
-- each other at once cannot leave nobody: the second waits, then sees the
-- first, and is refused when the first has just removed them.
create or replace function private.lock_admin_roster() returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform pg_advisory_xact_lock(2026112708);
  if not exists (
    select from auth.users u
    where u.id = auth.uid()
      and u.raw_app_meta_data ->> 'role' = 'admin'
      and u.deleted_at is null
      and (u.banned_until is null or u.banned_until <= now())
  ) then
    raise exception using errcode = '42501',
      message = 'You are no longer a Cervana admin, so this change was not made.';
  end if;
end
$$;

-- Refuses to remove the last admin who can sign in (call after the lock).
create or replace function private.keep_an_admin(p_user_id uuid) returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  if not exists (
    select from auth.users u
    where u.id <> p_user_id
      and u.raw_app_meta_data ->> 'role' = 'admin'
      and u.deleted_at is null
      and (u.banned_until is null or u.banned_until <= now())
  ) then
    raise exception using errcode = 'PT409', detail = 'user_id',
      message = 'Cervana needs at least one admin who can sign in: make someone else an admin first.';
  end if;
end
$$;

-- The caller may act on this account at all: it exists (404 otherwise). Locks its row.
create or replace function private.admin_target(p_user_id uuid) returns auth.users
language plpgsql
security definer
set search_path = ''
as $$
declare
  target auth.users;
begin
  if p_user_id is null then
    perform private.reject('user_id', 'Please choose a person.');
  end if;
  select u.* into target from auth.users u where u.id = p_user_id and u.deleted_at is null for update;
  if target.id is null then
    raise exception using errcode = 'PT404', detail = 'user_id',
      message = 'This person''s account does not exist (any more).';
  end if;
  return target;
end
$$;

-- A ban is active until its time has passed.
create or replace function private.active_ban(banned_until timestamptz) returns timestamptz
language sql
stable
set search_path = ''
as $$
  select case when banned_until > now() then banned_until end
$$;

-- One account as a list row shows it.
create or replace function private.user_summary(p_user_id uuid) returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  select jsonb_build_object(
    'id', u.id,
    'email', u.email,
    'full_name', p.full_name,
    'company', p.company,
    'role', private.user_role(u.raw_app_meta_data),
    'created_at', u.created_at,
    'last_sign_in_at', u.last_sign_in_at,
    'banned_until', private.active_ban(u.banned_until),
    'invited_at', u.invited_at,
    'email_confirmed_at', u.email_confirmed_at
  )
  from auth.users u
  left join public.profiles p on p.id = u.id
  where u.id = p_user_id
$$;

-- Ends every session of an account: its refresh tokens go with them, and the
-- server refuses its access tokens from now on (realtime closes its channels).
create or replace function private.end_user_sessions(p_user_id uuid) returns void
language sql
security definer
set search_path = ''
as $$
  delete from auth.sessions s where s.user_id = p_user_id
$$;

-- ---------------------------------------------------------------------------
-- Reading
-- ---------------------------------------------------------------------------

-- The accounts, newest first, 1-100 a page, after the (created_at, id) of the
-- last row shown. p_search matches the start of the email address, of its
-- domain, of the name or of the company (case-insensitive); p_role is
-- customer (no role), partner or admin. Anonymous and deleted accounts are left
-- out. Each shape reads an index: a search's matches come from four index
-- ranges and are sorted (or, past 500 of them, the accounts are walked newest
-- first and filtered); the lists walk users_created_at_id_idx or, for one
-- role, users_role_created_at_idx.
create or replace function public.admin_list_users(
  p_search text default null,
  p_role text default null,
  p_after_created_at timestamptz default null,
  p_after_id uuid default null,
  p_limit integer default 50
) returns table (
  id uuid,
  email text,
  full_name text,
  company text,
  role text,
  created_at timestamptz,
  last_sign_in_at timestamptz,
  banned_until timestamptz,
  invited_at timestamptz,
  email_confirmed_at timestamptz
)
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  search text := lower(btrim(coalesce(p_search, '')));
  search_end text;
  role_filter text;
  source text;
  conditions text := 'u.deleted_at is null and not u.is_anonymous';
  match_count integer := 0;
begin
  perform private.require_admin('Only Cervana admins can list people''s accounts.');
  if char_length(search) > 200 then
    perform private.reject('search', 'Please search with at most 200 characters.');
  end if;
  if search ~ '[[:cntrl:]]' then
    perform private.reject('search', 'Please search with letters, digits and punctuation only.');
  end if;
  if p_role is not null and p_role <> '' and p_role not in ('customer', 'partner', 'admin') then
    perform private.reject('role', 'Please choose a role from the list: customer, partner or admin.');
  end if;
  if p_limit is null or p_limit < 1 or p_limit > 100 then
    perform private.reject('limit', 'Please ask for 1 to 100 people at a time.');
  end if;
  if (p_after_created_at is null) <> (p_after_id is null) then
    perform private.reject('after', 'The page cursor needs both the time and the id of the last person shown.');
  end if;
  if p_after_created_at is not null and not isfinite(p_after_created_at) then
    perform private.reject('after', 'The page cursor''s time is not a date.');
  end if;

  role_filter := nullif(p_role, '');
  if role_filter = 'customer' then
    conditions := conditions || ' and (u.raw_app_meta_data ->> ''role'') is null';
  elsif role_filter is not null then
    conditions := conditions || ' and (u.raw_app_meta_data ->> ''role'') = $2';
  end if;
  if p_after_created_at is not null then
    conditions := conditions || ' and (u.created_at, u.id) < ($3, $4)';
  end if;

  if search <> '' then
    -- The largest character there is, so [search, search_end) is every text starting with search.
    search_end := search || chr(1114111);
    -- A few matches: collect them from the four index ranges and sort them. Many
    -- (a search of one or two letters): walk the accounts newest first and keep
    -- the matching ones, which finds a page after a few thousand rows at most.
    execute 'select count(*) from (
        select 1 from (
          select x.id from auth.users x where lower(x.email) ~>=~ $1 and lower(x.email) ~<~ $2
          union all
          select x.id from auth.users x
            where lower(split_part(x.email, ''@'', 2)) ~>=~ $1 and lower(split_part(x.email, ''@'', 2)) ~<~ $2
          union all
          select pr.id from public.profiles pr where lower(pr.full_name) ~>=~ $1 and lower(pr.full_name) ~<~ $2
          union all
          select pr.id from public.profiles pr where lower(pr.company) ~>=~ $1 and lower(pr.company) ~<~ $2
        ) m limit 501
      ) c'
      into match_count using search, search_end;
  end if;

  if search = '' then
    source := 'auth.users u';
  elsif match_count > 500 then
    source := 'auth.users u';
    conditions := conditions || ' and (
        (lower(u.email) ~>=~ $1 and lower(u.email) ~<~ $6)
        or (lower(split_part(u.email, ''@'', 2)) ~>=~ $1 and lower(split_part(u.email, ''@'', 2)) ~<~ $6)
        or (lower(p.full_name) ~>=~ $1 and lower(p.full_name) ~<~ $6)
        or (lower(p.company) ~>=~ $1 and lower(p.company) ~<~ $6)
      )';
  else
    source := 'auth.users u join (
        select x.id from auth.users x where lower(x.email) ~>=~ $1 and lower(x.email) ~<~ $6
        union
        select x.id from auth.users x
          where lower(split_part(x.email, ''@'', 2)) ~>=~ $1 and lower(split_part(x.email, ''@'', 2)) ~<~ $6
        union
        select pr.id from public.profiles pr where lower(pr.full_name) ~>=~ $1 and lower(pr.full_name) ~<~ $6
        union
        select pr.id from public.profiles pr where lower(pr.company) ~>=~ $1 and lower(pr.company) ~<~ $6
      ) m on m.id = u.id';
  end if;

  return query execute
    'select u.id, u.email::text, p.full_name, p.company, private.user_role(u.raw_app_meta_data),
            u.created_at, u.last_sign_in_at, private.active_ban(u.banned_until), u.invited_at, u.email_confirmed_at
     from ' || source || '
     left join public.profiles p on p.id = u.id
     where ' || conditions || '
     order by u.created_at desc, u.id desc
     limit $5'
    using search, role_filter, p_after_created_at, p_after_id, p_limit, search_end;
end
$$;

-- One account as its page shows it: the list row, plus its workspaces and
-- roles there, its sign-in methods (identities) and second factors, and
-- whether it is the caller's own.
create or replace function public.admin_get_user(p_user_id uuid) returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  summary jsonb;
begin
  perform private.require_admin('Only Cervana admins can see people''s accounts.');
  if p_user_id is null then
    perform private.reject('user_id', 'Please choose a person.');
  end if;
  select private.user_summary(u.id) into summary
  from auth.users u where u.id = p_user_id and u.deleted_at is null;
  if summary is null then
    raise exception using errcode = 'PT404', detail = 'user_id',
      message = 'This person''s account does not exist (any more).';
  end if;
  return summary || jsonb_build_object(
    'phone', (select nullif(u.phone, '') from auth.users u where u.id = p_user_id),
    'is_self', p_user_id = auth.uid(),
    'workspaces', coalesce((
      select jsonb_agg(jsonb_build_object('id', w.id, 'name', w.name, 'role', m.role) order by w.name, w.id)
      from public.workspace_members m
      join public.workspaces w on w.id = m.workspace_id
      where m.user_id = p_user_id
    ), '[]'),
    'identities', coalesce((
      select jsonb_agg(jsonb_build_object(
        'provider', i.provider,
        'email', i.identity_data ->> 'email',
        'created_at', i.created_at,
        'last_sign_in_at', i.last_sign_in_at
      ) order by i.created_at, i.provider)
      from auth.identities i
      where i.user_id = p_user_id
    ), '[]'),
    'factors', coalesce((
      select jsonb_agg(jsonb_build_object(
        'id', f.id,
        'factor_type', f.factor_type,
        'status', f.status,
        'friendly_name', f.friendly_name,
        'created_at', f.created_at
      ) order by f.created_at, f.id)
      from auth.mfa_factors f
      where f.user_id = p_user_id
    ), '[]')
  );
end
$$;

-- The admins a lead can be given to (the lead page's owner choice): id, email, name.
create or replace function public.admin_list_admins() returns table (id uuid, email text, full_name text)
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  perform private.require_admin('Only Cervana admins can list the admins.');
  return query
    select u.id, u.email::text, p.full_name
    from auth.users u
    left join public.profiles p on p.id = u.id
    where u.raw_app_meta_data ->> 'role' = 'admin'
      and u.deleted_at is null
      and (u.banned_until is null or u.banned_until <= now())
    order by lower(coalesce(p.full_name, u.email)), u.id
    limit 500;
end
$$;

-- ---------------------------------------------------------------------------
-- Changing
-- ---------------------------------------------------------------------------

-- Makes an account a customer (no role), partner or admin. The person's
-- sessions end, so the new role applies at once (they sign in again to get a
-- token with it). An admin cannot change their own role.
create or replace function public.admin_set_user_role(p_user_id uuid, p_role text) returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  target auth.users;
  old_role text;
begin
  perform private.require_admin('Only Cervana admins can change people''s roles.');
  if p_user_id is null then
    perform private.reject('user_id', 'Please choose a person.');
  end if;
  if p_role is null or p_role not in ('customer', 'partner', 'admin') then
    perform private.reject('role', 'Please choose a role from the list: customer, partner or admin.');
  end if;
  if p_user_id = auth.uid() then
    perform private.reject('user_id', 'You cannot change your own role: ask another admin to do it.');
  end if;

  perform private.lock_admin_roster();
  target := private.admin_target(p_user_id);
  old_role := private.user_role(target.raw_app_meta_data);
  if old_role = p_role then
    return private.user_summary(p_user_id);
  end if;
  if old_role = 'admin' then
    perform private.keep_an_admin(p_user_id);
  end if;

  update auth.users u
  set raw_app_meta_data = case
        when p_role = 'customer' then coalesce(u.raw_app_meta_data, '{}') - 'role'
        else coalesce(u.raw_app_meta_data, '{}') || jsonb_build_object('role', p_role)
      end,
      updated_at = now()
  where u.id = p_user_id;
  perform private.end_user_sessions(p_user_id);
  perform private.audit_user_action('update', p_user_id,
    jsonb_build_object('role', old_role), jsonb_build_object('role', p_role));
  return private.user_summary(p_user_id);
end
$$;

-- Bans an account for p_hours (1 hour to 10 years), or indefinitely when
-- p_hours is null (as the auth service does, a hundred years). Its sessions
-- end at once; it cannot sign in or refresh until the ban ends or is lifted.
create or replace function public.admin_ban_user(p_user_id uuid, p_hours integer default null)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  target auth.users;
  until timestamptz;
begin
  perform private.require_admin('Only Cervana admins can ban people.');
  if p_user_id is null then
    perform private.reject('user_id', 'Please choose a person.');
  end if;
  if p_hours is not null and (p_hours < 1 or p_hours > 87600) then
    perform private.reject('hours', 'Please choose how long the ban lasts: from 1 hour up to 10 years, or indefinitely.');
  end if;
  if p_user_id = auth.uid() then
    perform private.reject('user_id', 'You cannot ban yourself.');
  end if;

  perform private.lock_admin_roster();
  target := private.admin_target(p_user_id);
  if private.user_role(target.raw_app_meta_data) = 'admin' then
    perform private.keep_an_admin(p_user_id);
  end if;
  until := now() + coalesce(make_interval(hours => p_hours), interval '100 years');

  update auth.users u set banned_until = until, updated_at = now() where u.id = p_user_id;
  perform private.end_user_sessions(p_user_id);
  perform private.audit_user_action('update', p_user_id,
    jsonb_build_object('banned_until', private.active_ban(target.banned_until)),
    jsonb_build_object('banned_until', until));
  return private.user_summary(p_user_id);
end
$$;

-- Lifts a ban: the person can sign in again (their old sessions stay ended).
create or replace function public.admin_unban_user(p_user_id uuid) returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  target auth.users;
begin
  perform private.require_admin('Only Cervana admins can lift bans.');
  target := private.admin_target(p_user_id);
  if private.active_ban(target.banned_until) is null then
    return private.user_summary(p_user_id);
  end if;
  update auth.users u set banned_until = null, updated_at = now() where u.id = p_user_id;
  perform private.audit_user_action('update', p_user_id,
    jsonb_build_object('banned_until', target.banned_until), jsonb_build_object('banned_until', null));
  return private.user_summary(p_user_id);
end
$$;

-- Deletes an account for good: its profile, memberships, sessions, sign-in
-- methods and factors go with it (a workspace it owned passes to its
-- longest-standing admin or member, or goes when nobody is left); records that
-- name it (leads, bookings, applications) keep their data without the link.
-- The audit entry keeps who it was. An admin cannot delete themselves.
create or replace function public.admin_delete_user(p_user_id uuid) returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  target auth.users;
  before jsonb;
begin
  perform private.require_admin('Only Cervana admins can delete accounts.');
  if p_user_id is null then
    perform private.reject('user_id', 'Please choose a person.');
  end if;
  if p_user_id = auth.uid() then
    perform private.reject('user_id', 'You cannot delete your own account here: ask another admin.');
  end if;

  perform private.lock_admin_roster();
  target := private.admin_target(p_user_id);
  if private.user_role(target.raw_app_meta_data) = 'admin' then
    perform private.keep_an_admin(p_user_id);
  end if;
  before := private.user_summary(p_user_id) - 'banned_until' - 'invited_at' - 'email_confirmed_at' - 'last_sign_in_at';

  delete from auth.users u where u.id = p_user_id;
  perform private.audit_user_action('delete', p_user_id, before, null);
  return jsonb_build_object('id', p_user_id);
end
$$;

-- ---------------------------------------------------------------------------
-- Invitations and password resets (sent by the admin-users edge function)
-- ---------------------------------------------------------------------------

-- Checks an invitation or password reset before the edge function asks the
-- auth service to send it, and answers the address to send it to: for
-- 'invite', p_email cleaned (refused when an account has it already); for
-- 'reset', the account's own address.
create or replace function public.admin_user_email_target(
  p_action text,
  p_user_id uuid default null,
  p_email text default null
) returns text
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  address text;
  target auth.users;
begin
  perform private.require_admin('Only Cervana admins can invite people or send password resets.');
  if p_action is null or p_action not in ('invite', 'reset') then
    perform private.reject('action', 'The action must be "invite" or "reset".');
  end if;
  if p_action = 'invite' then
    address := lower(btrim(coalesce(p_email, '')));
    if address = '' then
      perform private.reject('email', 'Please enter the email address of the person to invite.');
    end if;
    if char_length(address) > 254
       or address !~ '^[a-z0-9.!#$%&''*+/=?^_`{|}~-]+@[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$' then
      perform private.reject('email', 'Please enter a valid email address, like jane@company.com.');
    end if;
    if exists (select from auth.users u where lower(u.email) = address and u.deleted_at is null) then
      raise exception using errcode = 'PT409', detail = 'email',
        message = 'Someone with this email address has an account already: find them in the list instead.';
    end if;
    return address;
  end if;

  if p_user_id is null then
    perform private.reject('user_id', 'Please choose a person.');
  end if;
  select u.* into target from auth.users u where u.id = p_user_id and u.deleted_at is null;
  if target.id is null then
    raise exception using errcode = 'PT404', detail = 'user_id',
      message = 'This person''s account does not exist (any more).';
  end if;
  if coalesce(target.email, '') = '' then
    perform private.reject('user_id', 'This person signs in without an email address, so there is nowhere to send a reset.');
  end if;
  return target.email;
end
$$;

-- The audit entry of an invitation or password reset the caller has just had
-- sent. The actor is the caller's own token (an admin's), never an argument.
create or replace function public.admin_record_user_email(p_action text, p_user_id uuid) returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  target auth.users;
begin
  perform private.require_admin('Only Cervana admins can invite people or send password resets.');
  if p_action is null or p_action not in ('invite', 'reset') then
    perform private.reject('action', 'The action must be "invite" or "reset".');
  end if;
  if p_user_id is null then
    perform private.reject('user_id', 'Please choose a person.');
  end if;
  select u.* into target from auth.users u where u.id = p_user_id and u.deleted_at is null;
  if target.id is null then
    raise exception using errcode = 'PT404', detail = 'user_id',
      message = 'This person''s account does not exist (any more).';
  end if;
  if p_action = 'invite' then
    perform private.audit_user_action('insert', p_user_id, null,
      jsonb_build_object('email', target.email, 'invited_at', target.invited_at));
  else
    perform private.audit_user_action('update', p_user_id,
      jsonb_build_object('password_reset_sent_to', null),
      jsonb_build_object('password_reset_sent_to', target.email));
  end if;
end
$$;

-- ---------------------------------------------------------------------------
-- Grants: signed-in callers only (the functions refuse anyone but an admin).
-- ---------------------------------------------------------------------------

revoke execute on function public.admin_list_users(text, text, timestamptz, uuid, integer) from public, anon;
revoke execute on function public.admin_get_user(uuid) from public, anon;
revoke execute on function public.admin_list_admins() from public, anon;
revoke execute on function public.admin_set_user_role(uuid, text) from public, anon;
revoke execute on function public.admin_ban_user(uuid, integer) from public, anon;
revoke execute on function public.admin_unban_user(uuid) from public, anon;
revoke execute on function public.admin_delete_user(uuid) from public, anon;
revoke execute on function public.admin_user_email_target(text, uuid, text) from public, anon;
revoke execute on function public.admin_record_user_email(text, uuid) from public, anon;

grant execute on function public.admin_list_users(text, text, timestamptz, uuid, integer) to authenticated;
grant execute on function public.admin_get_user(uuid) to authenticated;
grant execute on function public.admin_list_admins() to authenticated;
grant execute on function public.admin_set_user_role(uuid, text) to authenticated;
grant execute on function public.admin_ban_user(uuid, integer) to authenticated;
grant execute on function public.admin_unban_user(uuid) to authenticated;
grant execute on function public.admin_delete_user(uuid) to authenticated;
grant execute on function public.admin_user_email_target(text, uuid, text) to authenticated;
grant execute on function public.admin_record_user_email(text, uuid) to authenticated;

-- The helpers are for these functions only.
revoke execute on function private.audit_user_action(text, uuid, jsonb, jsonb) from public;
revoke execute on function private.keep_an_admin(uuid) from public;
revoke execute on function private.lock_admin_roster() from public;
revoke execute on function private.admin_target(uuid) from public;
revoke execute on function private.user_summary(uuid) from public;
revoke execute on function private.end_user_sessions(uuid) from public;
