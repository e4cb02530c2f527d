-- Who a user is (profiles) and which customer account they work in (workspaces
-- and their members). Roles come from two places: the product-wide role in
-- app_metadata (admin = Cervana staff, partner), which only the server and admins
-- can change, and the per-workspace role (owner, admin, member) below.
-- Everything here runs unchanged on the embedded PGlite, PostgreSQL 15+ and a
-- hosted Supabase project: no extensions, and nothing created in the auth schema
-- but triggers on auth.users.

-- ---------------------------------------------------------------------------
-- Tables
-- ---------------------------------------------------------------------------

create table public.profiles (
  id uuid primary key references auth.users (id) on delete cascade,
  full_name text check (char_length(full_name) between 1 and 120),
  company text check (char_length(company) between 1 and 120),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

comment on table public.profiles is
  'One row per user, mirrored from the user''s metadata (full_name, company) by triggers on auth.users.';

create table public.workspaces (
  id uuid primary key default gen_random_uuid(),
  name text not null check (char_length(name) between 1 and 120 and name = btrim(name)),
  created_by uuid references auth.users (id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

comment on table public.workspaces is
  'A customer''s account: one per company. Whoever signs up owns a new one.';

create index workspaces_created_by_idx on public.workspaces (created_by);

-- user_id references profiles (not auth.users) so the data API can embed a
-- member's profile: select('role, profiles(full_name)'). Deleting a user
-- cascades auth.users -> profiles -> workspace_members.
create table public.workspace_members (
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  user_id uuid not null references public.profiles (id) on delete cascade,
  role text not null default 'member' check (role in ('owner', 'admin', 'member')),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  primary key (workspace_id, user_id)
);

comment on table public.workspace_members is
  'Who belongs to which workspace, as owner, admin or member. Every workspace keeps at least one owner.';

create index workspace_members_user_id_idx on public.workspace_members (user_id);

-- ---------------------------------------------------------------------------
-- Row triggers on the product tables
-- ---------------------------------------------------------------------------

create or replace function public.set_updated_at() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  new.updated_at := now();
  return new;
end
$$;

create trigger profiles_set_updated_at before update on public.profiles
  for each row execute function public.set_updated_at();
create trigger workspaces_set_updated_at before update on public.workspaces
  for each row execute function public.set_updated_at();
create trigger workspace_members_set_updated_at before update on public.workspace_members
  for each row execute function public.set_updated_at();

-- Metadata is whatever a client sent at sign-up: collapse whitespace and control
-- characters, trim, keep at most 120 characters (the app's own limit), and store
-- an empty value as null. Applies to every writer, so the checks never fire on
-- sign-up input.
create or replace function public.normalize_profile() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  new.full_name := nullif(btrim(left(btrim(regexp_replace(new.full_name, '[[:space:][:cntrl:]]+', ' ', 'g')), 120)), '');
  new.company := nullif(btrim(left(btrim(regexp_replace(new.company, '[[:space:][:cntrl:]]+', ' ', 'g')), 120)), '');
  return new;
end
$$;

create trigger profiles_normalize before insert or update on public.profiles
  for each row execute function public.normalize_profile();

-- A workspace created without a name is named after its creator: the company,
-- else "<full name>'s workspace", else "My workspace".
create or replace function public.name_new_workspace() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  creator record;
begin
  if new.name is null then
    select p.full_name, p.company into creator from public.profiles p where p.id = new.created_by;
    new.name := coalesce(
      creator.company,
      left(creator.full_name, 108) || '''s workspace',
      'My workspace'
    );
  end if;
  return new;
end
$$;

create trigger workspaces_name_new before insert on public.workspaces
  for each row execute function public.name_new_workspace();

-- Whoever creates a workspace owns it.
create or replace function public.add_workspace_creator() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if new.created_by is not null then
    insert into public.workspace_members (workspace_id, user_id, role)
    values (new.id, new.created_by, 'owner')
    on conflict (workspace_id, user_id) do update set role = 'owner';
  end if;
  return null;
end
$$;

create trigger workspaces_add_creator after insert on public.workspaces
  for each row execute function public.add_workspace_creator();

-- The last owner of a workspace can never be removed or demoted, whoever asks
-- (service_role included). An AFTER trigger sees the whole statement's changes,
-- and the lock on the workspace row serialises concurrent owner changes, so two
-- owners demoting each other at once cannot both succeed. Two exceptions: the
-- workspace itself is being deleted, or the owner's account is (erasure must
-- always work): then the longest-standing admin, else member, takes over, and a
-- workspace with nobody left is deleted.
create or replace function public.keep_a_workspace_owner() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  successor uuid;
begin
  if old.role <> 'owner'
     or (tg_op = 'UPDATE' and new.role = 'owner' and new.workspace_id = old.workspace_id) then
    return null;
  end if;
  perform from public.workspaces w where w.id = old.workspace_id for update;
  if not found then
    return null;
  end if;
  if exists (
    select from public.workspace_members m
    where m.workspace_id = old.workspace_id and m.role = 'owner'
  ) then
    return null;
  end if;
  if tg_op = 'DELETE' and not exists (select from public.profiles p where p.id = old.user_id) then
    select m.user_id into successor
    from public.workspace_members m
    where m.workspace_id = old.workspace_id
    order by m.role = 'admin' desc, m.created_at, m.user_id
    limit 1;
    if successor is null then
      delete from public.workspaces w where w.id = old.workspace_id;
    else
      update public.workspace_members m set role = 'owner'
      where m.workspace_id = old.workspace_id and m.user_id = successor;
    end if;
    return null;
  end if;
  raise exception 'A workspace must keep at least one owner.'
    using errcode = 'check_violation',
          constraint = 'workspace_members_last_owner',
          hint = 'Make another member an owner first.';
end
$$;

create trigger workspace_members_keep_an_owner
  after update or delete on public.workspace_members
  for each row execute function public.keep_a_workspace_owner();

-- ---------------------------------------------------------------------------
-- Sign-up: triggers on auth.users (the only objects this file puts in auth)
-- ---------------------------------------------------------------------------

-- Every user gets a profile at once, and it follows their metadata: the app's
-- account settings change full_name and company through PUT /auth/v1/user.
-- Only string values count; anything else in the metadata is ignored.
create or replace function public.sync_profile_from_user() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  insert into public.profiles as p (id, full_name, company)
  values (
    new.id,
    case jsonb_typeof(new.raw_user_meta_data -> 'full_name')
      when 'string' then new.raw_user_meta_data ->> 'full_name' end,
    case jsonb_typeof(new.raw_user_meta_data -> 'company')
      when 'string' then new.raw_user_meta_data ->> 'company' end
  )
  on conflict (id) do update
    set full_name = excluded.full_name, company = excluded.company
    where (p.full_name, p.company) is distinct from (excluded.full_name, excluded.company);
  return null;
end
$$;

create trigger on_auth_user_created_sync_profile
  after insert on auth.users
  for each row execute function public.sync_profile_from_user();

create trigger on_auth_user_metadata_changed_sync_profile
  after update of raw_user_meta_data on auth.users
  for each row when (old.raw_user_meta_data is distinct from new.raw_user_meta_data)
  execute function public.sync_profile_from_user();

-- A new customer owns a new workspace. Deferred to commit, because GoTrue (and
-- our server) write app_metadata after inserting the user, in the same
-- transaction: the user is read as it is when the transaction ends.
-- No workspace for:
--   * anonymous users, until they become permanent (second trigger below);
--   * partners: a partner is a referral business that works in the partner
--     portal, not a customer account; one who also becomes a customer is added
--     to a workspace like anyone else;
--   * admins: Cervana staff (the demo seed creates one) see every workspace
--     through is_admin(); an empty workspace per staff member would only
--     pollute the customer numbers.
-- A user already in a workspace gets no second one.
create or replace function public.provision_workspace() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if exists (
    select from auth.users u
    where u.id = new.id
      and not u.is_anonymous
      and u.deleted_at is null
      and coalesce(u.raw_app_meta_data ->> 'role', '') not in ('admin', 'partner')
  ) and not exists (select from public.workspace_members m where m.user_id = new.id) then
    insert into public.workspaces (name, created_by) values (null, new.id);
  end if;
  return null;
end
$$;

create constraint trigger on_auth_user_created_provision_workspace
  after insert on auth.users
  deferrable initially deferred
  for each row execute function public.provision_workspace();

create constraint trigger on_auth_user_made_permanent_provision_workspace
  after update of is_anonymous on auth.users
  deferrable initially deferred
  for each row when (old.is_anonymous and not new.is_anonymous)
  execute function public.provision_workspace();

-- Trigger functions are not for calling.
revoke execute on function
  public.set_updated_at(),
  public.normalize_profile(),
  public.name_new_workspace(),
  public.add_workspace_creator(),
  public.keep_a_workspace_owner(),
  public.sync_profile_from_user(),
  public.provision_workspace()
from public, anon, authenticated;

-- Users who existed before this migration: the same rules, once (idempotent).
insert into public.profiles (id, full_name, company)
select
  u.id,
  case jsonb_typeof(u.raw_user_meta_data -> 'full_name')
    when 'string' then u.raw_user_meta_data ->> 'full_name' end,
  case jsonb_typeof(u.raw_user_meta_data -> 'company')
    when 'string' then u.raw_user_meta_data ->> 'company' end
from auth.users u
on conflict (id) do nothing;

insert into public.workspaces (name, created_by)
select null, u.id
from auth.users u
where not u.is_anonymous
  and u.deleted_at is null
  and coalesce(u.raw_app_meta_data ->> 'role', '') not in ('admin', 'partner')
  and not exists (select from public.workspace_members m where m.user_id = u.id)
order by u.created_at, u.id;

-- ---------------------------------------------------------------------------
-- Helpers for policies (and for the app, through RPC): who is asking
-- ---------------------------------------------------------------------------
-- security definer, so that reading workspace_members inside a policy on
-- workspace_members does not apply that policy again (no recursion), and so
-- they work whatever the caller may read. Roles come from the verified JWT:
-- a changed app_metadata role takes effect with the user's next token.

create or replace function public.is_admin() returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce(auth.jwt() -> 'app_metadata' ->> 'role' = 'admin', false)
$$;

create or replace function public.is_partner() returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce(auth.jwt() -> 'app_metadata' ->> 'role' = 'partner', false)
$$;

create or replace function public.workspace_role(workspace_id uuid) returns text
language sql
stable
security definer
set search_path = ''
as $$
  select m.role
  from public.workspace_members m
  where m.workspace_id = workspace_role.workspace_id
    and m.user_id = auth.uid()
$$;

create or replace function public.is_workspace_member(workspace_id uuid) returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select exists (
    select from public.workspace_members m
    where m.workspace_id = is_workspace_member.workspace_id
      and m.user_id = auth.uid()
  )
$$;

create or replace function public.shares_workspace_with(user_id uuid) returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select exists (
    select
    from public.workspace_members mine
    join public.workspace_members theirs on theirs.workspace_id = mine.workspace_id
    where mine.user_id = auth.uid()
      and theirs.user_id = shares_workspace_with.user_id
  )
$$;

revoke execute on function
  public.is_admin(),
  public.is_partner(),
  public.workspace_role(uuid),
  public.is_workspace_member(uuid),
  public.shares_workspace_with(uuid)
from public, anon;
grant execute on function
  public.is_admin(),
  public.is_partner(),
  public.workspace_role(uuid),
  public.is_workspace_member(uuid),
  public.shares_workspace_with(uuid)
to authenticated, service_role;

-- ---------------------------------------------------------------------------
-- Access: table privileges say which columns a role may touch at all, and
-- row-level security says which rows. anon gets nothing. Grants are explicit:
-- new Supabase projects no longer grant new public tables to the API roles.
-- ---------------------------------------------------------------------------

alter table public.profiles enable row level security;
alter table public.workspaces enable row level security;
alter table public.workspace_members enable row level security;

revoke all on public.profiles, public.workspaces, public.workspace_members from anon, authenticated;
grant all on public.profiles, public.workspaces, public.workspace_members to service_role;

-- Profiles mirror the user's metadata; users change them through
-- PUT /auth/v1/user (account settings), never here, so they cannot drift apart.
-- Rows come and go with the user (trigger, cascade).
grant select on public.profiles to authenticated;

create policy "Users read their own, their teammates' and (admins) all profiles"
  on public.profiles for select to authenticated
  using (
    id = (select auth.uid())
    or (select public.is_admin())
    or public.shares_workspace_with(id)
  );

-- Workspaces are created at sign-up and deleted with their last member; through
-- the API, their owners and admins rename them. Cervana admins read them all;
-- their changes will go through the admin area's audited functions.
grant select, update (name) on public.workspaces to authenticated;

create policy "Members and admins read workspaces"
  on public.workspaces for select to authenticated
  using (public.is_workspace_member(id) or (select public.is_admin()));

create policy "Workspace owners and admins rename their workspace"
  on public.workspaces for update to authenticated
  using (public.workspace_role(id) in ('owner', 'admin'))
  with check (public.workspace_role(id) in ('owner', 'admin'));

-- Members see who else is in their workspaces. Owners manage everyone; workspace
-- admins manage admins and members but never grant, change or remove an owner;
-- anyone may leave. The last owner stays (keep_a_workspace_owner).
grant select, insert (workspace_id, user_id, role), update (role), delete
  on public.workspace_members to authenticated;

create policy "Members and admins read memberships"
  on public.workspace_members for select to authenticated
  using (public.is_workspace_member(workspace_id) or (select public.is_admin()));

create policy "Owners and workspace admins add members"
  on public.workspace_members for insert to authenticated
  with check (
    case public.workspace_role(workspace_id)
      when 'owner' then true
      when 'admin' then role <> 'owner'
      else false
    end
  );

create policy "Owners and workspace admins change roles"
  on public.workspace_members for update to authenticated
  using (
    case public.workspace_role(workspace_id)
      when 'owner' then true
      when 'admin' then role <> 'owner'
      else false
    end
  )
  with check (
    case public.workspace_role(workspace_id)
      when 'owner' then true
      when 'admin' then role <> 'owner'
      else false
    end
  );

create policy "Owners and workspace admins remove members; anyone leaves"
  on public.workspace_members for delete to authenticated
  using (
    user_id = (select auth.uid())
    or case public.workspace_role(workspace_id)
      when 'owner' then true
      when 'admin' then role <> 'owner'
      else false
    end
  );
