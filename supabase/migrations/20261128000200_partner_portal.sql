-- The partner portal (issue 18, decision 028): deal registration, what a
-- partner may see of the leads and bookings they referred, the figures of the
-- portal's home, and the co-branded demo link.
--
-- * register_deal: a partner (Silver and up, as /partner promises) registers
--   a prospect. It is refused, with a sentence saying why, when the prospect
--   is already a lead (same address, same company domain, or same company
--   name) or is registered by a partner already. Two registrations racing
--   for one company are settled by unique indexes. Admins accept one (it
--   becomes a lead attributed to the partner) or reject it with a reason.
-- * partner_referrals: the caller's attributed leads and bookings with their
--   pipeline status: the company and status only, and the contact only for a
--   lead the partner registered themselves (what the prospect agreed to share).
-- * partner_summary: clicks, leads, bookings and won deals over a period,
--   commission totals per state and currency, the tier and the way to the next.
-- * referral_partner: the company behind an active code, for /demo?ref=CODE.

-- ---------------------------------------------------------------------------
-- Matching a prospect
-- ---------------------------------------------------------------------------

-- A company name reduced to what identifies it: 'Acme, Inc.' and 'ACME inc'
-- → 'acme'. Legal forms, spaces and punctuation are dropped; letters of any
-- script stay ('Ünal Lojistik' → 'ünallojistik', '株式会社ミライ' kept whole).
create or replace function private.company_key(company text) returns text
language sql
immutable
parallel safe
set search_path = ''
as $$
  select nullif(regexp_replace(
    regexp_replace(
      lower(coalesce(company, '')),
      '\m(inc|incorporated|llc|ltd|limited|corp|corporation|co|company|gmbh|ag|sa|sas|bv|plc|pty|oy|ab)\M',
      '', 'g'
    ),
    '[[:space:][:punct:]]', '', 'g'
  ), '')
$$;

-- The domain of an address that identifies a company: null for the public
-- mail services (gmail.com and the like), whose addresses are unrelated people.
create or replace function private.company_domain(email text) returns text
language sql
stable
security definer
set search_path = ''
as $$
  select d from (select split_part(lower(btrim(email)), '@', 2) as d) x
  where x.d <> '' and not exists (select from private.shared_mail_domains s where s.domain = x.d)
$$;

create index leads_company_key_idx on public.leads (private.company_key(company));
create index leads_email_domain_idx on public.leads (split_part(email, '@', 2));

alter table public.leads drop constraint leads_source_check;
alter table public.leads add constraint leads_source_check
  check (source in ('talk_to_sales', 'admin', 'partner_registration'));

-- ---------------------------------------------------------------------------
-- Deal registrations
-- ---------------------------------------------------------------------------

create table public.deal_registrations (
  id uuid primary key default gen_random_uuid(),
  partner_id uuid not null references public.partners (id) on delete cascade,
  company text not null check (char_length(company) between 1 and 120),
  company_key text not null,
  contact_name text not null check (char_length(contact_name) between 1 and 120),
  contact_email text not null check (char_length(contact_email) between 3 and 254),
  email_domain text,
  team_size text not null check (team_size in ('1-5', '6-20', '21-50', '51-200', '200+')),
  monthly_call_volume text not null
    check (monthly_call_volume in ('under-500', '500-2000', '2000-10000', '10000+')),
  notes text check (char_length(notes) <= 2000),
  status text not null default 'pending' check (status in ('pending', 'accepted', 'rejected')),
  decision_reason text check (char_length(decision_reason) between 1 and 500),
  decided_at timestamptz,
  decided_by uuid,
  lead_id uuid references public.leads (id) on delete set null,
  version integer not null default 1 check (version >= 1),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  check (status <> 'rejected' or decision_reason is not null)
);

comment on table public.deal_registrations is
  'Prospects partners registered; an accepted one became a lead attributed to the partner.';

-- One live registration per company and per company domain, whoever made it.
create unique index deal_registrations_live_company_idx
  on public.deal_registrations (company_key) where status in ('pending', 'accepted');
create unique index deal_registrations_live_domain_idx
  on public.deal_registrations (email_domain) where status in ('pending', 'accepted') and email_domain is not null;
create index deal_registrations_partner_created_idx
  on public.deal_registrations (partner_id, created_at desc, id desc);
create index deal_registrations_status_created_idx
  on public.deal_registrations (status, created_at desc, id desc);
create index deal_registrations_lead_idx on public.deal_registrations (lead_id);

create trigger deal_registrations_set_updated_at before update on public.deal_registrations
  for each row execute function public.set_updated_at();
create trigger deal_registrations_bump_version before update on public.deal_registrations
  for each row execute function private.bump_row_version();

-- Why a prospect cannot be registered (or accepted) now, as a sentence; null
-- when it can. `partner` is the registering partner, `ignoring` a registration
-- to leave out (the one being accepted).
create or replace function private.registration_conflict(
  p_partner uuid,
  p_key text,
  p_domain text,
  p_email text,
  p_ignoring uuid
) returns text
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  mine public.deal_registrations;
begin
  if exists (
    select from public.leads l
    where l.email = p_email
      or (p_domain is not null and split_part(l.email, '@', 2) = p_domain)
      or private.company_key(l.company) = p_key
  ) then
    return 'This prospect is already in Cervana''s sales pipeline, so it cannot be registered. '
      || 'If you are working with them, tell your partner manager and we will sort out the attribution.';
  end if;
  select r.* into mine from public.deal_registrations r
  where r.status in ('pending', 'accepted')
    and (r.id is distinct from p_ignoring)
    and (r.company_key = p_key or (p_domain is not null and r.email_domain = p_domain))
  order by r.created_at
  limit 1;
  if mine.id is null then
    return null;
  end if;
  if mine.partner_id = p_partner then
    return format('You registered %s on %s; that registration is %s.', mine.company,
      to_char(mine.created_at at time zone 'UTC', 'FMMonth FMDD, YYYY'), mine.status);
  end if;
  return 'Another partner has already registered this prospect, so it cannot be registered twice.';
end
$$;

-- The caller's active partner record, or a refusal saying why there is none.
create or replace function private.acting_partner() returns public.partners
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  partner public.partners;
begin
  select p.* into partner from public.partners p where p.user_id = auth.uid();
  if partner.id is null or not public.is_partner() then
    raise exception using errcode = '42501', message = 'Only Cervana partners can do this.';
  end if;
  if partner.status <> 'active' then
    raise exception using errcode = '42501',
      message = 'Your partner account is suspended. Please contact your partner manager.';
  end if;
  return partner;
end
$$;

create or replace function public.register_deal(
  company text,
  contact_name text,
  contact_email text,
  team_size text,
  monthly_call_volume text,
  notes text default null
) returns public.deal_registrations
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  partner public.partners;
  registration public.deal_registrations;
  conflict text;
begin
  partner := private.acting_partner();
  if (select t.rank from public.partner_tiers t where t.tier = partner.tier)
    < (select t.rank from public.partner_tiers t where t.tier = 'silver') then
    raise exception using errcode = '42501',
      message = format('Deal registration opens at the %s tier. Win %s deals in twelve months to reach it.',
        (select t.name from public.partner_tiers t where t.tier = 'silver'),
        (select t.min_won_deals from public.partner_tiers t where t.tier = 'silver')),
      detail = 'tier';
  end if;
  registration.company := private.clean_text('company', company, 'the prospect''s company', 120);
  registration.company_key := private.company_key(registration.company);
  if registration.company_key is null then
    perform private.reject('company', 'Please enter the company''s name with letters or digits.');
  end if;
  registration.contact_name := private.clean_text('contact_name', contact_name, 'your contact''s name', 120);
  registration.contact_email := private.clean_email('contact_email', contact_email);
  registration.email_domain := private.company_domain(registration.contact_email);
  registration.team_size := private.clean_choice(
    'team_size', team_size, 'the size of their team', array['1-5', '6-20', '21-50', '51-200', '200+']
  );
  registration.monthly_call_volume := private.clean_choice(
    'monthly_call_volume', monthly_call_volume, 'their monthly call volume',
    array['under-500', '500-2000', '2000-10000', '10000+']
  );
  registration.notes := private.clean_text('notes', notes, 'your notes', 2000, false, true);

  conflict := private.registration_conflict(
    partner.id, registration.company_key, registration.email_domain, registration.contact_email, null
  );
  if conflict is not null then
    raise exception using errcode = 'PT409', message = conflict, detail = 'company';
  end if;
  if not private.count_hit('deal-registration:' || partner.id::text, 20) then
    raise exception using errcode = 'PT429',
      message = 'You have registered 20 deals in the last hour. Please wait a little before the next.',
      detail = 'rate_limited';
  end if;

  begin
    insert into public.deal_registrations (
      partner_id, company, company_key, contact_name, contact_email, email_domain,
      team_size, monthly_call_volume, notes
    ) values (
      partner.id, registration.company, registration.company_key, registration.contact_name,
      registration.contact_email, registration.email_domain, registration.team_size,
      registration.monthly_call_volume, registration.notes
    )
    returning * into registration;
  exception when unique_violation then
    raise exception using errcode = 'PT409',
      message = 'Another partner has already registered this prospect, so it cannot be registered twice.',
      detail = 'company';
  end;

  perform private.queue_email(
    private.sales_inbox(),
    format('Deal registration: %s (from %s)', registration.company, partner.company),
    'deal_registration_notification',
    'A partner registered a deal',
    array[
      format('%s (%s) registered %s: %s <%s>, team of %s, %s calls a month.', partner.company,
        partner.referral_code, registration.company, registration.contact_name,
        registration.contact_email, registration.team_size, registration.monthly_call_volume),
      'Notes: ' || coalesce(registration.notes, '(none)')
    ],
    'Review deal registrations',
    private.site_url() || '/admin/partners?tab=registrations',
    'Sent to the sales inbox for every deal a partner registers.',
    '[]'::jsonb,
    jsonb_build_object('deal_registration_id', registration.id)
  );
  return registration;
end
$$;

comment on function public.register_deal is
  'Partners (Silver and up) register a prospect; 409 with the reason when it is already a lead or registered.';

create or replace function private.registration_to_decide(id uuid) returns public.deal_registrations
language plpgsql
security definer
set search_path = ''
as $$
declare
  registration public.deal_registrations;
begin
  select r.* into registration from public.deal_registrations r
  where r.id = registration_to_decide.id for update;
  if registration.id is null then
    raise exception using errcode = 'PT404',
      message = 'This registration does not exist (any more).', detail = 'registration_id';
  end if;
  if registration.status <> 'pending' then
    raise exception using errcode = 'PT409',
      message = format('This registration was already %s.', registration.status), detail = 'status';
  end if;
  return registration;
end
$$;

create or replace function public.accept_deal_registration(p_registration_id uuid)
returns public.deal_registrations
language plpgsql
security definer
set search_path = ''
as $$
declare
  registration public.deal_registrations;
  lead public.leads;
  conflict text;
begin
  perform private.require_admin('Only Cervana admins can accept deal registrations.');
  registration := private.registration_to_decide(p_registration_id);
  conflict := private.registration_conflict(
    registration.partner_id, registration.company_key, registration.email_domain,
    registration.contact_email, registration.id
  );
  if conflict is not null then
    raise exception using errcode = 'PT409',
      message = 'This prospect became a lead after the partner registered it, so accepting would make a '
        || 'second lead. Reject the registration with that reason instead.',
      detail = 'lead';
  end if;
  insert into public.leads (
    full_name, email, company, team_size, monthly_call_volume, message, consent_at, source, partner_id
  ) values (
    registration.contact_name, registration.contact_email, registration.company, registration.team_size,
    registration.monthly_call_volume, registration.notes, registration.created_at,
    'partner_registration', registration.partner_id
  )
  returning * into lead;
  update public.deal_registrations r
  set status = 'accepted', decided_at = now(), decided_by = auth.uid(), lead_id = lead.id
  where r.id = registration.id
  returning r.* into registration;

  perform private.email_partner(
    registration.partner_id,
    format('Deal registration accepted: %s', registration.company),
    'deal_registration_accepted',
    'Your deal registration is accepted',
    array[
      format('%s is now in our pipeline as your referral. When it is won, your commission is created.',
        registration.company),
      'Follow its status in your partner portal.'
    ],
    'Open your referrals',
    '/partner-portal/referrals',
    jsonb_build_object('deal_registration_id', registration.id, 'partner_id', registration.partner_id)
  );
  return registration;
end
$$;

comment on function public.accept_deal_registration(uuid) is
  'Admins accept a pending registration: it becomes a lead attributed to the partner, who is emailed.';

create or replace function public.reject_deal_registration(p_registration_id uuid, p_reason text)
returns public.deal_registrations
language plpgsql
security definer
set search_path = ''
as $$
declare
  registration public.deal_registrations;
  reason text;
begin
  perform private.require_admin('Only Cervana admins can reject deal registrations.');
  registration := private.registration_to_decide(p_registration_id);
  reason := private.clean_text('reason', p_reason, 'the reason, which the partner will see', 500, true, true);
  update public.deal_registrations r
  set status = 'rejected', decided_at = now(), decided_by = auth.uid(), decision_reason = reason
  where r.id = registration.id
  returning r.* into registration;

  perform private.email_partner(
    registration.partner_id,
    format('Deal registration not accepted: %s', registration.company),
    'deal_registration_rejected',
    'Your deal registration was not accepted',
    array[
      format('We could not accept your registration of %s.', registration.company),
      'The reason: ' || reason
    ],
    'Open your registrations',
    '/partner-portal/registrations',
    jsonb_build_object('deal_registration_id', registration.id, 'partner_id', registration.partner_id)
  );
  return registration;
end
$$;

comment on function public.reject_deal_registration(uuid, text) is
  'Admins reject a pending registration with a reason the partner is emailed.';

-- ---------------------------------------------------------------------------
-- What a partner sees
-- ---------------------------------------------------------------------------

-- The caller's referred leads and bookings, newest first, a page at a time
-- (before the given time and id). A lead shows its company and pipeline
-- status; its contact only when the partner registered it. A booking shows
-- its company, time and whether it happened.
create or replace function public.partner_referrals(
  p_before timestamptz default null,
  p_before_id uuid default null,
  p_limit integer default 50
) returns table (
  kind text,
  id uuid,
  company text,
  status text,
  created_at timestamptz,
  starts_at timestamptz,
  contact_name text,
  contact_email text,
  commission_status text
)
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  partner uuid := public.current_partner_id();
begin
  if partner is null then
    raise exception using errcode = '42501', message = 'Only Cervana partners have referrals.';
  end if;
  perform private.check_page_args(p_limit, p_before, p_before_id);
  return query
  select * from (
    select 'lead'::text, l.id, l.company, l.status, l.created_at, null::timestamptz,
      case when r.id is not null then l.full_name end,
      case when r.id is not null then l.email end,
      (select c.status from public.commissions c where c.lead_id = l.id
       order by (c.status = 'declined'), c.created_at desc limit 1)
    from public.leads l
    left join public.deal_registrations r on r.lead_id = l.id and r.partner_id = partner
    where l.partner_id = partner
    union all
    select 'booking'::text, b.id, b.company,
      case when b.status = 'cancelled' then 'cancelled'
        when b.ends_at <= now() then 'held' else 'upcoming' end,
      b.created_at, b.starts_at, null::text, null::text, null::text
    from public.demo_bookings b
    where b.partner_id = partner
  ) x (kind, id, company, status, created_at, starts_at, contact_name, contact_email, commission_status)
  where p_before is null or (x.created_at, x.id) < (p_before, p_before_id)
  order by x.created_at desc, x.id desc
  limit p_limit;
end
$$;

comment on function public.partner_referrals(timestamptz, uuid, integer) is
  'The calling partner''s referred leads and bookings, newest first: company and status; contact only when they registered it.';

create index demo_bookings_partner_created_idx on public.demo_bookings (partner_id, created_at desc);
create index leads_partner_created_idx on public.leads (partner_id, created_at desc);

-- The portal's home: activity between p_from and p_to, commission totals,
-- and the standing that decides the tier.
create or replace function public.partner_summary(p_from timestamptz, p_to timestamptz)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  partner public.partners;
  standing record;
  next_tier public.partner_tiers;
  current_tier public.partner_tiers;
begin
  select p.* into partner from public.partners p where p.user_id = auth.uid();
  if partner.id is null then
    raise exception using errcode = '42501', message = 'Only Cervana partners have a partner summary.';
  end if;
  if p_from is null or p_to is null or p_from >= p_to then
    perform private.reject('period', 'Please choose a period whose start comes before its end.');
  end if;
  if p_to - p_from > interval '3 years' then
    perform private.reject('period', 'Please choose a period of three years or less.');
  end if;
  select * into standing from private.partner_standing(partner.id);
  select t.* into current_tier from public.partner_tiers t where t.tier = partner.tier;
  select t.* into next_tier from public.partner_tiers t where t.rank > current_tier.rank order by t.rank limit 1;

  return jsonb_build_object(
    'partner', jsonb_build_object(
      'id', partner.id,
      'company', partner.company,
      'referral_code', partner.referral_code,
      'status', partner.status,
      'tier', partner.tier,
      'commission_rate', partner.commission_rate,
      'since', partner.created_at
    ),
    'period', jsonb_build_object(
      'from', p_from,
      'to', p_to,
      'clicks', (select coalesce(sum(r.clicks), 0) from public.referral_clicks r
        where r.partner_id = partner.id
          and r.day >= (p_from at time zone 'UTC')::date and r.day < (p_to at time zone 'UTC')::date + 1),
      'leads', (select count(*) from public.leads l
        where l.partner_id = partner.id and l.created_at >= p_from and l.created_at < p_to),
      'bookings', (select count(*) from public.demo_bookings b
        where b.partner_id = partner.id and b.created_at >= p_from and b.created_at < p_to),
      'won', (select count(*) from public.commissions c
        where c.partner_id = partner.id and c.status <> 'declined' and c.won_at >= p_from and c.won_at < p_to)
    ),
    'all_time', jsonb_build_object(
      'clicks', (select coalesce(sum(r.clicks), 0) from public.referral_clicks r where r.partner_id = partner.id),
      'leads', (select count(*) from public.leads l where l.partner_id = partner.id),
      'bookings', (select count(*) from public.demo_bookings b where b.partner_id = partner.id)
    ),
    'commissions', coalesce((
      select jsonb_agg(jsonb_build_object(
        'currency', t.currency,
        'pending_cents', t.pending_cents,
        'approved_cents', t.approved_cents,
        'paid_cents', t.paid_cents,
        'declined_count', t.declined_count
      ) order by t.currency)
      from (
        select c.currency,
          coalesce(sum(c.amount_cents) filter (where c.status = 'pending'), 0) as pending_cents,
          coalesce(sum(c.amount_cents) filter (where c.status = 'approved'), 0) as approved_cents,
          coalesce(sum(c.amount_cents) filter (where c.status = 'paid'), 0) as paid_cents,
          count(*) filter (where c.status = 'declined') as declined_count
        from public.commissions c where c.partner_id = partner.id
        group by c.currency
      ) t
    ), '[]'::jsonb),
    'standing', jsonb_build_object(
      'won_deals', standing.won_deals,
      'revenue_cents', standing.revenue_cents,
      'tier', partner.tier,
      'next_tier', case when next_tier.tier is not null then jsonb_build_object(
        'tier', next_tier.tier,
        'name', next_tier.name,
        'rate', next_tier.rate,
        'min_won_deals', next_tier.min_won_deals,
        'min_revenue_cents', next_tier.min_revenue_cents,
        'deals_to_go', greatest(next_tier.min_won_deals - standing.won_deals, 0)
      ) end
    )
  );
end
$$;

comment on function public.partner_summary(timestamptz, timestamptz) is
  'The calling partner''s portal home: activity in [p_from, p_to), commission totals and tier standing.';

-- The company behind an active referral code, for the co-branded demo page;
-- null for an unknown or suspended code. Only the company name leaves.
create or replace function public.referral_partner(code text) returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  select jsonb_build_object('company', p.company, 'referral_code', p.referral_code)
  from public.partners p
  where char_length(code) <= 24 and p.id = private.partner_for_code(code)
$$;

comment on function public.referral_partner(text) is
  'The company name of the active partner a referral code names, or null.';

-- ---------------------------------------------------------------------------
-- Access
-- ---------------------------------------------------------------------------

alter table public.deal_registrations enable row level security;
revoke all on public.deal_registrations from anon, authenticated;
grant all on public.deal_registrations to service_role;
grant select on public.deal_registrations to authenticated;

create policy "Partners read their registrations, admins all"
  on public.deal_registrations for select to authenticated
  using (partner_id = (select public.current_partner_id()) or (select public.is_admin()));

create policy "Second factor required once enrolled"
  on public.deal_registrations as restrictive for all to authenticated
  using ((select public.mfa_satisfied()))
  with check ((select public.mfa_satisfied()));

create trigger z_deal_registrations_audit after insert or update or delete on public.deal_registrations
  for each row execute function private.audit_admin_change();

-- private.company_key stays executable by every role: the expression index
-- leads_company_key_idx calls it as whoever writes a lead (the service role,
-- an admin), and it is a pure function of its argument.
revoke execute on function
  private.company_domain(text),
  private.registration_conflict(uuid, text, text, text, uuid),
  private.acting_partner(),
  private.registration_to_decide(uuid)
from public, anon, authenticated;

revoke execute on function
  public.register_deal(text, text, text, text, text, text),
  public.partner_referrals(timestamptz, uuid, integer),
  public.partner_summary(timestamptz, timestamptz),
  public.accept_deal_registration(uuid),
  public.reject_deal_registration(uuid, text)
from public, anon;
grant execute on function
  public.register_deal(text, text, text, text, text, text),
  public.partner_referrals(timestamptz, uuid, integer),
  public.partner_summary(timestamptz, timestamptz),
  public.accept_deal_registration(uuid),
  public.reject_deal_registration(uuid, text)
to authenticated;

revoke execute on function public.referral_partner(text) from public;
grant execute on function public.referral_partner(text) to anon, authenticated, service_role;
