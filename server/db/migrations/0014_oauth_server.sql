-- The OAuth 2.1 server (decision 041): third-party applications (clients) that
-- a user lets act for them. Like GoTrue's own tables, these live in the auth
-- schema, which anon and authenticated may see (usage) but whose tables they
-- are granted nothing on: only the server, as the table owner, reads them.

create table auth.oauth_clients (
  id uuid primary key,
  client_secret_hash text,
  registration_type text not null check (registration_type in ('dynamic', 'manual')),
  client_type text not null default 'confidential' check (client_type in ('public', 'confidential')),
  token_endpoint_auth_method text not null
    check (token_endpoint_auth_method in ('none', 'client_secret_basic', 'client_secret_post')),
  redirect_uris text not null,
  grant_types text not null,
  client_name text check (char_length(client_name) <= 1024),
  client_uri text check (char_length(client_uri) <= 2048),
  logo_uri text check (char_length(logo_uri) <= 2048),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  deleted_at timestamptz,
  -- A confidential client has a secret; a public one never does.
  check ((client_type = 'confidential') = (client_secret_hash is not null))
);
create index oauth_clients_created_at_idx on auth.oauth_clients (created_at desc, id desc)
  where deleted_at is null;

-- One authorization request, from /oauth/authorize until its code is exchanged
-- (or it is denied or expires). Only the code's SHA-256 is kept.
create table auth.oauth_authorizations (
  id text primary key,
  client_id uuid not null references auth.oauth_clients (id) on delete cascade,
  user_id uuid references auth.users (id) on delete cascade,
  redirect_uri text not null check (char_length(redirect_uri) <= 2048),
  scope text not null check (char_length(scope) <= 4096),
  state text check (char_length(state) <= 4096),
  code_challenge text not null check (char_length(code_challenge) between 43 and 128),
  code_challenge_method text not null check (code_challenge_method = 's256'),
  status text not null default 'pending'
    check (status in ('pending', 'approved', 'denied', 'expired', 'exchanged')),
  code_hash text unique,
  -- The session the code was exchanged for: a second use of the code ends it.
  session_id uuid,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  approved_at timestamptz
);
create index oauth_authorizations_expires_at_idx on auth.oauth_authorizations (expires_at);

-- What a user has granted a client; revoked_at set when the user takes it back.
create table auth.oauth_consents (
  id uuid primary key,
  user_id uuid not null references auth.users (id) on delete cascade,
  client_id uuid not null references auth.oauth_clients (id) on delete cascade,
  scopes text not null check (char_length(trim(scopes)) > 0 and char_length(scopes) <= 2048),
  granted_at timestamptz not null default now(),
  revoked_at timestamptz,
  unique (user_id, client_id)
);

-- A session opened for a client carries the client and the scopes granted; its
-- access tokens say so (client_id, scope), and the client alone may refresh it.
alter table auth.sessions
  add column oauth_client_id uuid references auth.oauth_clients (id) on delete cascade,
  add column scopes text;
create index sessions_oauth_client_idx on auth.sessions (user_id, oauth_client_id)
  where oauth_client_id is not null;

revoke all on auth.oauth_clients, auth.oauth_authorizations, auth.oauth_consents
  from anon, authenticated;
