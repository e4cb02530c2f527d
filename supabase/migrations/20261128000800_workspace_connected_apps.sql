-- Apps with access to a workspace (issue 23). An app's access is a member's
-- OAuth grant (auth.oauth_consents, the OAuth server's), and the app then acts
-- as that member under row-level security, so it reaches every workspace the
-- member belongs to. A workspace's owners therefore see every member's grants
-- and may end any of them; the member sees and ends their own in account
-- settings (/auth/v1/user/oauth/grants).

create or replace function private.require_workspace_owner(p_workspace_id uuid) returns void
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  if not coalesce(
    public.workspace_role(p_workspace_id) = 'owner' and (select public.mfa_satisfied()),
    false
  ) then
    raise exception 'Only the workspace''s owners can see and remove its connected apps.'
      using errcode = '42501';
  end if;
end
$$;

create or replace function public.workspace_connected_apps(p_workspace_id uuid)
returns table (
  client_id uuid,
  client_name text,
  client_uri text,
  user_id uuid,
  full_name text,
  email text,
  scopes text[],
  granted_at timestamptz,
  is_me boolean
)
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  perform private.require_workspace_owner(p_workspace_id);
  return query
    select cl.id, cl.client_name, cl.client_uri, co.user_id, p.full_name, lower(u.email)::text,
           string_to_array(co.scopes, ' '), co.granted_at, co.user_id = auth.uid()
    from auth.oauth_consents co
    join auth.oauth_clients cl on cl.id = co.client_id and cl.deleted_at is null
    join public.workspace_members m on m.user_id = co.user_id and m.workspace_id = p_workspace_id
    left join public.profiles p on p.id = co.user_id
    left join auth.users u on u.id = co.user_id
    where co.revoked_at is null
    order by co.granted_at desc, cl.id, co.user_id;
end
$$;

-- Ends one member's grant to one app, as the member's own revocation does: the
-- grant is marked revoked, the app's sessions for that member end at once (its
-- access tokens stop working on the next request), and its pending requests go.
create or replace function public.revoke_workspace_app(
  p_workspace_id uuid,
  p_client_id uuid,
  p_user_id uuid
) returns void
language plpgsql
volatile
security definer
set search_path = ''
as $$
begin
  perform private.require_workspace_owner(p_workspace_id);
  if not exists (
    select 1 from public.workspace_members m
    where m.workspace_id = p_workspace_id and m.user_id = p_user_id
  ) then
    raise exception 'No such connected app in this workspace.' using errcode = 'PT404';
  end if;
  update auth.oauth_consents set revoked_at = now()
  where user_id = p_user_id and client_id = p_client_id and revoked_at is null;
  if not found then
    raise exception 'No such connected app in this workspace.' using errcode = 'PT404';
  end if;
  delete from auth.sessions where user_id = p_user_id and oauth_client_id = p_client_id;
  delete from auth.oauth_authorizations
  where user_id = p_user_id and client_id = p_client_id and status <> 'exchanged';
  insert into auth.audit_log_entries (id, payload, created_at, ip_address)
  values (
    gen_random_uuid(),
    jsonb_build_object(
      'actor_id', auth.uid(),
      'actor_username', coalesce((select u.email from auth.users u where u.id = auth.uid()), ''),
      'action', 'token_revoked',
      'log_type', 'token',
      'traits', jsonb_build_object(
        'oauth_client_id', p_client_id,
        'user_id', p_user_id,
        'workspace_id', p_workspace_id,
        'action', 'revoke_workspace_app'
      )
    )::json,
    now(),
    ''
  );
end
$$;

revoke execute on function private.require_workspace_owner(uuid) from public, anon, authenticated;
revoke execute on function
  public.workspace_connected_apps(uuid),
  public.revoke_workspace_app(uuid, uuid, uuid)
from public, anon;
grant execute on function
  public.workspace_connected_apps(uuid),
  public.revoke_workspace_app(uuid, uuid, uuid)
to authenticated, service_role;
