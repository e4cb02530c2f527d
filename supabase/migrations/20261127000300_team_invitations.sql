-- Team invitations (issue 16, decision 019): a workspace's owners and admins
-- invite people by email; the invited person accepts while signed in with that
-- address (verified) and becomes a member. Invitations are written only by the
-- security definer functions below; the team-invite edge function calls
-- invite_to_workspace as the caller (so this file decides who may invite) and
-- then sends the email with the service role. Runs unchanged on PGlite,
-- PostgreSQL 15+ and a hosted Supabase project: no extensions.

-- ---------------------------------------------------------------------------
-- The table
-- ---------------------------------------------------------------------------

create table public.workspace_invitations (
  id uuid primary key default gen_random_uuid(),
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  email text not null
    check (char_length(email) between 3 and 254 and email = lower(btrim(email)) and email ~ '^[^\s@]+@[^\s@]+$'),
  role text not null check (role in ('owner', 'admin', 'member')),
  -- profiles, so the data API can embed the inviter's name.
  invited_by uuid references public.profiles (id) on delete set null,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null default now() + interval '7 days',
  last_sent_at timestamptz not null default now(),
  accepted_at timestamptz,
  accepted_by uuid references auth.users (id) on delete set null,
  declined_at timestamptz,
  revoked_at timestamptz,
  revoked_by uuid references auth.users (id) on delete set null,
  -- An invitation ends at most one way.
  check (num_nonnulls(accepted_at, declined_at, revoked_at) <= 1),
  check (expires_at > created_at)
);

comment on table public.workspace_invitations is
  'People invited to a workspace by email, with the role they get on accepting. Pending: none of '
  'accepted_at, declined_at, revoked_at set, and expires_at in the future.';

-- One open invitation per workspace and address (an expired one is closed as
-- revoked when the address is invited again).
create unique index workspace_invitations_open_idx
  on public.workspace_invitations (workspace_id, email)
  where accepted_at is null and declined_at is null and revoked_at is null;
create index workspace_invitations_email_idx on public.workspace_invitations (email)
  where accepted_at is null and declined_at is null and revoked_at is null;
create index workspace_invitations_invited_by_idx on public.workspace_invitations (invited_by);

-- How many invitation emails a workspace may send in 24 hours (sends and resends).
create table private.team_settings (
  id boolean primary key default true check (id),
  invitations_per_day integer not null default 50 check (invitations_per_day between 1 and 100000)
);
insert into private.team_settings default values;

-- Every invitation email sent, for that limit. Goes with its invitation, so an
-- invitation whose email could not be sent (and is deleted) counts for nothing.
create table private.workspace_invitation_sends (
  invitation_id uuid not null references public.workspace_invitations (id) on delete cascade,
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  sent_at timestamptz not null default now()
);
create index workspace_invitation_sends_idx
  on private.workspace_invitation_sends (workspace_id, sent_at);
create index workspace_invitation_sends_invitation_idx
  on private.workspace_invitation_sends (invitation_id);

revoke all on private.team_settings, private.workspace_invitation_sends
  from public, anon, authenticated, service_role;

-- ---------------------------------------------------------------------------
-- Who asks
-- ---------------------------------------------------------------------------

-- The caller's email address, lower-cased, only once they have confirmed it:
-- an invitation is for whoever proved they own the address, never for whoever
-- typed it at sign-up.
create or replace function public.my_verified_email() returns text
language sql
stable
security definer
set search_path = ''
as $$
  select lower(u.email)
  from auth.users u
  where u.id = auth.uid() and u.email_confirmed_at is not null and u.deleted_at is null
$$;

revoke execute on function public.my_verified_email() from public, anon;
grant execute on function public.my_verified_email() to authenticated, service_role;

-- ---------------------------------------------------------------------------
-- Access: owners and admins of the workspace read its invitations (members do
-- not: they are addresses of people outside the team); the invited person
-- reads their own; Cervana admins read all. Nobody writes through the API.
-- ---------------------------------------------------------------------------

alter table public.workspace_invitations enable row level security;
revoke all on public.workspace_invitations from anon, authenticated;
grant all on public.workspace_invitations to service_role;
grant select on public.workspace_invitations to authenticated;

create policy "Workspace owners and admins, the invitee and admins read invitations"
  on public.workspace_invitations for select to authenticated
  using (
    public.workspace_role(workspace_id) in ('owner', 'admin')
    or email = (select public.my_verified_email())
    or (select public.is_admin())
  );

create policy "Second factor required once enrolled"
  on public.workspace_invitations as restrictive for all to authenticated
  using ((select public.mfa_satisfied()))
  with check ((select public.mfa_satisfied()));

-- ---------------------------------------------------------------------------
-- Helpers
-- ---------------------------------------------------------------------------

create or replace function private.invitation_link(invitation_id uuid) returns text
language sql
stable
security definer
set search_path = ''
as $$
  select private.site_url() || '/dashboard/team?invitation=' || invitation_id::text
$$;

-- What the functions return about an invitation (to its inviter and the edge function).
create or replace function private.invitation_json(invitation public.workspace_invitations)
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  select jsonb_build_object(
    'id', invitation.id,
    'workspace_id', invitation.workspace_id,
    'workspace_name', (select w.name from public.workspaces w where w.id = invitation.workspace_id),
    'email', invitation.email,
    'role', invitation.role,
    'created_at', invitation.created_at,
    'expires_at', invitation.expires_at,
    'last_sent_at', invitation.last_sent_at,
    'link', private.invitation_link(invitation.id)
  )
$$;

-- May the caller manage (invite, resend, revoke) an invitation with this role
-- in this workspace? Owners: any. Workspace admins: admins and members.
create or replace function private.can_manage_invitation(workspace_id uuid, role text) returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce(
    case public.workspace_role(workspace_id)
      when 'owner' then true
      when 'admin' then role <> 'owner'
      else false
    end,
    false
  )
$$;

-- Counts one invitation email against the workspace's daily allowance, in the
-- caller's transaction (refused or failed, it counts for nothing).
create or replace function private.count_invitation_send(invitation public.workspace_invitations)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  allowed integer;
  sent integer;
begin
  select s.invitations_per_day into allowed from private.team_settings s where s.id;
  select count(*) into sent
  from private.workspace_invitation_sends s
  where s.workspace_id = invitation.workspace_id and s.sent_at > now() - interval '24 hours';
  if sent >= allowed then
    raise exception using
      errcode = 'PT429',
      message = format(
        'This workspace has sent %s invitations in the last 24 hours, the most we allow. '
          || 'Please try again tomorrow.',
        allowed
      ),
      detail = 'rate_limited';
  end if;
  insert into private.workspace_invitation_sends (invitation_id, workspace_id)
  values (invitation.id, invitation.workspace_id);
end
$$;

-- The invitation the caller may manage, locked, or a refusal that says nothing
-- about invitations of other workspaces.
create or replace function private.managed_invitation(invitation_id uuid)
returns public.workspace_invitations
language plpgsql
security definer
set search_path = ''
as $$
declare
  invitation public.workspace_invitations;
begin
  if invitation_id is null then
    perform private.reject('invitation_id', 'Please choose an invitation.');
  end if;
  select * into invitation from public.workspace_invitations i where i.id = invitation_id for update;
  if not found or not private.can_manage_invitation(invitation.workspace_id, invitation.role) then
    raise exception using
      errcode = 'PT404',
      message = 'This invitation does not exist, or you cannot manage it.',
      detail = 'invitation_id';
  end if;
  if invitation.accepted_at is not null then
    raise exception using
      errcode = 'PT409',
      message = 'This invitation was already accepted. To take away access, remove the member instead.',
      detail = 'invitation_id';
  end if;
  if invitation.declined_at is not null or invitation.revoked_at is not null then
    raise exception using
      errcode = 'PT409',
      message = 'This invitation is no longer open. Invite the person again if you still want them to join.',
      detail = 'invitation_id';
  end if;
  return invitation;
end
$$;

revoke execute on function
  private.invitation_link(uuid),
  private.invitation_json(public.workspace_invitations),
  private.can_manage_invitation(uuid, text),
  private.count_invitation_send(public.workspace_invitations),
  private.managed_invitation(uuid)
from public, anon, authenticated;

-- ---------------------------------------------------------------------------
-- Inviting, resending, revoking (owners and workspace admins)
-- ---------------------------------------------------------------------------

create or replace function public.invite_to_workspace(
  p_workspace_id uuid,
  p_email text,
  p_role text
) returns jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  caller_role text;
  clean_email text;
  clean_role text;
  invitation public.workspace_invitations;
begin
  if p_workspace_id is null then
    perform private.reject('workspace_id', 'Please choose the workspace to invite to.');
  end if;
  caller_role := public.workspace_role(p_workspace_id);
  if caller_role is null or caller_role not in ('owner', 'admin') then
    raise exception 'Only the workspace''s owners and admins can invite people.'
      using errcode = '42501', detail = 'workspace_id';
  end if;
  if nullif(btrim(coalesce(p_email, '')), '') is null then
    perform private.reject('email', 'Please enter the email address of the person to invite.');
  end if;
  clean_email := private.clean_email('email', p_email);
  clean_role := private.clean_choice('role', p_role, 'a role', array['owner', 'admin', 'member']);
  if clean_role = 'owner' and caller_role <> 'owner' then
    perform private.reject('role', 'Only an owner can invite another owner. Choose admin or member.');
  end if;

  -- One invitation at a time per workspace: the duplicate check and the daily
  -- count cannot race.
  perform from public.workspaces w where w.id = p_workspace_id for update;

  if exists (
    select
    from public.workspace_members m
    join auth.users u on u.id = m.user_id
    where m.workspace_id = p_workspace_id and lower(u.email) = clean_email
  ) then
    perform private.reject(
      'email', format('There is already a member with the address %s in this workspace.', clean_email)
    );
  end if;

  select * into invitation
  from public.workspace_invitations i
  where i.workspace_id = p_workspace_id and i.email = clean_email
    and i.accepted_at is null and i.declined_at is null and i.revoked_at is null;
  if found then
    if invitation.expires_at > now() then
      perform private.reject(
        'email',
        format('There is already a pending invitation for %s. Resend it from the list below instead.', clean_email)
      );
    end if;
    -- Expired: closed, so the address can be invited afresh.
    update public.workspace_invitations i set revoked_at = now()
    where i.id = invitation.id;
  end if;

  insert into public.workspace_invitations (workspace_id, email, role, invited_by)
  values (p_workspace_id, clean_email, clean_role, auth.uid())
  returning * into invitation;
  perform private.count_invitation_send(invitation);
  return private.invitation_json(invitation);
end
$$;

comment on function public.invite_to_workspace(uuid, text, text) is
  'Stores an invitation (owners and workspace admins; only owners invite owners) and returns it with '
  'its link. The team-invite edge function then sends the email.';

create or replace function public.resend_workspace_invitation(p_invitation_id uuid) returns jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  invitation public.workspace_invitations;
begin
  invitation := private.managed_invitation(p_invitation_id);
  if invitation.last_sent_at > now() - interval '1 minute' then
    raise exception using
      errcode = 'PT429',
      message = 'This invitation was sent less than a minute ago. Please wait a minute before sending it again.',
      detail = 'rate_limited';
  end if;
  -- A resent invitation is good for another 7 days.
  update public.workspace_invitations i
  set last_sent_at = now(), expires_at = now() + interval '7 days'
  where i.id = invitation.id
  returning * into invitation;
  perform private.count_invitation_send(invitation);
  return private.invitation_json(invitation);
end
$$;

create or replace function public.revoke_workspace_invitation(p_invitation_id uuid) returns jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  invitation public.workspace_invitations;
begin
  invitation := private.managed_invitation(p_invitation_id);
  update public.workspace_invitations i
  set revoked_at = now(), revoked_by = auth.uid()
  where i.id = invitation.id
  returning * into invitation;
  return private.invitation_json(invitation);
end
$$;

-- The email for an address that already has an account (the auth service's
-- invitation is only for new addresses). Service role only: the team-invite
-- function calls it after invite_to_workspace or resend_workspace_invitation
-- succeeded as the caller.
create or replace function public.queue_workspace_invitation_email(p_invitation_id uuid) returns uuid
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  invitation public.workspace_invitations;
  workspace_name text;
  inviter text;
  role_phrase text;
begin
  select * into invitation from public.workspace_invitations i
  where i.id = p_invitation_id
    and i.accepted_at is null and i.declined_at is null and i.revoked_at is null
    and i.expires_at > now();
  if not found then
    raise exception using
      errcode = 'PT404',
      message = 'This invitation does not exist or is no longer open.',
      detail = 'invitation_id';
  end if;
  select w.name into workspace_name from public.workspaces w where w.id = invitation.workspace_id;
  select p.full_name into inviter from public.profiles p where p.id = invitation.invited_by;
  role_phrase := case invitation.role when 'admin' then 'an admin' when 'owner' then 'an owner' else 'a member' end;
  return private.queue_email(
    recipient => invitation.email,
    subject => format('Join %s on Cervana', workspace_name),
    template => 'team.invitation',
    heading => format('Join %s on Cervana', workspace_name),
    paragraphs => array[
      format(
        '%s invited you to the %s workspace on Cervana as %s.',
        coalesce(inviter, 'A teammate'), workspace_name, role_phrase
      ),
      'Sign in with this email address to accept. The invitation is good for 7 days.'
    ],
    action_label => 'Accept the invitation',
    action_url => private.invitation_link(invitation.id),
    footnote => 'If you were not expecting this invitation, you can ignore it.',
    metadata => jsonb_build_object('invitation_id', invitation.id)
  );
end
$$;

-- ---------------------------------------------------------------------------
-- The invited person: their open invitations, accepting, declining
-- ---------------------------------------------------------------------------

create or replace function public.my_workspace_invitations()
returns table (
  id uuid,
  workspace_id uuid,
  workspace_name text,
  role text,
  invited_by_name text,
  expires_at timestamptz
)
language sql
stable
security definer
set search_path = ''
as $$
  select i.id, i.workspace_id, w.name, i.role, p.full_name, i.expires_at
  from public.workspace_invitations i
  join public.workspaces w on w.id = i.workspace_id
  left join public.profiles p on p.id = i.invited_by
  where i.email = public.my_verified_email()
    and i.accepted_at is null and i.declined_at is null and i.revoked_at is null
    and i.expires_at > now()
    and not exists (
      select from public.workspace_members m
      where m.workspace_id = i.workspace_id and m.user_id = auth.uid()
    )
    and (select public.mfa_satisfied())
  order by i.created_at, i.id
$$;

-- The invitation the caller may answer, locked.
create or replace function private.my_invitation(invitation_id uuid)
returns public.workspace_invitations
language plpgsql
security definer
set search_path = ''
as $$
declare
  invitation public.workspace_invitations;
begin
  if invitation_id is null then
    perform private.reject('invitation_id', 'Please choose an invitation.');
  end if;
  if not (select public.mfa_satisfied()) then
    raise exception 'Please complete the second sign-in step first.' using errcode = '42501';
  end if;
  select * into invitation from public.workspace_invitations i where i.id = invitation_id for update;
  if not found then
    raise exception using
      errcode = 'PT404',
      message = 'We could not find this invitation. Ask the person who invited you to send a new one.',
      detail = 'invitation_id';
  end if;
  if invitation.email is distinct from public.my_verified_email() then
    raise exception using
      errcode = '42501',
      message = 'This invitation was sent to another email address. Sign in with that address to accept it.',
      detail = 'invitation_id';
  end if;
  return invitation;
end
$$;

revoke execute on function private.my_invitation(uuid) from public, anon, authenticated;

create or replace function public.accept_workspace_invitation(p_invitation_id uuid) returns jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  invitation public.workspace_invitations;
  member_role text;
begin
  invitation := private.my_invitation(p_invitation_id);
  member_role := public.workspace_role(invitation.workspace_id);
  if invitation.accepted_at is not null then
    -- Accepting twice is fine; a removed member's old invitation lets nobody back in.
    if invitation.accepted_by = auth.uid() and member_role is not null then
      return jsonb_build_object(
        'workspace_id', invitation.workspace_id,
        'workspace_name', (select w.name from public.workspaces w where w.id = invitation.workspace_id),
        'role', member_role
      );
    end if;
    raise exception using
      errcode = 'PT409',
      message = 'This invitation was already used. Ask the workspace''s owner or an admin for a new one.',
      detail = 'invitation_id';
  end if;
  if invitation.revoked_at is not null then
    raise exception using
      errcode = 'PT409',
      message = 'This invitation was withdrawn. Ask the workspace''s owner or an admin for a new one.',
      detail = 'invitation_id';
  end if;
  if invitation.declined_at is not null then
    raise exception using
      errcode = 'PT409',
      message = 'You declined this invitation. Ask the workspace''s owner or an admin for a new one.',
      detail = 'invitation_id';
  end if;
  if invitation.expires_at <= now() then
    raise exception using
      errcode = 'PT409',
      message = 'This invitation has expired. Ask the workspace''s owner or an admin to send it again.',
      detail = 'invitation_id';
  end if;

  -- Already in the workspace (added some other way): keep the role they have.
  insert into public.workspace_members (workspace_id, user_id, role)
  values (invitation.workspace_id, auth.uid(), invitation.role)
  on conflict (workspace_id, user_id) do nothing;
  update public.workspace_invitations i
  set accepted_at = now(), accepted_by = auth.uid()
  where i.id = invitation.id;
  return jsonb_build_object(
    'workspace_id', invitation.workspace_id,
    'workspace_name', (select w.name from public.workspaces w where w.id = invitation.workspace_id),
    'role', public.workspace_role(invitation.workspace_id)
  );
end
$$;

create or replace function public.decline_workspace_invitation(p_invitation_id uuid) returns void
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  invitation public.workspace_invitations;
begin
  invitation := private.my_invitation(p_invitation_id);
  if invitation.accepted_at is not null then
    raise exception using
      errcode = 'PT409',
      message = 'This invitation was already accepted. To leave the workspace, use Leave workspace.',
      detail = 'invitation_id';
  end if;
  update public.workspace_invitations i set declined_at = now()
  where i.id = invitation.id and i.declined_at is null and i.revoked_at is null;
end
$$;

-- ---------------------------------------------------------------------------
-- The team as its members see it: names, emails, roles, since when.
-- ---------------------------------------------------------------------------

create or replace function public.workspace_team(p_workspace_id uuid)
returns table (
  user_id uuid,
  full_name text,
  email text,
  role text,
  joined_at timestamptz,
  is_me boolean
)
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  if not coalesce(
    (public.is_workspace_member(p_workspace_id) or public.is_admin())
      and (select public.mfa_satisfied()),
    false
  ) then
    raise exception 'Only the workspace''s members can see its team.' using errcode = '42501';
  end if;
  return query
    select m.user_id, p.full_name, lower(u.email)::text, m.role, m.created_at, m.user_id = auth.uid()
    from public.workspace_members m
    join public.profiles p on p.id = m.user_id
    left join auth.users u on u.id = m.user_id
    where m.workspace_id = p_workspace_id
    order by case m.role when 'owner' then 0 when 'admin' then 1 else 2 end, m.created_at, m.user_id;
end
$$;

revoke execute on function
  public.invite_to_workspace(uuid, text, text),
  public.resend_workspace_invitation(uuid),
  public.revoke_workspace_invitation(uuid),
  public.queue_workspace_invitation_email(uuid),
  public.my_workspace_invitations(),
  public.accept_workspace_invitation(uuid),
  public.decline_workspace_invitation(uuid),
  public.workspace_team(uuid)
from public, anon;
grant execute on function
  public.invite_to_workspace(uuid, text, text),
  public.resend_workspace_invitation(uuid),
  public.revoke_workspace_invitation(uuid),
  public.my_workspace_invitations(),
  public.accept_workspace_invitation(uuid),
  public.decline_workspace_invitation(uuid),
  public.workspace_team(uuid)
to authenticated, service_role;
revoke execute on function public.queue_workspace_invitation_email(uuid) from authenticated;
grant execute on function public.queue_workspace_invitation_email(uuid) to service_role;

-- ---------------------------------------------------------------------------
-- Someone who loses the right to invite loses their open invitations too:
-- removed or made a member, all of them; an owner made admin, the owner ones.
-- ---------------------------------------------------------------------------

create or replace function public.close_invitations_of_former_inviter() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  update public.workspace_invitations i
  set revoked_at = now()
  where i.workspace_id = old.workspace_id
    and i.invited_by = old.user_id
    and i.accepted_at is null and i.declined_at is null and i.revoked_at is null
    and (
      tg_op = 'DELETE'
      or new.role = 'member'
      or (new.role = 'admin' and i.role = 'owner')
    );
  return null;
end
$$;

create trigger workspace_members_close_invitations
  after update of role or delete on public.workspace_members
  for each row execute function public.close_invitations_of_former_inviter();

revoke execute on function public.close_invitations_of_former_inviter() from public, anon, authenticated;

-- ---------------------------------------------------------------------------
-- Sign-up: someone invited to a workspace does not get one of their own.
-- The rules of 20261121000200_profiles_workspaces.sql, plus: no open, unexpired
-- invitation for the user's address.
-- ---------------------------------------------------------------------------

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
      and not exists (
        select from public.workspace_invitations i
        where i.email = lower(u.email)
          and i.accepted_at is null and i.declined_at is null and i.revoked_at is null
          and i.expires_at > now()
      )
  ) and not exists (select from public.workspace_members m where m.user_id = new.id) then
    insert into public.workspaces (name, created_by) values (null, new.id);
  end if;
  return null;
end
$$;

revoke execute on function public.provision_workspace() from public, anon, authenticated;
