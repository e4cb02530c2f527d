-- Setting up a workspace (issue 16): how the phone agent answers (its
-- settings, every saved version with who saved it, and restoring one), the
-- workspace's time zone, and the phone numbers the agent answers, each written
-- through one validated security definer function that names the field it
-- refuses. Runs unchanged on the embedded PGlite, PostgreSQL 15+ and a hosted
-- Supabase project.

-- ---------------------------------------------------------------------------
-- The workspace's time zone: business hours are read in it.
-- ---------------------------------------------------------------------------

alter table public.workspaces add column time_zone text not null default 'UTC';

comment on column public.workspaces.time_zone is
  'IANA time zone (Europe/Paris) the workspace''s business hours are read in.';

-- private.check_time_zone (the demo scheduler's) refuses a name PostgreSQL does
-- not know, naming the field. The default needs no check.
create trigger workspaces_check_time_zone
  before insert or update of time_zone on public.workspaces
  for each row when (new.time_zone <> 'UTC')
  execute function private.check_time_zone();

-- ---------------------------------------------------------------------------
-- Agent settings
-- ---------------------------------------------------------------------------

alter table public.agents
  add column greeting text not null
    default 'Hi, thanks for calling. I''m a virtual assistant and I can help with most questions. How can I help you today?'
    check (char_length(greeting) between 10 and 500),
  add column voice text not null default 'harper'
    check (voice in ('harper', 'calvin', 'maya', 'oliver')),
  add column languages text[] not null default array['en-US']
    check (cardinality(languages) between 1 and 5
      and languages <@ array['en-US', 'en-GB', 'es-ES', 'es-MX', 'fr-FR', 'de-DE', 'it-IT', 'pt-BR', 'nl-NL']),
  -- Per weekday (mon … sun): {"open": "HH:MM", "close": "HH:MM"} or null (closed).
  add column business_hours jsonb not null default jsonb_build_object(
      'mon', jsonb_build_object('open', '09:00', 'close', '17:00'),
      'tue', jsonb_build_object('open', '09:00', 'close', '17:00'),
      'wed', jsonb_build_object('open', '09:00', 'close', '17:00'),
      'thu', jsonb_build_object('open', '09:00', 'close', '17:00'),
      'fri', jsonb_build_object('open', '09:00', 'close', '17:00'),
      'sat', null,
      'sun', null
    )
    check (jsonb_typeof(business_hours) = 'object'),
  add column after_hours text not null default 'take_message'
    check (after_hours in ('take_message', 'answer', 'forward')),
  add column after_hours_forward_to text
    check (after_hours_forward_to ~ '^\+[1-9][0-9]{6,14}$'),
  add column escalation_triggers text[] not null
    default array['caller_asks', 'unresolved']
    check (escalation_triggers <@ array['caller_asks', 'negative_sentiment', 'cancellation', 'billing_dispute', 'unresolved']),
  add column escalation_email text check (char_length(escalation_email) <= 254),
  add column escalation_phone text check (escalation_phone ~ '^\+[1-9][0-9]{6,14}$'),
  add column version integer not null default 1 check (version >= 1),
  add column updated_by uuid references public.profiles (id) on delete set null,
  add constraint agents_forward_to_required
    check (after_hours <> 'forward' or after_hours_forward_to is not null);

-- Hand-offs need somewhere to go. A new workspace's agent hands off to its
-- creator's email, so its first settings are complete (and restorable); an
-- agent with no one to hand off to starts with no hand-off rules.
create or replace function public.add_default_agent() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  creator_email text;
begin
  select lower(u.email) into creator_email from auth.users u where u.id = new.created_by;
  insert into public.agents (workspace_id, name, escalation_email, escalation_triggers)
  values (
    new.id,
    'Cervana assistant',
    creator_email,
    case when creator_email is null then '{}'::text[] else array['caller_asks', 'unresolved'] end
  );
  return null;
end
$$;

revoke execute on function public.add_default_agent() from public, anon, authenticated;

update public.agents a set
  escalation_email = (
    select lower(u.email)
    from public.workspace_members m
    join auth.users u on u.id = m.user_id
    where m.workspace_id = a.workspace_id and m.role = 'owner' and u.email is not null
    order by m.created_at, m.user_id
    limit 1
  );
update public.agents a set escalation_triggers = '{}' where a.escalation_email is null;

comment on column public.agents.version is
  'Bumped by every saved change; save_agent_settings refuses a change made from an older version (409).';

-- Every saved version of an agent's settings, the first included, with who
-- saved it. Written only by the functions below; nobody edits history.
create table public.agent_versions (
  agent_id uuid not null references public.agents (id) on delete cascade,
  version integer not null check (version >= 1),
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  settings jsonb not null check (jsonb_typeof(settings) = 'object'),
  changed_by uuid references public.profiles (id) on delete set null,
  changed_at timestamptz not null default now(),
  restored_from integer,
  primary key (agent_id, version)
);

comment on table public.agent_versions is
  'Every saved version of an agent''s settings, with who saved it and when (restored_from: the version it copies).';

create index agent_versions_workspace_id_idx on public.agent_versions (workspace_id);
create index agent_versions_changed_by_idx on public.agent_versions (changed_by);

-- The settings as one JSON object: what the page edits, what a version keeps.
create or replace function private.agent_settings(agent public.agents) returns jsonb
language sql
immutable
set search_path = ''
as $$
  select jsonb_build_object(
    'name', agent.name,
    'greeting', agent.greeting,
    'voice', agent.voice,
    'languages', to_jsonb(agent.languages),
    'business_hours', agent.business_hours,
    'after_hours', agent.after_hours,
    'after_hours_forward_to', agent.after_hours_forward_to,
    'escalation_triggers', to_jsonb(agent.escalation_triggers),
    'escalation_email', agent.escalation_email,
    'escalation_phone', agent.escalation_phone
  )
$$;

-- A new agent's first version (the defaults), recorded as nobody's change.
create or replace function private.record_first_agent_version() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  insert into public.agent_versions (agent_id, version, workspace_id, settings, changed_by)
  values (new.id, new.version, new.workspace_id, private.agent_settings(new), null);
  return null;
end
$$;

create trigger agents_record_first_version after insert on public.agents
  for each row execute function private.record_first_agent_version();

insert into public.agent_versions (agent_id, version, workspace_id, settings, changed_by, changed_at)
select a.id, a.version, a.workspace_id, private.agent_settings(a), null, a.created_at
from public.agents a
on conflict do nothing;

-- ---------------------------------------------------------------------------
-- Validation: each value checked and cleaned, the field named when refused.
-- ---------------------------------------------------------------------------

-- A phone number as people type it (+1 415 555 0100, 0044 20 …, (415) 555-0100
-- with the +1): spaces, dots, dashes and brackets dropped, 00 read as +.
create or replace function private.clean_e164(field text, value text, label text, required boolean)
returns text
language plpgsql
immutable
set search_path = ''
as $$
declare
  cleaned text := regexp_replace(coalesce(value, ''), '[[:space:]().-]', '', 'g');
begin
  if cleaned = '' then
    if required then
      perform private.reject(field, format('Please enter %s.', label));
    end if;
    return null;
  end if;
  if cleaned ~ '^00' then
    cleaned := '+' || substr(cleaned, 3);
  end if;
  if cleaned !~ '^\+[1-9][0-9]{6,14}$' then
    perform private.reject(
      field,
      format('Please enter %s in international format, starting with + and the country code, like +1 415 555 0100.', label)
    );
  end if;
  return cleaned;
end
$$;

-- A JSON string value (or null when absent or null); anything else is refused.
create or replace function private.json_text(settings jsonb, field text, label text) returns text
language plpgsql
immutable
set search_path = ''
as $$
begin
  case coalesce(jsonb_typeof(settings -> field), 'null')
    when 'null' then return null;
    when 'string' then return settings ->> field;
    else perform private.reject(field, format('Please enter %s as text.', label));
  end case;
  return null;
end
$$;

-- A JSON array of distinct strings from a list.
create or replace function private.json_choices(
  settings jsonb,
  field text,
  label text,
  allowed text[],
  min_count integer,
  max_count integer
) returns text[]
language plpgsql
immutable
set search_path = ''
as $$
declare
  value jsonb := settings -> field;
  chosen text[];
begin
  if value is null or jsonb_typeof(value) = 'null' then
    value := '[]';
  end if;
  if jsonb_typeof(value) <> 'array'
    or exists (select from jsonb_array_elements(value) e where jsonb_typeof(e) <> 'string') then
    perform private.reject(field, format('Please choose %s from the list.', label));
  end if;
  if exists (select from jsonb_array_elements_text(value) e where not e = any (allowed)) then
    perform private.reject(field, format('Please choose %s from the list.', label));
  end if;
  -- In the list's order, each once.
  select coalesce(array_agg(a.choice order by a.position), '{}') into chosen
  from unnest(allowed) with ordinality as a (choice, position)
  where value ? a.choice;
  if cardinality(chosen) < min_count then
    perform private.reject(field, format('Please choose at least %s %s.', min_count, label));
  end if;
  if cardinality(chosen) > max_count then
    perform private.reject(field, format('Please choose at most %s %s.', max_count, label));
  end if;
  return chosen;
end
$$;

-- Business hours: every weekday present, each closed (null) or open from one
-- time to a later one, as HH:MM (24:00 closes at midnight).
create or replace function private.clean_business_hours(value jsonb) returns jsonb
language plpgsql
immutable
set search_path = ''
as $$
declare
  days constant text[] := array['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];
  day_names constant text[] := array['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];
  cleaned jsonb := '{}';
  hours jsonb;
  opens text;
  closes text;
  i integer;
begin
  if value is null or jsonb_typeof(value) <> 'object'
    or exists (select from jsonb_object_keys(value) k where not k = any (days)) then
    perform private.reject('business_hours', 'Please set the business hours for each day of the week.');
  end if;
  for i in 1 .. 7 loop
    hours := value -> days[i];
    if hours is null or jsonb_typeof(hours) = 'null' then
      cleaned := cleaned || jsonb_build_object(days[i], null);
      continue;
    end if;
    if jsonb_typeof(hours) <> 'object'
      or exists (select from jsonb_object_keys(hours) k where k not in ('open', 'close')) then
      perform private.reject('business_hours', format('Please set %s''s hours as an opening and a closing time.', day_names[i]));
    end if;
    opens := case jsonb_typeof(hours -> 'open') when 'string' then hours ->> 'open' end;
    closes := case jsonb_typeof(hours -> 'close') when 'string' then hours ->> 'close' end;
    if opens is null or closes is null
      or opens !~ '^([01][0-9]|2[0-3]):[0-5][0-9]$'
      or closes !~ '^(([01][0-9]|2[0-3]):[0-5][0-9]|24:00)$' then
      perform private.reject('business_hours', format('Please enter %s''s hours as times like 09:00 and 17:30.', day_names[i]));
    end if;
    if closes <= opens then
      perform private.reject('business_hours', format('On %s, the closing time must be after the opening time.', day_names[i]));
    end if;
    cleaned := cleaned || jsonb_build_object(days[i], jsonb_build_object('open', opens, 'close', closes));
  end loop;
  return cleaned;
end
$$;

-- Every field of the settings object, cleaned; the first mistake is refused
-- with its field's name. Unknown keys are refused too (a typo never vanishes).
create or replace function private.clean_agent_settings(settings jsonb) returns jsonb
language plpgsql
immutable
set search_path = ''
as $$
declare
  known constant text[] := array[
    'name', 'greeting', 'voice', 'languages', 'business_hours', 'after_hours',
    'after_hours_forward_to', 'escalation_triggers', 'escalation_email', 'escalation_phone'
  ];
  unknown text;
  name text;
  greeting text;
  voice text;
  after_hours text;
  forward_to text;
  triggers text[];
  email text;
  phone text;
begin
  if settings is null or jsonb_typeof(settings) <> 'object' then
    perform private.reject('settings', 'Please send the agent''s settings as one object.');
  end if;
  select k into unknown from jsonb_object_keys(settings) k where not k = any (known) limit 1;
  if unknown is not null then
    perform private.reject(unknown, format('"%s" is not an agent setting.', left(unknown, 60)));
  end if;

  name := private.clean_text('name', private.json_text(settings, 'name', 'the agent''s name'), 'the agent''s name', 80);
  greeting := private.clean_text('greeting', private.json_text(settings, 'greeting', 'a greeting'), 'a greeting', 500, true, true);
  if char_length(greeting) < 10 then
    perform private.reject('greeting', 'Please write a greeting of at least 10 characters.');
  end if;
  voice := private.clean_choice('voice', private.json_text(settings, 'voice', 'a voice'), 'a voice', array['harper', 'calvin', 'maya', 'oliver']);
  after_hours := private.clean_choice(
    'after_hours', private.json_text(settings, 'after_hours', 'what happens after hours'),
    'what happens after hours', array['take_message', 'answer', 'forward']
  );
  forward_to := private.clean_e164(
    'after_hours_forward_to', private.json_text(settings, 'after_hours_forward_to', 'the number to forward to'),
    'the number to forward after-hours calls to', after_hours = 'forward'
  );
  if after_hours <> 'forward' then
    forward_to := null;
  end if;
  triggers := private.json_choices(
    settings, 'escalation_triggers', 'when to hand off',
    array['caller_asks', 'negative_sentiment', 'cancellation', 'billing_dispute', 'unresolved'], 0, 5
  );
  email := private.json_text(settings, 'escalation_email', 'the hand-off email');
  if nullif(btrim(email), '') is not null then
    email := private.clean_email('escalation_email', email);
  else
    email := null;
  end if;
  phone := private.clean_e164(
    'escalation_phone', private.json_text(settings, 'escalation_phone', 'the hand-off number'),
    'the hand-off number', false
  );
  if cardinality(triggers) > 0 and email is null and phone is null then
    perform private.reject(
      'escalation_email',
      'Please enter an email or a phone number for hand-offs, or turn off every hand-off rule.'
    );
  end if;

  return jsonb_build_object(
    'name', name,
    'greeting', greeting,
    'voice', voice,
    'languages', to_jsonb(private.json_choices(
      settings, 'languages', 'languages',
      array['en-US', 'en-GB', 'es-ES', 'es-MX', 'fr-FR', 'de-DE', 'it-IT', 'pt-BR', 'nl-NL'], 1, 5
    )),
    'business_hours', private.clean_business_hours(settings -> 'business_hours'),
    'after_hours', after_hours,
    'after_hours_forward_to', forward_to,
    'escalation_triggers', to_jsonb(triggers),
    'escalation_email', email,
    'escalation_phone', phone
  );
end
$$;

-- The caller manages the workspace (owner or workspace admin, past the second
-- factor once enrolled), or a sentence: 404 to a non-member (nothing about
-- other workspaces), 403 to a member.
create or replace function private.require_workspace_manager(p_workspace_id uuid, refusal text)
returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  if p_workspace_id is null or not public.is_workspace_member(p_workspace_id) then
    raise exception using errcode = 'PT404', message = 'This workspace does not exist or you are not a member of it.',
      detail = 'workspace_id';
  end if;
  if coalesce(public.workspace_role(p_workspace_id), '') not in ('owner', 'admin') or not public.mfa_satisfied() then
    raise exception using errcode = '42501', message = refusal, hint = 'Ask an owner or admin of your workspace.';
  end if;
end
$$;

-- The agent, locked, if the caller may change it; else a sentence.
create or replace function private.agent_for_change(p_agent_id uuid) returns public.agents
language plpgsql
security definer
set search_path = ''
as $$
declare
  agent public.agents;
begin
  select a.* into agent from public.agents a where a.id = p_agent_id for update;
  if agent.id is null or not public.is_workspace_member(agent.workspace_id) then
    raise exception using errcode = 'PT404', message = 'This agent does not exist or is not in your workspace.',
      detail = 'agent_id';
  end if;
  perform private.require_workspace_manager(
    agent.workspace_id, 'Only the workspace''s owners and admins can change the agent.'
  );
  return agent;
end
$$;

-- Stores cleaned settings as the agent's next version, unless nothing changed.
create or replace function private.apply_agent_settings(
  agent public.agents,
  cleaned jsonb,
  expected_version integer,
  restored_from integer
) returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  saved public.agents;
begin
  if expected_version is null or expected_version <> agent.version then
    raise exception using errcode = 'PT409',
      message = 'Someone else changed the agent since you opened it. Reload to see their changes, then make yours again.',
      detail = 'version';
  end if;
  if cleaned = private.agent_settings(agent) then
    return private.agent_settings(agent) || jsonb_build_object('version', agent.version, 'changed', false);
  end if;
  update public.agents a set
    name = cleaned ->> 'name',
    greeting = cleaned ->> 'greeting',
    voice = cleaned ->> 'voice',
    languages = array(select jsonb_array_elements_text(cleaned -> 'languages')),
    business_hours = cleaned -> 'business_hours',
    after_hours = cleaned ->> 'after_hours',
    after_hours_forward_to = cleaned ->> 'after_hours_forward_to',
    escalation_triggers = array(select jsonb_array_elements_text(cleaned -> 'escalation_triggers')),
    escalation_email = cleaned ->> 'escalation_email',
    escalation_phone = cleaned ->> 'escalation_phone',
    version = a.version + 1,
    updated_by = auth.uid()
  where a.id = agent.id
  returning a.* into saved;
  insert into public.agent_versions (agent_id, version, workspace_id, settings, changed_by, restored_from)
  values (saved.id, saved.version, saved.workspace_id, private.agent_settings(saved),
    (select p.id from public.profiles p where p.id = auth.uid()), restored_from);
  return private.agent_settings(saved) || jsonb_build_object('version', saved.version, 'changed', true);
end
$$;

-- ---------------------------------------------------------------------------
-- The API: save, restore
-- ---------------------------------------------------------------------------

create or replace function public.save_agent_settings(
  p_agent_id uuid,
  p_settings jsonb,
  p_expected_version integer
) returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  agent public.agents := private.agent_for_change(p_agent_id);
begin
  return private.apply_agent_settings(agent, private.clean_agent_settings(p_settings), p_expected_version, null);
end
$$;

comment on function public.save_agent_settings(uuid, jsonb, integer) is
  'Saves every agent setting at once as the next version (owners and admins). '
  '400 names the field refused; 409 when p_expected_version is not the current version.';

create or replace function public.restore_agent_version(
  p_agent_id uuid,
  p_version integer,
  p_expected_version integer
) returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  agent public.agents := private.agent_for_change(p_agent_id);
  settings jsonb;
begin
  select v.settings into settings
  from public.agent_versions v
  where v.agent_id = agent.id and v.version = p_version;
  if settings is null then
    raise exception using errcode = 'PT404', message = 'This version of the agent''s settings does not exist.',
      detail = 'version';
  end if;
  return private.apply_agent_settings(agent, private.clean_agent_settings(settings), p_expected_version, p_version);
end
$$;

comment on function public.restore_agent_version(uuid, integer, integer) is
  'Saves an earlier version''s settings as the agent''s next version (owners and admins).';

-- ---------------------------------------------------------------------------
-- The workspace's name and time zone
-- ---------------------------------------------------------------------------

create or replace function public.update_workspace(
  p_workspace_id uuid,
  p_name text,
  p_time_zone text
) returns public.workspaces
language plpgsql
security definer
set search_path = ''
as $$
declare
  saved public.workspaces;
begin
  perform private.require_workspace_manager(
    p_workspace_id, 'Only the workspace''s owners and admins can change its name and time zone.'
  );
  update public.workspaces w set
    name = private.clean_text('name', p_name, 'the workspace''s name', 120),
    time_zone = private.clean_time_zone(p_time_zone)
  where w.id = p_workspace_id
  returning w.* into saved;
  return saved;
end
$$;

-- The names people pick from: PostgreSQL's own zones, the Area/City kind.
create or replace function public.time_zone_names() returns setof text
language sql
stable
set search_path = ''
as $$
  select n.name from pg_catalog.pg_timezone_names n
  where n.name ~ '^(Africa|America|Antarctica|Asia|Atlantic|Australia|Europe|Indian|Pacific)/[A-Za-z_/-]+$'
     or n.name = 'UTC'
  order by n.name
$$;

-- ---------------------------------------------------------------------------
-- Phone numbers: added, changed and removed through these functions only.
-- ---------------------------------------------------------------------------

create or replace function private.check_number_access(p_workspace_id uuid) returns void
language sql
security definer
set search_path = ''
as $$
  select private.require_workspace_manager(
    p_workspace_id, 'Only the workspace''s owners and admins can change its phone numbers.'
  )
$$;

create or replace function private.check_number_agent(p_workspace_id uuid, p_agent_id uuid) returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  if p_agent_id is null then
    perform private.reject('agent_id', 'Please choose the agent that answers this number.');
  end if;
  if not exists (select from public.agents a where a.id = p_agent_id and a.workspace_id = p_workspace_id) then
    perform private.reject('agent_id', 'Please choose one of your workspace''s agents.');
  end if;
end
$$;

-- One sentence for a number taken anywhere: it never says whose it is.
create or replace function private.refuse_taken_number() returns void
language plpgsql
set search_path = ''
as $$
begin
  raise exception using errcode = '23505',
    message = 'This number is already connected to a Cervana workspace. If it is yours, remove it there first or contact support.',
    detail = 'e164';
end
$$;

create or replace function public.add_phone_number(
  p_workspace_id uuid,
  p_e164 text,
  p_label text,
  p_agent_id uuid
) returns public.phone_numbers
language plpgsql
security definer
set search_path = ''
as $$
declare
  number text;
  saved public.phone_numbers;
begin
  perform private.check_number_access(p_workspace_id);
  number := private.clean_e164('e164', p_e164, 'the phone number', true);
  perform private.check_number_agent(p_workspace_id, p_agent_id);
  if (select count(*) from public.phone_numbers n where n.workspace_id = p_workspace_id) >= 100 then
    perform private.reject('e164', 'A workspace can have at most 100 phone numbers. Remove one you no longer use first.');
  end if;
  begin
    insert into public.phone_numbers (workspace_id, e164, label, agent_id)
    values (p_workspace_id, number, private.clean_text('label', p_label, 'a label', 80, false), p_agent_id)
    returning * into saved;
  exception when unique_violation then
    perform private.refuse_taken_number();
  end;
  return saved;
end
$$;

create or replace function public.update_phone_number(
  p_id uuid,
  p_e164 text,
  p_label text,
  p_agent_id uuid
) returns public.phone_numbers
language plpgsql
security definer
set search_path = ''
as $$
declare
  current_number public.phone_numbers;
  number text;
  saved public.phone_numbers;
begin
  select n.* into current_number from public.phone_numbers n where n.id = p_id for update;
  if current_number.id is null or not public.is_workspace_member(current_number.workspace_id) then
    raise exception using errcode = 'PT404', message = 'This phone number does not exist or is not in your workspace.',
      detail = 'id';
  end if;
  perform private.check_number_access(current_number.workspace_id);
  number := private.clean_e164('e164', p_e164, 'the phone number', true);
  perform private.check_number_agent(current_number.workspace_id, p_agent_id);
  begin
    update public.phone_numbers n set
      e164 = number,
      label = private.clean_text('label', p_label, 'a label', 80, false),
      agent_id = p_agent_id
    where n.id = p_id
    returning n.* into saved;
  exception when unique_violation then
    perform private.refuse_taken_number();
  end;
  return saved;
end
$$;

create or replace function public.remove_phone_number(p_id uuid) returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  workspace uuid;
begin
  select n.workspace_id into workspace from public.phone_numbers n where n.id = p_id for update;
  if workspace is null or not public.is_workspace_member(workspace) then
    raise exception using errcode = 'PT404', message = 'This phone number does not exist or is not in your workspace.',
      detail = 'id';
  end if;
  perform private.check_number_access(workspace);
  -- Its calls stay, unlinked (calls.phone_number_id: on delete set null).
  delete from public.phone_numbers n where n.id = p_id;
end
$$;

-- ---------------------------------------------------------------------------
-- Access
-- ---------------------------------------------------------------------------

-- Agents and numbers change only through the functions above, so a change is
-- always validated, versioned and named in its refusal.
revoke update on public.agents from authenticated;
revoke insert, update, delete on public.phone_numbers from authenticated;
drop policy if exists "Workspace owners and admins rename agents" on public.agents;
drop policy if exists "Workspace owners and admins add phone numbers" on public.phone_numbers;
drop policy if exists "Workspace owners and admins change phone numbers" on public.phone_numbers;
drop policy if exists "Workspace owners and admins remove phone numbers" on public.phone_numbers;

alter table public.agent_versions enable row level security;
revoke all on public.agent_versions from anon, authenticated;
grant all on public.agent_versions to service_role;
grant select on public.agent_versions to authenticated;

create policy "Members and admins read agent versions"
  on public.agent_versions for select to authenticated
  using (workspace_id in (select public.my_workspace_ids()) or (select public.is_admin()));

create policy "Second factor required once enrolled"
  on public.agent_versions as restrictive for all to authenticated
  using ((select public.mfa_satisfied()))
  with check ((select public.mfa_satisfied()));

revoke execute on function
  private.agent_settings(public.agents),
  private.record_first_agent_version(),
  private.clean_e164(text, text, text, boolean),
  private.json_text(jsonb, text, text),
  private.json_choices(jsonb, text, text, text[], integer, integer),
  private.clean_business_hours(jsonb),
  private.clean_agent_settings(jsonb),
  private.require_workspace_manager(uuid, text),
  private.agent_for_change(uuid),
  private.apply_agent_settings(public.agents, jsonb, integer, integer),
  private.check_number_access(uuid),
  private.check_number_agent(uuid, uuid),
  private.refuse_taken_number()
from public, anon, authenticated;

revoke execute on function
  public.save_agent_settings(uuid, jsonb, integer),
  public.restore_agent_version(uuid, integer, integer),
  public.update_workspace(uuid, text, text),
  public.add_phone_number(uuid, text, text, uuid),
  public.update_phone_number(uuid, text, text, uuid),
  public.remove_phone_number(uuid),
  public.time_zone_names()
from public, anon;
grant execute on function
  public.save_agent_settings(uuid, jsonb, integer),
  public.restore_agent_version(uuid, integer, integer),
  public.update_workspace(uuid, text, text),
  public.add_phone_number(uuid, text, text, uuid),
  public.update_phone_number(uuid, text, text, uuid),
  public.remove_phone_number(uuid),
  public.time_zone_names()
to authenticated, service_role;
