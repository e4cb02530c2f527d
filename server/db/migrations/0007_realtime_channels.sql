-- Realtime channels (decision 016): what Supabase's realtime schema gives a
-- project (realtime.messages for private-channel policies, realtime.topic()),
-- and the server's own bookkeeping in `_realtime`, which the API roles cannot reach.

-- Private channels are authorised by row-level security on this table, as on
-- Supabase: a join inserts probe rows and selects them back as the caller, in a
-- transaction that is rolled back. Nothing is ever stored here.
create table if not exists realtime.messages (
  id uuid not null default gen_random_uuid(),
  topic text not null,
  extension text not null,
  payload jsonb,
  event text,
  private boolean default false,
  updated_at timestamp not null default now(),
  inserted_at timestamp not null default now(),
  primary key (id, inserted_at)
);
alter table realtime.messages enable row level security;
grant select, insert, update on realtime.messages to anon, authenticated, service_role;

-- The channel being authorised (its name without the `realtime:` prefix).
create or replace function realtime.topic() returns text
language sql stable
as $$ select nullif(current_setting('realtime.topic', true), '') $$;
grant execute on function realtime.topic() to anon, authenticated, service_role;

create schema if not exists _realtime;
revoke all on schema _realtime from public;

-- Servers sharing the database, each seen at least every few seconds while it runs.
create table _realtime.servers (
  id uuid primary key,
  seen_at timestamptz not null default now()
);

-- Who is present on which channel, for every server: a joining client gets the
-- whole channel's state whichever server holds the others.
create table _realtime.presences (
  ref text primary key,
  server_id uuid not null references _realtime.servers (id) on delete cascade,
  topic text not null,
  key text not null,
  meta jsonb not null,
  updated_at timestamptz not null default now()
);
create index presences_topic_idx on _realtime.presences (topic);

-- Messages between servers too large for one NOTIFY (8,000 bytes): the notice
-- carries the row's id and the receivers read the row. Pruned after a minute.
create table _realtime.bus (
  id bigint generated always as identity primary key,
  body text not null,
  created_at timestamptz not null default now()
);

-- A session that ends (sign-out, password change, user deleted or banned)
-- closes the channels opened with its tokens at once.
create or replace function _realtime.session_ended() returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  perform pg_notify('realtime_session_ended', old.id::text);
  return old;
end
$$;
create trigger realtime_session_ended
after delete on auth.sessions
for each row execute function _realtime.session_ended();
