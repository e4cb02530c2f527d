-- What the public forms (talk to sales, demo bookings, partner applications)
-- share: the site's settings, the private helpers that validate input, limit
-- abuse and queue email, and partners with their referral codes and clicks.
-- Visitors never touch these tables: they call the validated functions of the
-- next migrations, which return a confirmation (product brief §5).

create schema if not exists private;
revoke all on schema private from public;
revoke all on schema private from anon, authenticated;

-- ---------------------------------------------------------------------------
-- Settings (one row). The server writes site_url and sales_inbox from its
-- configuration (SITE_URL, SALES_INBOX) at every start; admins change the rest.
-- ---------------------------------------------------------------------------

create table public.site_settings (
  id boolean primary key default true check (id),
  site_url text not null default 'http://localhost:3000'
    check (site_url ~ '^https?://[^\s/]+(/[^\s]*)?$' and right(site_url, 1) <> '/'),
  sales_inbox text not null default 'sales@cervana.ai'
    check (char_length(sales_inbox) <= 254 and sales_inbox ~ '^[^\s@]+@[^\s@]+\.[^\s@]+$'),
  submissions_per_ip_per_hour integer not null default 20
    check (submissions_per_ip_per_hour between 1 and 100000),
  submissions_per_email_per_hour integer not null default 3
    check (submissions_per_email_per_hour between 1 and 100000),
  updated_at timestamptz not null default now()
);

comment on table public.site_settings is
  'One row: the public site''s URL, the sales inbox and the limits on public form submissions.';

insert into public.site_settings default values;

create trigger site_settings_set_updated_at before update on public.site_settings
  for each row execute function public.set_updated_at();

-- ---------------------------------------------------------------------------
-- Private helpers
-- ---------------------------------------------------------------------------

-- A visitor's mistake: SQLSTATE 22023, answered as HTTP 400 by the data API,
-- with a sentence for people as the message and the field's name as the detail
-- (the form puts the sentence under that field).
create or replace function private.reject(field text, message text) returns void
language plpgsql
set search_path = ''
as $$
begin
  raise exception using errcode = '22023', message = message, detail = field;
end
$$;

-- Trimmed text, or null when empty; rejected when required and missing, too
-- long, or containing control characters (newlines only where allowed).
create or replace function private.clean_text(
  field text,
  value text,
  label text,
  max_length integer,
  required boolean default true,
  multiline boolean default false
) returns text
language plpgsql
immutable
set search_path = ''
as $$
declare
  cleaned text := nullif(btrim(value, E' \t\r\n'), '');
begin
  if cleaned is null then
    if required then
      perform private.reject(field, format('Please enter %s.', label));
    end if;
    return null;
  end if;
  if char_length(cleaned) > max_length then
    perform private.reject(
      field,
      format('Please keep %s under %s characters.', label, to_char(max_length + 1, 'FM999,999'))
    );
  end if;
  if (multiline and cleaned ~ '[\x01-\x08\x0b\x0c\x0e-\x1f\x7f]')
    or (not multiline and cleaned ~ '[\x01-\x1f\x7f]') then
    perform private.reject(field, format('Please remove the special characters from %s.', label));
  end if;
  return cleaned;
end
$$;

-- A syntactically sound address, lower-cased.
create or replace function private.clean_email(field text, value text) returns text
language plpgsql
immutable
set search_path = ''
as $$
declare
  cleaned text := lower(nullif(btrim(value), ''));
begin
  if cleaned is null then
    perform private.reject(field, 'Please enter your work email.');
  end if;
  if char_length(cleaned) > 254
    or cleaned !~ '^[a-z0-9.!#$%&''*+/=?^_`{|}~-]+@[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*\.[a-z]{2,}$'
  then
    perform private.reject(field, 'Please enter a valid email address, like jane@company.com.');
  end if;
  return cleaned;
end
$$;

-- One of the allowed values.
create or replace function private.clean_choice(
  field text,
  value text,
  label text,
  allowed text[]
) returns text
language plpgsql
immutable
set search_path = ''
as $$
begin
  if value is null or btrim(value) = '' then
    perform private.reject(field, format('Please choose %s.', label));
  end if;
  if not (value = any (allowed)) then
    perform private.reject(field, format('Please choose %s from the list.', label));
  end if;
  return value;
end
$$;

-- Bots fill in every field, people never see this one. The visitor is told
-- plainly (and how to reach us), and nothing is stored.
create or replace function private.refuse_filled_honeypot(value text) returns void
language plpgsql
set search_path = ''
as $$
begin
  if nullif(btrim(value), '') is not null then
    raise exception using
      errcode = '22023',
      message = 'This submission was blocked because it looks automated. If you are a person, '
        || 'please reload the page and try again, or email us.',
      detail = 'blocked';
  end if;
end
$$;

-- The caller's address as the API server determined it (request.headers'
-- x-forwarded-for, first entry, as on Supabase); null outside a request.
create or replace function private.client_ip() returns text
language sql
stable
set search_path = ''
as $$
  select nullif(
    btrim(split_part(
      nullif(current_setting('request.headers', true), '')::json ->> 'x-forwarded-for', ',', 1
    )),
    ''
  )
$$;

-- Hourly counters behind the per-IP and per-email limits. Keys are SHA-256
-- hashes: the table holds no address in the clear, and rows older than a day
-- are removed as new ones come.
create table private.submission_counts (
  key text not null,
  window_start timestamptz not null,
  hits integer not null default 0,
  primary key (key, window_start)
);
create index submission_counts_window_start_idx on private.submission_counts (window_start);

-- Counts one more hit for key in this hour; true while within max.
create or replace function private.count_hit(key text, max integer) returns boolean
language plpgsql
security definer
set search_path = ''
as $$
declare
  total integer;
begin
  delete from private.submission_counts c where c.window_start < now() - interval '1 day';
  insert into private.submission_counts as c (key, window_start, hits)
  values (encode(sha256(convert_to(count_hit.key, 'UTF8')), 'hex'), date_trunc('hour', now()), 1)
  on conflict on constraint submission_counts_pkey do update set hits = c.hits + 1
  returning c.hits into total;
  return total <= max;
end
$$;

-- Refuses a form once its sender's network or address has sent too many this
-- hour (site_settings). Runs in the submission's transaction: a refused or
-- failed submission counts for nothing, a stored one counts once.
create or replace function private.enforce_submission_limits(form text, email text) returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  settings public.site_settings;
  ip text := private.client_ip();
begin
  select * into settings from public.site_settings where id;
  if ip is not null
    and not private.count_hit(form || ':ip:' || ip, settings.submissions_per_ip_per_hour) then
    raise exception using
      errcode = 'PT429',
      message = 'Too many submissions have come from your network in the last hour. Please try '
        || 'again later, or email ' || settings.sales_inbox || '.',
      detail = 'rate_limited';
  end if;
  if not private.count_hit(form || ':email:' || lower(email), settings.submissions_per_email_per_hour) then
    raise exception using
      errcode = 'PT429',
      message = 'We have already received several submissions from this email address in the '
        || 'last hour. Please try again later, or email ' || settings.sales_inbox || '.',
      detail = 'rate_limited';
  end if;
end
$$;

-- Queues an email in the outbox, in the caller's transaction. The plain text
-- is complete here; `metadata.layout` lets the server's sender draw the same
-- content in the branded HTML frame (server/mail/layout.ts).
create or replace function private.queue_email(
  recipient text,
  subject text,
  template text,
  heading text,
  paragraphs text[],
  action_label text default null,
  action_url text default null,
  footnote text default 'You are receiving this email because of a request made on cervana.ai.',
  attachments jsonb default '[]'::jsonb,
  metadata jsonb default '{}'::jsonb
) returns uuid
language plpgsql
security definer
set search_path = ''
as $$
declare
  body text;
  id uuid;
begin
  body := heading || E'\n\n'
    || array_to_string(paragraphs, E'\n\n') || E'\n\n'
    || case when action_url is not null then action_label || ': ' || action_url || E'\n\n' else '' end
    || footnote || E'\n\n'
    || '— Cervana, the AI phone agent for customer success teams';
  insert into public.outbox_messages (channel, recipient, subject, body_text, template, attachments, metadata)
  values (
    'email',
    recipient,
    subject,
    body,
    template,
    attachments,
    metadata || jsonb_build_object(
      'layout',
      jsonb_strip_nulls(jsonb_build_object(
        'subject', subject,
        'preview', paragraphs[1],
        'heading', heading,
        'paragraphs', to_jsonb(paragraphs),
        'action', case when action_url is not null
          then jsonb_build_object('label', action_label, 'url', action_url) end,
        'footnote', footnote
      ))
    )
  )
  returning outbox_messages.id into id;
  return id;
end
$$;

create or replace function private.site_url() returns text
language sql
stable
security definer
set search_path = ''
as $$
  select site_url from public.site_settings where id
$$;

create or replace function private.sales_inbox() returns text
language sql
stable
security definer
set search_path = ''
as $$
  select sales_inbox from public.site_settings where id
$$;

-- 64 hex characters from two random UUIDs: 244 random bits, for links that
-- act without an account. Only its SHA-256 is stored.
create or replace function private.new_token() returns text
language sql
volatile
set search_path = ''
as $$
  select replace(gen_random_uuid()::text || gen_random_uuid()::text, '-', '')
$$;

create or replace function private.token_hash(token text) returns bytea
language sql
immutable
set search_path = ''
as $$
  select sha256(convert_to(coalesce(token, ''), 'UTF8'))
$$;

-- ---------------------------------------------------------------------------
-- Partners and referral attribution
-- ---------------------------------------------------------------------------

create table public.partners (
  id uuid primary key default gen_random_uuid(),
  user_id uuid unique references auth.users (id) on delete set null,
  company text not null check (char_length(company) between 1 and 120),
  referral_code text not null unique check (referral_code ~ '^[A-Z0-9]{4,24}$'),
  tier text not null default 'registered' check (tier in ('registered', 'silver', 'gold')),
  commission_rate numeric(4, 3) not null default 0.150 check (commission_rate between 0 and 0.5),
  status text not null default 'active' check (status in ('active', 'suspended')),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

comment on table public.partners is
  'Referral partners: their code (the ?ref= of their links), tier and commission rate.';

create trigger partners_set_updated_at before update on public.partners
  for each row execute function public.set_updated_at();

-- Clicks on referral links, per partner and day: a number, nothing about who.
create table public.referral_clicks (
  partner_id uuid not null references public.partners (id) on delete cascade,
  day date not null,
  clicks integer not null default 0 check (clicks >= 0),
  primary key (partner_id, day)
);

comment on table public.referral_clicks is
  'Visits that arrived through a partner''s referral link, counted per day. No personal data.';

-- The active partner a code names, if any (codes are matched case-insensitively).
create or replace function private.partner_for_code(code text) returns uuid
language sql
stable
security definer
set search_path = ''
as $$
  select p.id from public.partners p
  where p.referral_code = upper(btrim(code)) and p.status = 'active'
$$;

-- A referral code from the company name, unique: ACMEHEALTH, else ACMEHEA42…
create or replace function private.new_referral_code(company text) returns text
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  stem text := left(regexp_replace(upper(coalesce(company, '')), '[^A-Z0-9]', '', 'g'), 10);
  candidate text;
begin
  if char_length(stem) < 4 then
    stem := 'PARTNER';
  end if;
  candidate := stem;
  while exists (select from public.partners p where p.referral_code = candidate) loop
    candidate := left(stem, 8) || lpad((floor(random() * 10000))::int::text, 4, '0');
  end loop;
  return candidate;
end
$$;

-- Whoever holds the partner role has a partner record (the demo partner, a
-- partner an admin creates, an approved applicant). Deferred, like workspace
-- provisioning, because app_metadata is written after the user row.
create or replace function public.provision_partner() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  company text;
begin
  if exists (
    select from auth.users u
    where u.id = new.id and u.deleted_at is null and u.raw_app_meta_data ->> 'role' = 'partner'
  ) and not exists (select from public.partners p where p.user_id = new.id) then
    select coalesce(
      nullif(btrim(u.raw_user_meta_data ->> 'company'), ''),
      nullif(btrim(u.raw_user_meta_data ->> 'full_name'), ''),
      split_part(u.email, '@', 1),
      'Partner'
    ) into company
    from auth.users u where u.id = new.id;
    insert into public.partners (user_id, company, referral_code)
    values (new.id, left(company, 120), private.new_referral_code(company));
  end if;
  return null;
end
$$;

create constraint trigger on_auth_user_created_provision_partner
  after insert on auth.users
  deferrable initially deferred
  for each row execute function public.provision_partner();

create constraint trigger on_auth_user_role_changed_provision_partner
  after update of raw_app_meta_data on auth.users
  deferrable initially deferred
  for each row
  when (old.raw_app_meta_data ->> 'role' is distinct from new.raw_app_meta_data ->> 'role')
  execute function public.provision_partner();

-- Partners who existed before this migration.
insert into public.partners (user_id, company, referral_code)
select u.id, 'Partner', private.new_referral_code(coalesce(u.raw_user_meta_data ->> 'company', 'Partner'))
from auth.users u
where u.raw_app_meta_data ->> 'role' = 'partner' and u.deleted_at is null
  and not exists (select from public.partners p where p.user_id = u.id);
update public.partners p
set company = left(coalesce(nullif(btrim(u.raw_user_meta_data ->> 'company'), ''), p.company), 120)
from auth.users u
where u.id = p.user_id;

-- Sign-ups that came through a referral link carry the code in their metadata
-- (the app sends it); the profile keeps the partner it names, set once.
alter table public.profiles
  add column referred_by uuid references public.partners (id) on delete set null;

create index profiles_referred_by_idx on public.profiles (referred_by);

create or replace function public.attribute_sign_up_referral() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  partner uuid;
begin
  if jsonb_typeof(new.raw_user_meta_data -> 'referral_code') = 'string' then
    partner := private.partner_for_code(new.raw_user_meta_data ->> 'referral_code');
    if partner is not null then
      insert into public.profiles as p (id, referred_by) values (new.id, partner)
      on conflict (id) do update set referred_by = excluded.referred_by where p.referred_by is null;
    end if;
  end if;
  return null;
end
$$;

-- Named to run after on_auth_user_created_sync_profile (triggers fire in name
-- order); it also works before it.
create trigger on_auth_user_created_sync_referral
  after insert on auth.users
  for each row execute function public.attribute_sign_up_referral();

-- Counts a visit that came with ?ref=CODE. True when the code names an active
-- partner. A network counts at most 60 visits an hour (no address is stored).
create or replace function public.record_referral_click(code text) returns boolean
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  partner uuid;
  ip text := private.client_ip();
begin
  if code is null or char_length(code) > 24 then
    return false;
  end if;
  partner := private.partner_for_code(code);
  if partner is null then
    return false;
  end if;
  if ip is not null and not private.count_hit('click:ip:' || ip, 60) then
    return true;
  end if;
  insert into public.referral_clicks as r (partner_id, day, clicks)
  values (partner, (now() at time zone 'UTC')::date, 1)
  on conflict (partner_id, day) do update set clicks = r.clicks + 1;
  return true;
end
$$;

comment on function public.record_referral_click(text) is
  'Counts one visit through a partner''s referral link; true when the code is a partner''s.';

revoke execute on function public.provision_partner(), public.attribute_sign_up_referral()
  from public, anon, authenticated;
revoke execute on all functions in schema private from public, anon, authenticated;
grant execute on function public.record_referral_click(text) to anon, authenticated, service_role;

-- ---------------------------------------------------------------------------
-- Access
-- ---------------------------------------------------------------------------

alter table public.site_settings enable row level security;
alter table public.partners enable row level security;
alter table public.referral_clicks enable row level security;

revoke all on public.site_settings, public.partners, public.referral_clicks from anon, authenticated;
grant all on public.site_settings, public.partners, public.referral_clicks to service_role;

grant select, update (submissions_per_ip_per_hour, submissions_per_email_per_hour)
  on public.site_settings to authenticated;

create policy "Admins read the site settings"
  on public.site_settings for select to authenticated
  using ((select public.is_admin()));

create policy "Admins change the submission limits"
  on public.site_settings for update to authenticated
  using ((select public.is_admin()))
  with check ((select public.is_admin()));

-- Partners read their own record; admins read and manage all of them.
grant select, insert, update, delete on public.partners to authenticated;

create policy "Partners read their own record, admins all"
  on public.partners for select to authenticated
  using (user_id = (select auth.uid()) or (select public.is_admin()));

create policy "Admins add partners"
  on public.partners for insert to authenticated
  with check ((select public.is_admin()));

create policy "Admins change partners"
  on public.partners for update to authenticated
  using ((select public.is_admin()))
  with check ((select public.is_admin()));

create policy "Admins remove partners"
  on public.partners for delete to authenticated
  using ((select public.is_admin()));

grant select on public.referral_clicks to authenticated;

create policy "Partners read their own clicks, admins all"
  on public.referral_clicks for select to authenticated
  using (
    (select public.is_admin())
    or exists (
      select from public.partners p
      where p.id = referral_clicks.partner_id and p.user_id = (select auth.uid())
    )
  );
