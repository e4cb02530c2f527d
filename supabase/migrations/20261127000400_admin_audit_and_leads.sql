-- The admin area's foundations (issue 17): an append-only audit log of every
-- change a Cervana admin makes, written by triggers on the tables admins work
-- (so no code path can forget it), and the leads pipeline: a version per lead
-- so a stale change is refused with a sentence instead of silently
-- overwriting another admin's, notes as a history, and the deal value of a
-- won lead. Runs unchanged on the embedded PGlite, PostgreSQL 15+ and a hosted
-- Supabase project.

-- ---------------------------------------------------------------------------
-- The audit log
-- ---------------------------------------------------------------------------

create table public.admin_audit_log (
  id bigint generated always as identity primary key,
  at timestamptz not null default now(),
  -- No foreign key: an entry outlives the account that made it.
  actor_id uuid,
  actor_email text,
  action text not null check (action in ('insert', 'update', 'delete')),
  target_table text not null check (char_length(target_table) between 1 and 63),
  target_id text,
  -- Changed columns only (update), the whole row (insert: after; delete: before).
  before jsonb,
  after jsonb,
  client_ip text
);

comment on table public.admin_audit_log is
  'Every change a Cervana admin made to the tables they work, with before and after values. Append-only.';

create index admin_audit_log_at_idx on public.admin_audit_log (at desc, id desc);
create index admin_audit_log_target_idx on public.admin_audit_log (target_table, target_id, at desc, id desc);
create index admin_audit_log_actor_idx on public.admin_audit_log (actor_id, at desc, id desc);

-- Nobody changes or removes an entry: not the API roles (no grants), and not
-- a superuser by accident (this trigger; erasing one on purpose means
-- disabling it, which shows in the database's own logs).
create or replace function private.refuse_audit_change() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  raise exception using errcode = '42501',
    message = 'The audit log is append-only: entries cannot be changed or deleted.';
end
$$;

create trigger admin_audit_log_append_only
  before update or delete on public.admin_audit_log
  for each row execute function private.refuse_audit_change();
create trigger admin_audit_log_no_truncate
  before truncate on public.admin_audit_log
  for each statement execute function private.refuse_audit_change();

-- Records a change made by a Cervana admin (an admin's JWT): who, from where,
-- what, and the values before and after. Changes by anyone else (the public
-- forms' functions, the server) are not admin actions and are not logged here.
create or replace function private.audit_admin_change() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  old_row jsonb := case when tg_op <> 'INSERT' then to_jsonb(old) end;
  new_row jsonb := case when tg_op <> 'DELETE' then to_jsonb(new) end;
  before_values jsonb;
  after_values jsonb;
begin
  if not public.is_admin() then
    return null;
  end if;
  if tg_op = 'UPDATE' then
    select coalesce(jsonb_object_agg(o.key, o.value), '{}'), coalesce(jsonb_object_agg(o.key, new_row -> o.key), '{}')
      into before_values, after_values
    from jsonb_each(old_row) o
    where o.value is distinct from new_row -> o.key and o.key not in ('updated_at', 'version');
    if before_values = '{}' then
      return null;
    end if;
  else
    before_values := old_row;
    after_values := new_row;
  end if;
  insert into public.admin_audit_log (actor_id, actor_email, action, target_table, target_id, before, after, client_ip)
  values (
    auth.uid(),
    auth.jwt() ->> 'email',
    lower(tg_op),
    tg_table_name,
    coalesce(new_row ->> 'id', old_row ->> 'id', new_row ->> 'day', old_row ->> 'day'),
    before_values,
    after_values,
    private.client_ip()
  );
  return null;
end
$$;

-- ---------------------------------------------------------------------------
-- Leads: a version per lead, the deal value, notes as a history
-- ---------------------------------------------------------------------------

alter table public.leads
  add column version integer not null default 1 check (version >= 1),
  add column deal_value_cents bigint check (deal_value_cents between 1 and 100000000000),
  add column currency text not null default 'USD' check (currency ~ '^[A-Z]{3}$'),
  add column status_changed_at timestamptz;

comment on column public.leads.version is
  'Bumped by every change; update_lead refuses a change made from an older version (409).';
comment on column public.leads.deal_value_cents is
  'The deal''s value in the currency''s minor unit, required once the lead is won.';

create or replace function private.bump_lead_version() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  new.version := old.version + 1;
  if new.status is distinct from old.status then
    new.status_changed_at := now();
  end if;
  return new;
end
$$;

create trigger leads_bump_version before update on public.leads
  for each row execute function private.bump_lead_version();

-- The board and table: one status, newest first (keyset).
create index leads_status_created_idx on public.leads (status, created_at desc, id desc);
create index leads_owner_id_idx on public.leads (owner_id);

create table public.lead_notes (
  id uuid primary key default gen_random_uuid(),
  lead_id uuid not null references public.leads (id) on delete cascade,
  author_id uuid references public.profiles (id) on delete set null,
  body text not null check (char_length(body) between 1 and 5000),
  created_at timestamptz not null default now()
);

comment on table public.lead_notes is 'Notes on a lead, oldest first: a history nobody edits.';

create index lead_notes_lead_idx on public.lead_notes (lead_id, created_at, id);
create index lead_notes_author_idx on public.lead_notes (author_id);

-- The single notes field of before becomes each lead's first note.
insert into public.lead_notes (lead_id, author_id, body, created_at)
select l.id, null, left(l.notes, 5000), l.updated_at
from public.leads l
where nullif(btrim(l.notes), '') is not null;

-- ---------------------------------------------------------------------------
-- The pipeline's functions
-- ---------------------------------------------------------------------------

create or replace function private.require_admin(refusal text) returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  if not public.is_admin() or not public.mfa_satisfied() then
    raise exception using errcode = '42501', message = refusal;
  end if;
end
$$;

-- Changes a lead's status, owner and deal value at once, from the version the
-- admin saw. A lead won needs its deal value; the owner is an admin.
create or replace function public.update_lead(
  p_lead_id uuid,
  p_changes jsonb,
  p_expected_version integer
) returns public.leads
language plpgsql
security definer
set search_path = ''
as $$
declare
  lead public.leads;
  saved public.leads;
  unknown text;
  new_status text;
  new_owner uuid;
  new_value bigint;
  new_currency text;
begin
  perform private.require_admin('Only Cervana admins can work leads.');
  if p_changes is null or jsonb_typeof(p_changes) <> 'object' then
    perform private.reject('changes', 'Please send the lead''s changes as one object.');
  end if;
  select k into unknown from jsonb_object_keys(p_changes) k
  where k not in ('status', 'owner_id', 'deal_value_cents', 'currency') limit 1;
  if unknown is not null then
    perform private.reject(unknown, format('"%s" cannot be changed here.', left(unknown, 60)));
  end if;

  select l.* into lead from public.leads l where l.id = p_lead_id for update;
  if lead.id is null then
    raise exception using errcode = 'PT404', message = 'This lead does not exist (any more).', detail = 'lead_id';
  end if;
  if p_expected_version is null or p_expected_version <> lead.version then
    raise exception using errcode = 'PT409',
      message = 'Someone else changed this lead since you opened it. Reload it to see their change, then make yours again.',
      detail = 'version';
  end if;

  new_status := case when p_changes ? 'status'
    then private.clean_choice('status', p_changes ->> 'status', 'a status', array['new', 'contacted', 'qualified', 'won', 'lost'])
    else lead.status end;

  if p_changes ? 'owner_id' then
    if jsonb_typeof(p_changes -> 'owner_id') = 'null' then
      new_owner := null;
    elsif jsonb_typeof(p_changes -> 'owner_id') <> 'string'
      or (p_changes ->> 'owner_id') !~ '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$'
      or not exists (
        select from auth.users u
        where u.id = (p_changes ->> 'owner_id')::uuid and u.raw_app_meta_data ->> 'role' = 'admin'
      ) then
      perform private.reject('owner_id', 'Please choose a Cervana admin as the lead''s owner.');
    else
      new_owner := (p_changes ->> 'owner_id')::uuid;
    end if;
  else
    new_owner := lead.owner_id;
  end if;

  if p_changes ? 'deal_value_cents' then
    if jsonb_typeof(p_changes -> 'deal_value_cents') = 'null' then
      new_value := null;
    elsif jsonb_typeof(p_changes -> 'deal_value_cents') <> 'number'
      or (p_changes ->> 'deal_value_cents') !~ '^[0-9]{1,12}$'
      or (p_changes ->> 'deal_value_cents')::bigint not between 1 and 100000000000 then
      perform private.reject('deal_value_cents', 'Please enter the deal''s value as a whole amount above zero, up to 1,000,000,000.');
    else
      new_value := (p_changes ->> 'deal_value_cents')::bigint;
    end if;
  else
    new_value := lead.deal_value_cents;
  end if;
  new_currency := case when p_changes ? 'currency'
    then private.clean_choice('currency', p_changes ->> 'currency', 'a currency', array['USD', 'EUR', 'GBP', 'CAD', 'AUD'])
    else lead.currency end;

  if new_status = 'won' and new_value is null then
    perform private.reject('deal_value_cents', 'Please enter the deal''s value to mark the lead won.');
  end if;

  update public.leads l set
    status = new_status,
    owner_id = new_owner,
    deal_value_cents = new_value,
    currency = new_currency
  where l.id = lead.id
  returning l.* into saved;
  return saved;
end
$$;

comment on function public.update_lead(uuid, jsonb, integer) is
  'Admins change a lead''s status, owner_id, deal_value_cents and currency at once. '
  '400 names the field refused; 409 when p_expected_version is not the lead''s version.';

create or replace function public.add_lead_note(p_lead_id uuid, p_body text) returns public.lead_notes
language plpgsql
security definer
set search_path = ''
as $$
declare
  saved public.lead_notes;
begin
  perform private.require_admin('Only Cervana admins can write notes on leads.');
  if not exists (select from public.leads l where l.id = p_lead_id) then
    raise exception using errcode = 'PT404', message = 'This lead does not exist (any more).', detail = 'lead_id';
  end if;
  insert into public.lead_notes (lead_id, author_id, body)
  values (
    p_lead_id,
    (select p.id from public.profiles p where p.id = auth.uid()),
    private.clean_text('body', p_body, 'a note', 5000, true, true)
  )
  returning * into saved;
  return saved;
end
$$;

-- ---------------------------------------------------------------------------
-- Access
-- ---------------------------------------------------------------------------

alter table public.admin_audit_log enable row level security;
alter table public.lead_notes enable row level security;

revoke all on public.admin_audit_log from public, anon, authenticated, service_role;
grant select on public.admin_audit_log to authenticated, service_role;
revoke all on public.lead_notes from anon, authenticated;
grant select on public.lead_notes to authenticated;
grant all on public.lead_notes to service_role;

create policy "Admins read the audit log"
  on public.admin_audit_log for select to authenticated
  using ((select public.is_admin()));
create policy "Admins read lead notes"
  on public.lead_notes for select to authenticated
  using ((select public.is_admin()));

create policy "Second factor required once enrolled"
  on public.admin_audit_log as restrictive for all to authenticated
  using ((select public.mfa_satisfied()))
  with check ((select public.mfa_satisfied()));
create policy "Second factor required once enrolled"
  on public.lead_notes as restrictive for all to authenticated
  using ((select public.mfa_satisfied()))
  with check ((select public.mfa_satisfied()));

-- A lead changes through update_lead only, so every change is checked against
-- the version the admin saw. Admins still add (by hand) and remove leads.
revoke update on public.leads from authenticated;
drop policy if exists "Admins change leads" on public.leads;

-- Every admin change to the tables admins work is in the log.
do $$
declare
  target text;
begin
  foreach target in array array[
    'leads', 'lead_notes', 'demo_bookings', 'availability_rules', 'blackout_dates',
    'scheduler_settings', 'partner_applications', 'partners', 'site_settings'
  ] loop
    execute format(
      'create trigger %I after insert or update or delete on public.%I
         for each row execute function private.audit_admin_change()',
      'z_' || target || '_audit', target
    );
  end loop;
end
$$;

alter publication supabase_realtime add table public.lead_notes;

revoke execute on function
  private.refuse_audit_change(),
  private.audit_admin_change(),
  private.bump_lead_version(),
  private.require_admin(text)
from public, anon, authenticated;

revoke execute on function
  public.update_lead(uuid, jsonb, integer),
  public.add_lead_note(uuid, text)
from public, anon;
grant execute on function
  public.update_lead(uuid, jsonb, integer),
  public.add_lead_note(uuid, text)
to authenticated, service_role;
