-- Calls: every call a workspace's phone agent took, with the agents and phone
-- numbers they point at, and their ingestion from the telephony provider
-- (POST /functions/v1/call-events, supabase/functions/call-events): a per-
-- workspace HMAC secret kept outside the exposed schemas, the signature
-- computed here with the built-in sha256() (no extensions), a per-workspace
-- rate limit, and a field-by-field validation of the body. Runs unchanged on
-- the embedded PGlite, PostgreSQL 15+ and a hosted Supabase project.

-- ---------------------------------------------------------------------------
-- Who asks: the caller's workspaces as a set, for policies that compare a
-- column with it once per statement instead of calling a function per row.
-- ---------------------------------------------------------------------------

create or replace function public.my_workspace_ids() returns setof uuid
language sql
stable
security definer
set search_path = ''
as $$
  select m.workspace_id from public.workspace_members m where m.user_id = auth.uid()
$$;

comment on function public.my_workspace_ids() is
  'The workspaces the caller belongs to. Policies use it as `workspace_id in (select public.my_workspace_ids())`, '
  'evaluated once per statement.';

revoke execute on function public.my_workspace_ids() from public, anon;
grant execute on function public.my_workspace_ids() to authenticated, service_role;

-- ---------------------------------------------------------------------------
-- Agents: the voice agent(s) of a workspace. Every workspace has a default one.
-- ---------------------------------------------------------------------------

create table public.agents (
  id uuid primary key default gen_random_uuid(),
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  name text not null check (char_length(name) between 1 and 80 and name = btrim(name)),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

comment on table public.agents is
  'A workspace''s voice agents. The oldest one is the workspace''s default agent ("Cervana assistant").';

create index agents_workspace_id_idx on public.agents (workspace_id, created_at, id);

create trigger agents_set_updated_at before update on public.agents
  for each row execute function public.set_updated_at();

create or replace function public.add_default_agent() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  insert into public.agents (workspace_id, name) values (new.id, 'Cervana assistant');
  return null;
end
$$;

-- "a_" so it runs before the other AFTER INSERT triggers on workspaces (they
-- fire in name order): whatever they add (sample calls) finds the agent.
create trigger a_workspaces_add_default_agent after insert on public.workspaces
  for each row execute function public.add_default_agent();

insert into public.agents (workspace_id, name)
select w.id, 'Cervana assistant'
from public.workspaces w
where not exists (select from public.agents a where a.workspace_id = w.id);

-- ---------------------------------------------------------------------------
-- Phone numbers: the numbers a workspace's calls come in on (or go out from).
-- ---------------------------------------------------------------------------

create table public.phone_numbers (
  id uuid primary key default gen_random_uuid(),
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  e164 text not null unique check (e164 ~ '^\+[1-9][0-9]{6,14}$'),
  label text check (char_length(label) between 1 and 80 and label = btrim(label)),
  agent_id uuid references public.agents (id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

comment on table public.phone_numbers is
  'A workspace''s phone numbers (E.164), each answered by an agent of the same workspace.';

create index phone_numbers_workspace_id_idx on public.phone_numbers (workspace_id);
create index phone_numbers_agent_id_idx on public.phone_numbers (agent_id);

create trigger phone_numbers_set_updated_at before update on public.phone_numbers
  for each row execute function public.set_updated_at();

-- A number's agent belongs to the number's workspace.
create or replace function public.check_phone_number_agent() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if new.agent_id is not null and not exists (
    select from public.agents a where a.id = new.agent_id and a.workspace_id = new.workspace_id
  ) then
    raise exception 'The agent belongs to another workspace.'
      using errcode = 'foreign_key_violation', constraint = 'phone_numbers_agent_id_fkey';
  end if;
  return new;
end
$$;

create trigger phone_numbers_check_agent before insert or update of workspace_id, agent_id
  on public.phone_numbers
  for each row execute function public.check_phone_number_agent();

-- ---------------------------------------------------------------------------
-- Calls
-- ---------------------------------------------------------------------------

create table public.calls (
  id uuid primary key default gen_random_uuid(),
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  provider_call_id text not null check (char_length(provider_call_id) between 1 and 200),
  direction text not null check (direction in ('inbound', 'outbound')),
  from_number text not null check (from_number ~ '^\+[1-9][0-9]{6,14}$'),
  to_number text not null check (to_number ~ '^\+[1-9][0-9]{6,14}$'),
  started_at timestamptz not null,
  duration_seconds integer not null check (duration_seconds between 0 and 86400),
  outcome text not null check (outcome in ('resolved', 'escalated', 'voicemail', 'missed')),
  sentiment text check (sentiment in ('positive', 'neutral', 'negative')),
  summary text check (char_length(summary) <= 4000),
  extracted jsonb not null default '{}' check (jsonb_typeof(extracted) = 'object'),
  transcript jsonb not null default '[]' check (jsonb_typeof(transcript) = 'array'),
  recording_path text check (char_length(recording_path) between 1 and 1024),
  agent_id uuid references public.agents (id) on delete set null,
  phone_number_id uuid references public.phone_numbers (id) on delete set null,
  is_sample boolean not null default false,
  created_at timestamptz not null default now(),
  -- What full-text search finds: the summary (weight A) and the words spoken
  -- (weight B), not the speakers' labels.
  search tsvector generated always as (
    setweight(to_tsvector('english'::regconfig, coalesce(summary, '')), 'A')
    || setweight(
      jsonb_to_tsvector(
        'english'::regconfig,
        jsonb_path_query_array(transcript, '$[*].text'),
        '["string"]'
      ),
      'B'
    )
  ) stored
);

-- A provider's call id is stored once per workspace. Sample calls (is_sample) are
-- left out, so a provider's own "sample-12" is never taken for a sample call.
create unique index calls_workspace_provider_call_id_key
  on public.calls (workspace_id, provider_call_id) where not is_sample;

comment on table public.calls is
  'Every call a workspace''s agent took: ingested from the telephony provider (call-events) or sample data.';
comment on column public.calls.provider_call_id is 'The provider''s id of the call (call_id), unique per workspace.';
comment on column public.calls.transcript is
  'Timed segments: [{speaker: agent|caller, start_ms, end_ms, text}].';
comment on column public.calls.recording_path is
  'Object name in the private bucket call-recordings: <workspace_id>/<call id>, or samples/<scenario>.mp3.';

-- The dashboard's lists and KPIs: one workspace, a period, newest first (keyset).
create index calls_workspace_started_idx on public.calls (workspace_id, started_at desc, id desc);
create index calls_search_idx on public.calls using gin (search);
create index calls_agent_id_idx on public.calls (agent_id);
create index calls_phone_number_id_idx on public.calls (phone_number_id);

-- ---------------------------------------------------------------------------
-- Access. anon gets nothing. Calls are written only by the security definer
-- functions below (and service_role); members and Cervana admins read them.
-- ---------------------------------------------------------------------------

alter table public.agents enable row level security;
alter table public.phone_numbers enable row level security;
alter table public.calls enable row level security;

revoke all on public.agents, public.phone_numbers, public.calls from anon, authenticated;
grant all on public.agents, public.phone_numbers, public.calls to service_role;

grant select, update (name) on public.agents to authenticated;
grant select, insert (workspace_id, e164, label, agent_id), update (e164, label, agent_id), delete
  on public.phone_numbers to authenticated;
grant select on public.calls to authenticated;

create policy "Members and admins read agents"
  on public.agents for select to authenticated
  using (workspace_id in (select public.my_workspace_ids()) or (select public.is_admin()));

create policy "Workspace owners and admins rename agents"
  on public.agents for update to authenticated
  using (public.workspace_role(workspace_id) in ('owner', 'admin'))
  with check (public.workspace_role(workspace_id) in ('owner', 'admin'));

create policy "Members and admins read phone numbers"
  on public.phone_numbers for select to authenticated
  using (workspace_id in (select public.my_workspace_ids()) or (select public.is_admin()));

create policy "Workspace owners and admins add phone numbers"
  on public.phone_numbers for insert to authenticated
  with check (public.workspace_role(workspace_id) in ('owner', 'admin'));

create policy "Workspace owners and admins change phone numbers"
  on public.phone_numbers for update to authenticated
  using (public.workspace_role(workspace_id) in ('owner', 'admin'))
  with check (public.workspace_role(workspace_id) in ('owner', 'admin'));

create policy "Workspace owners and admins remove phone numbers"
  on public.phone_numbers for delete to authenticated
  using (public.workspace_role(workspace_id) in ('owner', 'admin'));

create policy "Members and admins read calls"
  on public.calls for select to authenticated
  using (workspace_id in (select public.my_workspace_ids()) or (select public.is_admin()));

-- Two-factor authentication once enrolled (decision 013, 20261124000100_mfa_required.sql).
create policy "Second factor required once enrolled"
  on public.agents as restrictive for all to authenticated
  using ((select public.mfa_satisfied()))
  with check ((select public.mfa_satisfied()));
create policy "Second factor required once enrolled"
  on public.phone_numbers as restrictive for all to authenticated
  using ((select public.mfa_satisfied()))
  with check ((select public.mfa_satisfied()));
create policy "Second factor required once enrolled"
  on public.calls as restrictive for all to authenticated
  using ((select public.mfa_satisfied()))
  with check ((select public.mfa_satisfied()));

-- A call ingested while the dashboard is open appears there (Realtime
-- postgres_changes, delivered only to subscribers whose RLS lets them read it).
alter publication supabase_realtime add table public.calls;

-- Trigger functions are not for calling.
revoke execute on function
  public.add_default_agent(),
  public.check_phone_number_agent()
from public, anon, authenticated;

-- ---------------------------------------------------------------------------
-- Ingestion secrets: outside the exposed schemas, readable by no API role.
-- A workspace has at most one current secret (retired_at null) and at most one
-- previous one, which keeps verifying for 24 hours after its retirement.
-- ---------------------------------------------------------------------------

create table private.ingestion_secrets (
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  secret text not null unique check (secret ~ '^whsec_[0-9a-f]{64}$'),
  created_at timestamptz not null default now(),
  retired_at timestamptz,
  primary key (workspace_id, secret)
);

create unique index ingestion_secrets_current_idx
  on private.ingestion_secrets (workspace_id) where retired_at is null;

comment on table private.ingestion_secrets is
  'The HMAC secrets that sign a workspace''s call-events requests. No API role reads them.';

-- The rate limit: requests with a valid signature per workspace and minute.
-- 1,200 a minute unless a row here says otherwise (a benchmark raises it).
create table private.ingestion_limits (
  workspace_id uuid primary key references public.workspaces (id) on delete cascade,
  per_minute integer not null check (per_minute between 1 and 10000000)
);

create table private.ingestion_counts (
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  window_start timestamptz not null,
  hits integer not null default 0,
  primary key (workspace_id, window_start)
);

revoke all on private.ingestion_secrets, private.ingestion_limits, private.ingestion_counts
  from public, anon, authenticated, service_role;

-- ---------------------------------------------------------------------------
-- HMAC-SHA256 (RFC 2104) with the built-in sha256(): no pgcrypto, so it runs
-- wherever PostgreSQL 11+ does.
-- ---------------------------------------------------------------------------

create or replace function private.hmac_sha256(key bytea, message bytea) returns bytea
language plpgsql
immutable
strict
parallel safe
set search_path = ''
as $$
declare
  block bytea := key;
  inner_key bytea;
  outer_key bytea;
begin
  if length(block) > 64 then
    block := sha256(block);
  end if;
  block := block || decode(repeat('00', 64 - length(block)), 'hex');
  inner_key := block;
  outer_key := block;
  for i in 0..63 loop
    inner_key := set_byte(inner_key, i, get_byte(block, i) # 54); -- 0x36
    outer_key := set_byte(outer_key, i, get_byte(block, i) # 92); -- 0x5c
  end loop;
  return sha256(outer_key || sha256(inner_key || message));
end
$$;

revoke execute on function private.hmac_sha256(bytea, bytea) from public, anon, authenticated, service_role;

-- ---------------------------------------------------------------------------
-- Rotating the secret (workspace owners and admins), and whether one is set
-- (members). The secret is returned once and never again.
-- ---------------------------------------------------------------------------

create or replace function public.rotate_ingestion_secret(p_workspace_id uuid) returns text
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  fresh text;
begin
  -- coalesce: no role at all (null) must refuse, not slip through "not null".
  if not coalesce(
    public.workspace_role(p_workspace_id) in ('owner', 'admin')
    or (auth.role() = 'service_role' and exists (select from public.workspaces w where w.id = p_workspace_id)),
    false
  ) then
    raise exception 'Only the workspace''s owners and admins can rotate its ingestion secret.'
      using errcode = '42501';
  end if;
  -- One rotation at a time per workspace.
  perform from public.workspaces w where w.id = p_workspace_id for update;
  -- 256 bits from the server's strong random source (gen_random_uuid), hashed.
  fresh := 'whsec_' || encode(
    sha256(convert_to(gen_random_uuid()::text || gen_random_uuid()::text || gen_random_uuid()::text, 'UTF8')),
    'hex'
  );
  -- Only the secret being replaced stays valid for the next 24 hours; one
  -- retired earlier stops verifying now.
  delete from private.ingestion_secrets s
  where s.workspace_id = p_workspace_id and s.retired_at is not null;
  update private.ingestion_secrets s set retired_at = now()
  where s.workspace_id = p_workspace_id and s.retired_at is null;
  insert into private.ingestion_secrets (workspace_id, secret) values (p_workspace_id, fresh);
  return fresh;
end
$$;

comment on function public.rotate_ingestion_secret(uuid) is
  'A new ingestion secret for the workspace (owners and admins), returned once. The previous one keeps '
  'verifying for 24 hours.';

create or replace function public.ingestion_status(p_workspace_id uuid) returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  current_created timestamptz;
  previous_until timestamptz;
begin
  if not coalesce(
    public.is_workspace_member(p_workspace_id)
    or (auth.role() = 'service_role' and exists (select from public.workspaces w where w.id = p_workspace_id)),
    false
  ) then
    raise exception 'Only the workspace''s members can see its ingestion settings.'
      using errcode = '42501';
  end if;
  select s.created_at into current_created
  from private.ingestion_secrets s
  where s.workspace_id = p_workspace_id and s.retired_at is null;
  select max(s.retired_at) + interval '24 hours' into previous_until
  from private.ingestion_secrets s
  where s.workspace_id = p_workspace_id
    and s.retired_at is not null
    and s.retired_at > now() - interval '24 hours';
  return jsonb_build_object(
    'has_secret', current_created is not null,
    'rotated_at', current_created,
    'previous_valid_until', previous_until
  );
end
$$;

comment on function public.ingestion_status(uuid) is
  'Whether the workspace has an ingestion secret, when it was made, and until when the previous one '
  'verifies. Never the secret.';

revoke execute on function
  public.rotate_ingestion_secret(uuid),
  public.ingestion_status(uuid)
from public, anon;
grant execute on function
  public.rotate_ingestion_secret(uuid),
  public.ingestion_status(uuid)
to authenticated, service_role;

-- ---------------------------------------------------------------------------
-- Ingestion, for the call-events function (service_role only).
-- ---------------------------------------------------------------------------

-- One and the same refusal for every signature problem, so a caller learns
-- nothing about which part was wrong.
create or replace function private.refuse_signature() returns void
language plpgsql
set search_path = ''
as $$
begin
  raise exception 'The request''s signature is missing, invalid or expired.'
    using errcode = 'CV401';
end
$$;

-- A bad body field: the message says what is wrong, the detail names the field.
create or replace function private.refuse_field(field text, message text) returns void
language plpgsql
set search_path = ''
as $$
begin
  raise exception using errcode = 'CV400', message = message, detail = field;
end
$$;

-- A JSON number that is a whole number between low and high, as bigint; else null.
-- No SET clause, so that PostgreSQL inlines it (it names nothing outside
-- pg_catalog, and its callers run with an empty search_path).
create or replace function private.json_whole_number(value jsonb, low bigint, high bigint) returns bigint
language sql
immutable
parallel safe
as $$
  select case
    when jsonb_typeof(value) = 'number'
      and value::text::numeric = trunc(value::text::numeric)
      and value::text::numeric between low and high
    then value::text::numeric::bigint
  end
$$;

-- A transcript checked segment by segment: the first bad segment (0-based) and
-- what is wrong with it (null when all are sound), and the segments as stored:
-- the four documented keys, nothing else a segment carried.
create or replace function private.check_transcript(transcript jsonb)
returns table (problem text, cleaned jsonb)
language sql
immutable
parallel safe
set search_path = ''
as $$
  select
    (array_agg(format('transcript segment %s: %s.', s.i - 1, s.problem) order by s.i)
      filter (where s.problem is not null))[1],
    coalesce(jsonb_agg(
      jsonb_build_object('speaker', s.seg ->> 'speaker', 'start_ms', s.start_ms, 'end_ms', s.end_ms,
        'text', s.seg ->> 'text')
      order by s.i
    ), '[]')
  from (
    select e.i, e.seg, m.start_ms, m.end_ms,
      case
        when jsonb_typeof(e.seg) <> 'object' then 'must be an object'
        when jsonb_typeof(e.seg -> 'speaker') is distinct from 'string'
          or e.seg ->> 'speaker' not in ('agent', 'caller') then 'speaker must be "agent" or "caller"'
        when m.start_ms is null then 'start_ms must be a whole number of milliseconds from 0 to 86400000'
        when m.end_ms is null then 'end_ms must be a whole number of milliseconds from 0 to 86400000'
        when m.end_ms < m.start_ms then 'end_ms must not be before start_ms'
        when jsonb_typeof(e.seg -> 'text') is distinct from 'string' then 'text must be a string'
        when char_length(e.seg ->> 'text') > 2000 then 'text must be at most 2000 characters'
      end as problem
    from jsonb_array_elements(transcript) with ordinality as e (seg, i)
    cross join lateral (
      select
        private.json_whole_number(case when jsonb_typeof(e.seg) = 'object' then e.seg -> 'start_ms' end, 0, 86400000) as start_ms,
        private.json_whole_number(case when jsonb_typeof(e.seg) = 'object' then e.seg -> 'end_ms' end, 0, 86400000) as end_ms
    ) m
  ) s
$$;

-- The same result, faster for the usual case, a sound transcript: one jsonpath
-- filter (evaluated in C) counts the sound segments; when they are all sound,
-- the segments are rebuilt from jsonb_to_recordset. Anything else takes
-- check_transcript for the precise message.
create or replace function private.clean_transcript(transcript jsonb, out problem text, out cleaned jsonb)
language plpgsql
immutable
parallel safe
set search_path = ''
as $$
begin
  if jsonb_array_length(jsonb_path_query_array(
    transcript,
    'strict $[*] ? (@.type() == "object" && (@.speaker == "agent" || @.speaker == "caller")
      && @.start_ms.type() == "number" && @.end_ms.type() == "number"
      && @.start_ms >= 0 && @.start_ms <= @.end_ms && @.end_ms <= 86400000
      && @.start_ms.floor() == @.start_ms && @.end_ms.floor() == @.end_ms
      && @.text.type() == "string")'
  )) = jsonb_array_length(transcript) then
    select case when coalesce(max(char_length(x.text)), 0) <= 2000 then
        coalesce(jsonb_agg(jsonb_build_object(
          'speaker', x.speaker, 'start_ms', x.start_ms::bigint, 'end_ms', x.end_ms::bigint, 'text', x.text
        ) order by x.i), '[]')
      end
    into cleaned
    from rows from (
      jsonb_to_recordset(transcript) as (speaker text, start_ms numeric, end_ms numeric, text text)
    ) with ordinality as x (speaker, start_ms, end_ms, text, i);
    if cleaned is not null then
      return;
    end if;
  end if;
  select c.problem, c.cleaned into problem, cleaned from private.check_transcript(transcript) c;
end
$$;

revoke execute on function
  private.refuse_signature(),
  private.refuse_field(text, text),
  private.json_whole_number(jsonb, bigint, bigint),
  private.check_transcript(jsonb),
  private.clean_transcript(jsonb)
from public, anon, authenticated, service_role;

create or replace function public.ingest_call(
  p_workspace_id uuid,
  p_timestamp text,
  p_signature text,
  p_body text
) returns jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  now_epoch bigint := floor(extract(epoch from now()))::bigint;
  signed_at bigint;
  signatures text[];
  message bytea;
  verified boolean := false;
  candidate record;
  per_minute integer;
  hits integer;
  body jsonb;
  value jsonb;
  call_id text;
  direction text;
  from_number text;
  to_number text;
  started_at timestamptz;
  duration integer;
  outcome text;
  sentiment text;
  summary text;
  transcript jsonb := '[]';
  extracted jsonb := '{}';
  bad record;
  number_row record;
  agent uuid;
  new_id uuid := gen_random_uuid();
  stored_id uuid;
  stored_path text;
  status text := 'created';
begin
  -- 1. The signature: a timestamp within 5 minutes back and 1 minute ahead,
  --    and an HMAC-SHA256 of "<t>.<body>" under a valid secret of the workspace.
  if p_workspace_id is null or p_timestamp is null or p_signature is null or p_body is null
    or p_timestamp !~ '^[0-9]{1,12}$' then
    perform private.refuse_signature();
  end if;
  signed_at := p_timestamp::bigint;
  if signed_at < now_epoch - 300 or signed_at > now_epoch + 60 then
    perform private.refuse_signature();
  end if;
  signatures := string_to_array(lower(p_signature), ',');
  if cardinality(signatures) not between 1 and 8
    or exists (select from unnest(signatures) s where s is null or s !~ '^[0-9a-f]{64}$') then
    perform private.refuse_signature();
  end if;
  message := convert_to(p_timestamp || '.' || p_body, 'UTF8');
  for candidate in
    select s.secret
    from private.ingestion_secrets s
    where s.workspace_id = p_workspace_id
      and (s.retired_at is null or s.retired_at > now() - interval '24 hours')
  loop
    -- Compared as hashes of both sides: how long a comparison takes says
    -- nothing about how much of a forged signature was right.
    if sha256(private.hmac_sha256(convert_to(candidate.secret, 'UTF8'), message)) in (
      select sha256(decode(s, 'hex')) from unnest(signatures) s
    ) then
      verified := true;
      exit;
    end if;
  end loop;
  if not verified then
    perform private.refuse_signature();
  end if;

  -- 2. The rate limit, read now (a request past it does no more work) and
  --    counted at the end, where the counter's row lock is held only until commit.
  select l.per_minute into per_minute from private.ingestion_limits l where l.workspace_id = p_workspace_id;
  per_minute := coalesce(per_minute, 1200);
  select c.hits into hits
  from private.ingestion_counts c
  where c.workspace_id = p_workspace_id and c.window_start = date_trunc('minute', now());
  if coalesce(hits, 0) >= per_minute then
    raise exception 'Too many call events for this workspace. Try again in a minute.'
      using errcode = 'CV429', detail = (60 - now_epoch % 60)::text;
  end if;

  -- 3. The body, field by field, in the documented order.
  begin
    body := p_body::jsonb;
  exception when others then
    perform private.refuse_field('body', 'The body must be a JSON object.');
  end;
  if jsonb_typeof(body) is distinct from 'object' then
    perform private.refuse_field('body', 'The body must be a JSON object.');
  end if;

  value := body -> 'call_id';
  call_id := body ->> 'call_id';
  if jsonb_typeof(value) is distinct from 'string' or char_length(call_id) not between 1 and 200
    or call_id ~ '[[:cntrl:]]' then
    perform private.refuse_field('call_id', 'call_id must be a string of 1 to 200 characters, without control characters.');
  end if;

  direction := body ->> 'direction';
  if jsonb_typeof(body -> 'direction') is distinct from 'string'
    or direction not in ('inbound', 'outbound') then
    perform private.refuse_field('direction', 'direction must be "inbound" or "outbound".');
  end if;

  from_number := body ->> 'from';
  if jsonb_typeof(body -> 'from') is distinct from 'string' or from_number !~ '^\+[1-9][0-9]{6,14}$' then
    perform private.refuse_field('from', 'from must be a phone number in E.164 format, like +14155550123.');
  end if;

  to_number := body ->> 'to';
  if jsonb_typeof(body -> 'to') is distinct from 'string' or to_number !~ '^\+[1-9][0-9]{6,14}$' then
    perform private.refuse_field('to', 'to must be a phone number in E.164 format, like +14155550123.');
  end if;

  if jsonb_typeof(body -> 'started_at') is distinct from 'string'
    or body ->> 'started_at' !~* '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}(:[0-9]{2}([.,][0-9]{1,9})?)?(Z|[+-][0-9]{2}(:?[0-9]{2})?)$' then
    perform private.refuse_field('started_at', 'started_at must be an ISO 8601 time with a time zone, like 2026-11-24T09:30:00Z.');
  end if;
  begin
    started_at := (body ->> 'started_at')::timestamptz;
  exception when others then
    perform private.refuse_field('started_at', 'started_at must be an ISO 8601 time with a time zone, like 2026-11-24T09:30:00Z.');
  end;
  if started_at < timestamptz '2000-01-01 00:00:00+00' or started_at > now() + interval '1 day' then
    perform private.refuse_field('started_at', 'started_at must be a time after 2000 and not more than a day ahead.');
  end if;

  duration := private.json_whole_number(body -> 'duration_seconds', 0, 86400);
  if duration is null then
    perform private.refuse_field('duration_seconds', 'duration_seconds must be a whole number from 0 to 86400.');
  end if;

  outcome := body ->> 'outcome';
  if jsonb_typeof(body -> 'outcome') is distinct from 'string'
    or outcome not in ('resolved', 'escalated', 'voicemail', 'missed') then
    perform private.refuse_field('outcome', 'outcome must be "resolved", "escalated", "voicemail" or "missed".');
  end if;

  value := body -> 'sentiment';
  if value is not null and value <> 'null' then
    sentiment := body ->> 'sentiment';
    if jsonb_typeof(value) <> 'string' or sentiment not in ('positive', 'neutral', 'negative') then
      perform private.refuse_field('sentiment', 'sentiment must be "positive", "neutral", "negative" or null.');
    end if;
  end if;

  value := body -> 'summary';
  if value is not null and value <> 'null' then
    summary := body ->> 'summary';
    if jsonb_typeof(value) <> 'string' or char_length(summary) > 4000 then
      perform private.refuse_field('summary', 'summary must be a string of at most 4000 characters.');
    end if;
    summary := nullif(summary, '');
  end if;

  value := body -> 'transcript';
  if value is not null and value <> 'null' then
    if jsonb_typeof(value) <> 'array' or jsonb_array_length(value) > 2000 then
      perform private.refuse_field('transcript', 'transcript must be an array of at most 2000 segments.');
    end if;
    select c.problem, c.cleaned into bad from private.clean_transcript(value) c;
    if bad.problem is not null then
      perform private.refuse_field('transcript', bad.problem);
    end if;
    transcript := bad.cleaned;
  end if;

  value := body -> 'extracted';
  if value is not null and value <> 'null' then
    if jsonb_typeof(value) <> 'object' or octet_length(value::text) > 65536 then
      perform private.refuse_field('extracted', 'extracted must be a JSON object of at most 64 KB.');
    end if;
    extracted := value;
  end if;

  -- 4. What the call points at: the workspace's number it came in on (or went
  --    out from), and that number's agent, else the workspace's default agent.
  select n.id, n.agent_id into number_row
  from public.phone_numbers n
  where n.workspace_id = p_workspace_id
    and n.e164 = case direction when 'inbound' then to_number else from_number end;
  agent := number_row.agent_id;
  if agent is null then
    select a.id into agent
    from public.agents a
    where a.workspace_id = p_workspace_id
    order by a.created_at, a.id
    limit 1;
  end if;

  -- 5. Stored once: a call_id already stored in the workspace is a duplicate.
  insert into public.calls (
    id, workspace_id, provider_call_id, direction, from_number, to_number, started_at,
    duration_seconds, outcome, sentiment, summary, transcript, extracted, recording_path,
    agent_id, phone_number_id, is_sample
  ) values (
    new_id, p_workspace_id, call_id, direction, from_number, to_number, started_at,
    duration, outcome, sentiment, summary, transcript, extracted,
    p_workspace_id::text || '/' || new_id::text,
    agent, number_row.id, false
  )
  on conflict (workspace_id, provider_call_id) where not is_sample do nothing
  returning id, recording_path into stored_id, stored_path;
  if stored_id is null then
    status := 'duplicate';
    select c.id, c.recording_path into stored_id, stored_path
    from public.calls c
    where c.workspace_id = p_workspace_id and c.provider_call_id = call_id and not c.is_sample;
  end if;

  -- 6. Counted (a refused request rolls its count back with everything else).
  delete from private.ingestion_counts c
  where c.workspace_id = p_workspace_id and c.window_start < date_trunc('minute', now());
  insert into private.ingestion_counts as c (workspace_id, window_start, hits)
  values (p_workspace_id, date_trunc('minute', now()), 1)
  on conflict on constraint ingestion_counts_pkey do update set hits = c.hits + 1
  returning c.hits into hits;
  if hits > per_minute then
    raise exception 'Too many call events for this workspace. Try again in a minute.'
      using errcode = 'CV429', detail = (60 - now_epoch % 60)::text;
  end if;

  return jsonb_build_object('id', stored_id, 'status', status, 'recording_path', stored_path);
end
$$;

comment on function public.ingest_call(uuid, text, text, text) is
  'Stores one finished call from the telephony provider (the call-events function; service_role only). '
  'p_signature: the v1 values of X-Cervana-Signature, comma-separated. Raises CV401 (signature), '
  'CV429 (rate; detail = seconds to wait), CV400 (detail = the first bad field).';

revoke execute on function public.ingest_call(uuid, text, text, text) from public, anon, authenticated;
grant execute on function public.ingest_call(uuid, text, text, text) to service_role;
