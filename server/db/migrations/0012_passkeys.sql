-- Passkeys (decision 039): WebAuthn credentials that sign a user in, and the
-- single-use challenges of their ceremonies. Both live in the server's own auth
-- schema, out of reach of the data API: no grants to anon or authenticated,
-- and row level security on with no policies, so even a stray grant reads nothing.

create table auth.webauthn_credentials (
  id uuid primary key,
  user_id uuid not null references auth.users (id) on delete cascade,
  -- The authenticator's credential id (raw bytes): registered once, server-wide.
  credential_id bytea not null unique,
  -- COSE public key, as the authenticator gave it.
  public_key bytea not null,
  sign_count bigint not null default 0 check (sign_count >= 0),
  transports text[] not null default '{}',
  aaguid uuid,
  backup_eligible boolean not null default false,
  backed_up boolean not null default false,
  friendly_name text check (char_length(friendly_name) <= 120),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  last_used_at timestamptz
);
create index webauthn_credentials_user_id_idx on auth.webauthn_credentials (user_id, created_at);

create table auth.webauthn_challenges (
  id uuid primary key,
  -- The signed-in user a registration challenge was issued to; null for sign-in.
  user_id uuid references auth.users (id) on delete cascade,
  challenge_type text not null check (challenge_type in ('registration', 'authentication')),
  challenge text not null,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null
);
create index webauthn_challenges_expires_at_idx on auth.webauthn_challenges (expires_at);

alter table auth.webauthn_credentials enable row level security;
alter table auth.webauthn_challenges enable row level security;
revoke all on auth.webauthn_credentials, auth.webauthn_challenges from public, anon, authenticated;
