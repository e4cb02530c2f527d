-- The admin users page (issue 17, decision 025) and bans that take effect at
-- once. Both belong to the server's own auth schema, so they are here rather
-- than in a product migration, which must not create anything in the auth
-- schema of a hosted project.

-- The users list pages newest first by key, optionally for one role, and
-- searches email addresses and their domains by prefix.
create index users_created_at_id_idx on auth.users (created_at desc, id desc);
create index users_role_created_at_idx on auth.users ((raw_app_meta_data ->> 'role'), created_at desc, id desc);
create index users_email_prefix_idx on auth.users (lower(email) text_pattern_ops);
create index users_email_domain_prefix_idx on auth.users (lower(split_part(email, '@', 2)) text_pattern_ops);

-- Every data API and storage request that carries a user's session runs this
-- in the statement that sets up the request (server/db/request-context.ts), so
-- a token whose session was ended (sign-out everywhere, a ban, a role change)
-- or whose user is banned or deleted stops working at once instead of when it
-- expires. One primary-key lookup in each table; it raises PostgREST's own
-- error shape (SQLSTATE PGRST), which rolls the request's transaction back.
create function auth.require_live_session(p_session_id text, p_user_id text) returns boolean
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  if p_session_id is null or p_session_id = '' then
    return true;
  end if;
  if p_session_id !~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' then
    p_session_id := '00000000-0000-0000-0000-000000000000';
  end if;
  perform
  from auth.sessions s
  join auth.users u on u.id = s.user_id
  where s.id = p_session_id::uuid
    and s.user_id::text = p_user_id
    and (s.not_after is null or s.not_after > now())
    and u.deleted_at is null
    and (u.banned_until is null or u.banned_until <= now());
  if not found then
    raise sqlstate 'PGRST' using
      message = '{"code":"PGRST303","message":"JWT session has ended","details":"The session of this token was ended or its user was banned: sign in again.","hint":null}',
      detail = '{"status":401,"headers":{"WWW-Authenticate":"Bearer error=\"invalid_token\", error_description=\"JWT session has ended\""}}';
  end if;
  return true;
end
$$;

revoke execute on function auth.require_live_session(text, text) from public;
grant execute on function auth.require_live_session(text, text) to anon, authenticated, service_role;
