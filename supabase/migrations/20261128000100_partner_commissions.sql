-- Commissions, tiers and payouts (issue 18, decision 028).
--
-- * partner_tiers is the one source of the program's tiers: the commission
--   rules here read it, and `npm run gen:types` writes it into
--   src/config/partner-tiers.ts for the pages (/partner, the portal, admin).
-- * A commission is created, pending, when a lead a partner referred is
--   marked won with its deal value: the deal value times the partner's rate,
--   in integer cents of the lead's currency. The deal that reaches a tier's
--   threshold (won deals, or revenue, over the last twelve months) moves the
--   partner up first, so it is paid at the new rate. One live commission per
--   lead: a lead moved out of won declines its pending commission, and a
--   commission an admin approved or paid holds the lead at won.
-- * Admins approve a commission or decline it with a reason; approved
--   commissions are gathered per partner and currency into a payout, which an
--   admin marks paid with a reference and date (or cancels, freeing them).
--   The partner is emailed at each decision. Every change is in the audit log.
-- Partners read their own commissions and payouts; customers read none.

-- ---------------------------------------------------------------------------
-- Tiers
-- ---------------------------------------------------------------------------

create table public.partner_tiers (
  tier text primary key check (tier ~ '^[a-z]{1,20}$'),
  rank smallint not null unique check (rank >= 0),
  name text not null check (char_length(name) between 1 and 40),
  rate numeric(4, 3) not null check (rate between 0 and 0.5),
  -- A partner reaches the tier with this many won deals in the last twelve
  -- months, or (when set) this much won deal value.
  min_won_deals integer not null check (min_won_deals >= 0),
  min_revenue_cents bigint check (min_revenue_cents > 0),
  summary text not null check (char_length(summary) between 1 and 200)
);

comment on table public.partner_tiers is
  'The partner program''s tiers: rate, threshold over the last twelve months, benefits. '
  'Written by migrations; src/config/partner-tiers.ts is generated from it.';

insert into public.partner_tiers (tier, rank, name, rate, min_won_deals, min_revenue_cents, summary) values
  ('registered', 0, 'Registered', 0.150, 0, null,
    'Your referral link, the partner portal and a co-branded demo page.'),
  ('silver', 1, 'Silver', 0.200, 5, null,
    'Deal registration, a partner manager and joint customer webinars.'),
  ('gold', 2, 'Gold', 0.250, 15, null,
    'Co-marketing budget, early access to features and priority support.');

alter table public.partners
  add constraint partners_tier_fkey foreign key (tier) references public.partner_tiers (tier);

alter table public.partner_tiers enable row level security;
revoke all on public.partner_tiers from anon, authenticated;
grant select on public.partner_tiers to anon, authenticated;
grant all on public.partner_tiers to service_role;

create policy "Everyone reads the tiers"
  on public.partner_tiers for select to anon, authenticated
  using (true);

create policy "Second factor required once enrolled"
  on public.partner_tiers as restrictive for all to authenticated
  using ((select public.mfa_satisfied()))
  with check ((select public.mfa_satisfied()));

-- The partner record of the caller, if they are one.
create or replace function public.current_partner_id() returns uuid
language sql
stable
security definer
set search_path = ''
as $$
  select p.id from public.partners p where p.user_id = auth.uid()
$$;

comment on function public.current_partner_id() is
  'The caller''s partner record, or null when they are not a partner.';

revoke execute on function public.current_partner_id() from public;
grant execute on function public.current_partner_id() to authenticated, service_role;

-- ---------------------------------------------------------------------------
-- Payouts and commissions
-- ---------------------------------------------------------------------------

create table public.payouts (
  id uuid primary key default gen_random_uuid(),
  partner_id uuid not null references public.partners (id) on delete restrict,
  currency text not null check (currency ~ '^[A-Z]{3}$'),
  amount_cents bigint not null check (amount_cents > 0),
  commission_count integer not null check (commission_count > 0),
  status text not null default 'pending' check (status in ('pending', 'paid')),
  reference text check (char_length(reference) between 1 and 120),
  paid_on date,
  paid_at timestamptz,
  created_by uuid,
  paid_by uuid,
  version integer not null default 1 check (version >= 1),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  check (status <> 'paid' or (reference is not null and paid_on is not null and paid_at is not null))
);

comment on table public.payouts is
  'Approved commissions gathered for one partner and currency; paid with a reference and date.';

create index payouts_partner_created_idx on public.payouts (partner_id, created_at desc, id desc);
create index payouts_created_idx on public.payouts (created_at desc, id desc);

create table public.commissions (
  id uuid primary key default gen_random_uuid(),
  partner_id uuid not null references public.partners (id) on delete restrict,
  lead_id uuid not null references public.leads (id) on delete restrict,
  -- What the partner's ledger shows of the deal, as it was when won.
  company text not null check (char_length(company) between 1 and 120),
  deal_value_cents bigint not null check (deal_value_cents > 0),
  currency text not null check (currency ~ '^[A-Z]{3}$'),
  tier text not null references public.partner_tiers (tier),
  rate numeric(4, 3) not null check (rate between 0 and 0.5),
  amount_cents bigint not null check (amount_cents >= 0),
  status text not null default 'pending' check (status in ('pending', 'approved', 'paid', 'declined')),
  won_at timestamptz not null default now(),
  -- The month the deal was won in (UTC): the statement it belongs to.
  period date not null default date_trunc('month', now() at time zone 'UTC')::date
    check (period = date_trunc('month', period)::date),
  approved_at timestamptz,
  approved_by uuid,
  declined_at timestamptz,
  declined_by uuid,
  decline_reason text check (char_length(decline_reason) between 1 and 500),
  payout_id uuid references public.payouts (id) on delete set null,
  paid_at timestamptz,
  version integer not null default 1 check (version >= 1),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  check (status <> 'declined' or (decline_reason is not null and declined_at is not null)),
  check (status <> 'paid' or (payout_id is not null and paid_at is not null)),
  check (payout_id is null or status in ('approved', 'paid'))
);

comment on table public.commissions is
  'A partner''s commission on a won lead they referred: pending, approved, paid, or declined with a reason.';
comment on column public.commissions.declined_by is
  'The admin who declined it; null when it was declined because its lead left won.';

-- None twice for one lead: at most one commission that is not declined.
create unique index commissions_one_live_per_lead_idx
  on public.commissions (lead_id) where status <> 'declined';
create index commissions_lead_idx on public.commissions (lead_id);
create index commissions_partner_created_idx on public.commissions (partner_id, created_at desc, id desc);
create index commissions_status_created_idx on public.commissions (status, created_at desc, id desc);
create index commissions_created_idx on public.commissions (created_at desc, id desc);
create index commissions_payout_idx on public.commissions (payout_id);
create index commissions_standing_idx on public.commissions (partner_id, won_at) where status <> 'declined';

create trigger payouts_set_updated_at before update on public.payouts
  for each row execute function public.set_updated_at();
create trigger commissions_set_updated_at before update on public.commissions
  for each row execute function public.set_updated_at();

create or replace function private.bump_row_version() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  new.version := old.version + 1;
  return new;
end
$$;

create trigger payouts_bump_version before update on public.payouts
  for each row execute function private.bump_row_version();
create trigger commissions_bump_version before update on public.commissions
  for each row execute function private.bump_row_version();

-- ---------------------------------------------------------------------------
-- Standing: the deals of the last twelve months and the tier they earn
-- ---------------------------------------------------------------------------

-- Won deals and their value over the last twelve months (commissions not
-- declined), plus `extra_deals` and `extra_revenue` not yet stored.
create or replace function private.partner_standing(
  partner uuid,
  extra_deals integer default 0,
  extra_revenue bigint default 0
) returns table (won_deals integer, revenue_cents bigint, earned_tier text)
language sql
stable
security definer
set search_path = ''
as $$
  with standing as (
    select count(*)::integer + extra_deals as won_deals,
      coalesce(sum(c.deal_value_cents), 0)::bigint + extra_revenue as revenue_cents
    from public.commissions c
    where c.partner_id = partner and c.status <> 'declined' and c.won_at > now() - interval '12 months'
  )
  select s.won_deals, s.revenue_cents, (
    select t.tier from public.partner_tiers t
    where s.won_deals >= t.min_won_deals
      or (t.min_revenue_cents is not null and s.revenue_cents >= t.min_revenue_cents)
    order by t.rank desc
    limit 1
  )
  from standing s
$$;

-- Moves the partner up to the tier their standing earns (never down: an admin
-- lowers a tier), raising the rate to the tier's unless theirs is higher.
create or replace function private.promote_partner(
  partner uuid,
  extra_deals integer,
  extra_revenue bigint
) returns public.partners
language plpgsql
security definer
set search_path = ''
as $$
declare
  current public.partners;
  earned public.partner_tiers;
begin
  select p.* into current from public.partners p where p.id = partner for update;
  select t.* into earned from public.partner_tiers t
  where t.tier = (select s.earned_tier from private.partner_standing(partner, extra_deals, extra_revenue) s);
  if earned.rank > (select t.rank from public.partner_tiers t where t.tier = current.tier) then
    update public.partners p
    set tier = earned.tier, commission_rate = greatest(p.commission_rate, earned.rate)
    where p.id = partner
    returning p.* into current;
  end if;
  return current;
end
$$;

-- ---------------------------------------------------------------------------
-- Commissions follow their lead
-- ---------------------------------------------------------------------------

create or replace function private.sync_lead_commission() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  live public.commissions;
  partner public.partners;
  became_won boolean := new.status = 'won' and new.partner_id is not null and (
    tg_op = 'INSERT' or old.status <> 'won' or old.partner_id is distinct from new.partner_id
  );
  left_won boolean := tg_op = 'UPDATE' and old.status = 'won' and (
    new.status <> 'won' or old.partner_id is distinct from new.partner_id
  );
begin
  select c.* into live from public.commissions c
  where c.lead_id = new.id and c.status <> 'declined'
  for update;

  if live.id is not null and left_won then
    if live.status <> 'pending' then
      raise exception using errcode = 'PT409',
        message = format(
          'This lead''s commission is already %s, so the lead stays won. Decline the commission first%s.',
          live.status,
          case when live.status = 'paid' then ' (a paid commission cannot be declined: record a correction instead)' else '' end
        ),
        detail = 'status';
    end if;
    update public.commissions c set
      status = 'declined',
      declined_at = now(),
      declined_by = null,
      decline_reason = case when new.status <> 'won'
        then format('The deal was moved from won to %s.', new.status)
        else 'The lead was attributed to another partner.' end
    where c.id = live.id;
    live := null;
  elsif live.id is not null and new.status = 'won'
    and (new.deal_value_cents is distinct from old.deal_value_cents or new.currency is distinct from old.currency) then
    if live.status <> 'pending' then
      raise exception using errcode = 'PT409',
        message = format(
          'This lead''s commission is already %s at the old deal value. Decline it before changing the value.',
          live.status
        ),
        detail = 'deal_value_cents';
    end if;
    update public.commissions c set
      deal_value_cents = new.deal_value_cents,
      currency = new.currency,
      amount_cents = round(new.deal_value_cents * c.rate)::bigint
    where c.id = live.id;
  end if;

  if became_won and live.id is null then
    if new.deal_value_cents is null then
      perform private.reject('deal_value_cents', 'Please enter the deal''s value to mark the lead won.');
    end if;
    partner := private.promote_partner(new.partner_id, 1, new.deal_value_cents);
    insert into public.commissions (
      partner_id, lead_id, company, deal_value_cents, currency, tier, rate, amount_cents
    ) values (
      partner.id, new.id, new.company, new.deal_value_cents, new.currency, partner.tier,
      partner.commission_rate, round(new.deal_value_cents * partner.commission_rate)::bigint
    );
  end if;
  return null;
end
$$;

create trigger leads_sync_commission
  after insert or update of status, partner_id, deal_value_cents, currency on public.leads
  for each row execute function private.sync_lead_commission();

-- A lead with a commission that is not declined stays (its partner's ledger
-- refers to it); a declined one's history goes with the lead.
create or replace function private.refuse_lead_with_commission() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if exists (select from public.commissions c where c.lead_id = old.id and c.status <> 'declined') then
    raise exception using errcode = 'PT409',
      message = 'This lead has a partner commission. Decline the commission before deleting the lead.',
      detail = 'lead_id';
  end if;
  delete from public.commissions c where c.lead_id = old.id;
  return old;
end
$$;

create trigger leads_refuse_delete_with_commission before delete on public.leads
  for each row execute function private.refuse_lead_with_commission();

-- ---------------------------------------------------------------------------
-- Admin decisions
-- ---------------------------------------------------------------------------

-- Formats cents of a currency for emails: 1234567, USD → 'USD 12,345.67'.
create or replace function private.format_money(cents bigint, currency text) returns text
language sql
immutable
set search_path = ''
as $$
  select currency || ' ' || to_char(cents / 100.0, 'FM999,999,999,990.00')
$$;

-- The commission, locked, when it exists and the admin saw its version.
create or replace function private.commission_to_decide(id uuid, expected_version integer)
returns public.commissions
language plpgsql
security definer
set search_path = ''
as $$
declare
  commission public.commissions;
begin
  select c.* into commission from public.commissions c where c.id = commission_to_decide.id for update;
  if commission.id is null then
    raise exception using errcode = 'PT404',
      message = 'This commission does not exist (any more).', detail = 'commission_id';
  end if;
  if expected_version is not null and expected_version <> commission.version then
    raise exception using errcode = 'PT409',
      message = 'Someone else changed this commission since you opened it. Reload to see their change.',
      detail = 'version';
  end if;
  return commission;
end
$$;

-- The partner's address, for their emails (null when their account is gone).
create or replace function private.partner_email(partner uuid) returns text
language sql
stable
security definer
set search_path = ''
as $$
  select u.email from public.partners p join auth.users u on u.id = p.user_id
  where p.id = partner and u.deleted_at is null
$$;

-- Emails a partner through the outbox (nothing when their account is gone),
-- with a link to a page of their portal (`portal_path`, from the site's root).
create or replace function private.email_partner(
  partner uuid,
  subject text,
  template text,
  heading text,
  paragraphs text[],
  action_label text,
  portal_path text,
  metadata jsonb
) returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  recipient text := private.partner_email(partner);
begin
  if recipient is not null then
    perform private.queue_email(
      recipient, subject, template, heading, paragraphs, action_label,
      private.site_url() || portal_path,
      'You are receiving this email as a Cervana partner.',
      '[]'::jsonb,
      metadata
    );
  end if;
end
$$;

create or replace function public.approve_commission(
  p_commission_id uuid,
  p_expected_version integer default null
) returns public.commissions
language plpgsql
security definer
set search_path = ''
as $$
declare
  commission public.commissions;
begin
  perform private.require_admin('Only Cervana admins can approve commissions.');
  commission := private.commission_to_decide(p_commission_id, p_expected_version);
  if commission.status <> 'pending' then
    raise exception using errcode = 'PT409',
      message = format('This commission is already %s.', commission.status), detail = 'status';
  end if;
  update public.commissions c
  set status = 'approved', approved_at = now(), approved_by = auth.uid()
  where c.id = commission.id
  returning c.* into commission;

  perform private.email_partner(
    commission.partner_id,
    format('Commission approved: %s', private.format_money(commission.amount_cents, commission.currency)),
    'partner_commission_approved',
    'Your commission is approved',
    array[
      format('Your commission of %s on the %s deal is approved. It will be paid with your next payout.',
        private.format_money(commission.amount_cents, commission.currency), commission.company),
      format('That is %s%% of a first-year value of %s.', to_char(commission.rate * 100, 'FM990.0'),
        private.format_money(commission.deal_value_cents, commission.currency))
    ],
    'Open your partner portal',
    '/partner-portal/commissions',
    jsonb_build_object('commission_id', commission.id, 'partner_id', commission.partner_id)
  );
  return commission;
end
$$;

comment on function public.approve_commission(uuid, integer) is
  'Admins approve a pending commission (409 otherwise, or when p_expected_version is stale); the partner is emailed.';

create or replace function public.decline_commission(
  p_commission_id uuid,
  p_reason text,
  p_expected_version integer default null
) returns public.commissions
language plpgsql
security definer
set search_path = ''
as $$
declare
  commission public.commissions;
  reason text;
begin
  perform private.require_admin('Only Cervana admins can decline commissions.');
  commission := private.commission_to_decide(p_commission_id, p_expected_version);
  reason := private.clean_text('reason', p_reason, 'the reason, which the partner will see', 500, true, true);
  if commission.status = 'declined' then
    raise exception using errcode = 'PT409', message = 'This commission is already declined.', detail = 'status';
  end if;
  if commission.status = 'paid' then
    raise exception using errcode = 'PT409',
      message = 'This commission is paid, so it cannot be declined.', detail = 'status';
  end if;
  if commission.payout_id is not null then
    raise exception using errcode = 'PT409',
      message = 'This commission is in a payout waiting to be paid. Cancel that payout first.', detail = 'payout_id';
  end if;
  update public.commissions c
  set status = 'declined', declined_at = now(), declined_by = auth.uid(), decline_reason = reason
  where c.id = commission.id
  returning c.* into commission;

  perform private.email_partner(
    commission.partner_id,
    format('Commission declined: %s', commission.company),
    'partner_commission_declined',
    'A commission was declined',
    array[
      format('Your commission of %s on the %s deal was declined.',
        private.format_money(commission.amount_cents, commission.currency), commission.company),
      'The reason: ' || reason,
      'If you think this is a mistake, reply to this email or talk to your partner manager.'
    ],
    'Open your partner portal',
    '/partner-portal/commissions',
    jsonb_build_object('commission_id', commission.id, 'partner_id', commission.partner_id)
  );
  return commission;
end
$$;

comment on function public.decline_commission(uuid, text, integer) is
  'Admins decline a pending or approved (not yet in a payout) commission with a reason the partner is emailed.';

-- What each partner is owed: approved commissions not in a payout, per currency.
create or replace function public.admin_payable_balances()
returns table (
  partner_id uuid,
  company text,
  referral_code text,
  email text,
  currency text,
  commission_count integer,
  amount_cents bigint,
  oldest_approved_at timestamptz
)
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  perform private.require_admin('Only Cervana admins can see what partners are owed.');
  return query
  select p.id, p.company, p.referral_code, private.partner_email(p.id), c.currency,
    count(*)::integer, sum(c.amount_cents)::bigint, min(c.approved_at)
  from public.commissions c
  join public.partners p on p.id = c.partner_id
  where c.status = 'approved' and c.payout_id is null
  group by p.id, c.currency
  order by min(c.approved_at), p.company;
end
$$;

create or replace function public.create_payout(p_partner_id uuid, p_currency text)
returns public.payouts
language plpgsql
security definer
set search_path = ''
as $$
declare
  payout public.payouts;
  total bigint;
  how_many integer;
begin
  perform private.require_admin('Only Cervana admins can create payouts.');
  if p_partner_id is null or not exists (select from public.partners p where p.id = p_partner_id) then
    raise exception using errcode = 'PT404', message = 'This partner does not exist (any more).', detail = 'partner_id';
  end if;
  perform private.clean_choice('currency', p_currency, 'a currency', array['USD', 'EUR', 'GBP', 'CAD', 'AUD']);
  -- One payout at a time per partner: a second admin waits here, then finds nothing left to gather.
  perform from public.partners p where p.id = p_partner_id for update;
  select count(*), coalesce(sum(c.amount_cents), 0) into how_many, total
  from public.commissions c
  where c.partner_id = p_partner_id and c.currency = p_currency
    and c.status = 'approved' and c.payout_id is null and c.amount_cents > 0;
  if how_many = 0 then
    raise exception using errcode = 'PT409',
      message = format('This partner has no approved commissions in %s waiting for a payout.', p_currency),
      detail = 'commissions';
  end if;
  insert into public.payouts (partner_id, currency, amount_cents, commission_count, created_by)
  values (p_partner_id, p_currency, total, how_many, auth.uid())
  returning * into payout;
  update public.commissions c set payout_id = payout.id
  where c.partner_id = p_partner_id and c.currency = p_currency
    and c.status = 'approved' and c.payout_id is null and c.amount_cents > 0;
  return payout;
end
$$;

comment on function public.create_payout(uuid, text) is
  'Admins gather a partner''s approved commissions in one currency into a pending payout.';

create or replace function private.payout_to_change(id uuid, expected_version integer)
returns public.payouts
language plpgsql
security definer
set search_path = ''
as $$
declare
  payout public.payouts;
begin
  select p.* into payout from public.payouts p where p.id = payout_to_change.id for update;
  if payout.id is null then
    raise exception using errcode = 'PT404', message = 'This payout does not exist (any more).', detail = 'payout_id';
  end if;
  if expected_version is not null and expected_version <> payout.version then
    raise exception using errcode = 'PT409',
      message = 'Someone else changed this payout since you opened it. Reload to see their change.',
      detail = 'version';
  end if;
  if payout.status = 'paid' then
    raise exception using errcode = 'PT409',
      message = format('This payout was already marked paid on %s (reference %s).', payout.paid_on, payout.reference),
      detail = 'status';
  end if;
  return payout;
end
$$;

create or replace function public.mark_payout_paid(
  p_payout_id uuid,
  p_reference text,
  p_paid_on date,
  p_expected_version integer default null
) returns public.payouts
language plpgsql
security definer
set search_path = ''
as $$
declare
  payout public.payouts;
  clean_reference text;
begin
  perform private.require_admin('Only Cervana admins can pay partners.');
  payout := private.payout_to_change(p_payout_id, p_expected_version);
  clean_reference := private.clean_text('reference', p_reference, 'the payment''s reference', 120);
  if p_paid_on is null then
    perform private.reject('paid_on', 'Please enter the date the payment was made.');
  end if;
  if p_paid_on > (now() at time zone 'UTC')::date + 1 then
    perform private.reject('paid_on', 'The payment date cannot be in the future.');
  end if;
  if p_paid_on < (payout.created_at at time zone 'UTC')::date - 1 then
    perform private.reject('paid_on', 'The payment date cannot be before the payout was created.');
  end if;
  update public.payouts p
  set status = 'paid', reference = clean_reference, paid_on = p_paid_on,
    paid_at = now(), paid_by = auth.uid()
  where p.id = payout.id
  returning p.* into payout;
  update public.commissions c set status = 'paid', paid_at = now()
  where c.payout_id = payout.id;

  perform private.email_partner(
    payout.partner_id,
    format('Payout sent: %s', private.format_money(payout.amount_cents, payout.currency)),
    'partner_payout_paid',
    'Your payout is on its way',
    array[
      format('We paid you %s for %s commission%s on %s.',
        private.format_money(payout.amount_cents, payout.currency), payout.commission_count,
        case when payout.commission_count = 1 then '' else 's' end, to_char(payout.paid_on, 'FMMonth FMDD, YYYY')),
      'Payment reference: ' || payout.reference || '.',
      'Your statement for the month lists each commission; download it from the portal.'
    ],
    'Open your payouts',
    '/partner-portal/commissions',
    jsonb_build_object('payout_id', payout.id, 'partner_id', payout.partner_id)
  );
  return payout;
end
$$;

comment on function public.mark_payout_paid(uuid, text, date, integer) is
  'Admins mark a pending payout paid with a reference and the payment date; its commissions become paid.';

create or replace function public.cancel_payout(p_payout_id uuid, p_expected_version integer default null)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  payout public.payouts;
begin
  perform private.require_admin('Only Cervana admins can cancel payouts.');
  payout := private.payout_to_change(p_payout_id, p_expected_version);
  update public.commissions c set payout_id = null where c.payout_id = payout.id;
  delete from public.payouts p where p.id = payout.id;
end
$$;

comment on function public.cancel_payout(uuid, integer) is
  'Admins cancel a payout not yet paid: its commissions stay approved, ready for another.';

-- ---------------------------------------------------------------------------
-- Access
-- ---------------------------------------------------------------------------

alter table public.commissions enable row level security;
alter table public.payouts enable row level security;
revoke all on public.commissions, public.payouts from anon, authenticated;
grant all on public.commissions, public.payouts to service_role;
grant select on public.commissions, public.payouts to authenticated;

create policy "Partners read their commissions, admins all"
  on public.commissions for select to authenticated
  using (partner_id = (select public.current_partner_id()) or (select public.is_admin()));

create policy "Partners read their payouts, admins all"
  on public.payouts for select to authenticated
  using (partner_id = (select public.current_partner_id()) or (select public.is_admin()));

create policy "Second factor required once enrolled"
  on public.commissions as restrictive for all to authenticated
  using ((select public.mfa_satisfied()))
  with check ((select public.mfa_satisfied()));

create policy "Second factor required once enrolled"
  on public.payouts as restrictive for all to authenticated
  using ((select public.mfa_satisfied()))
  with check ((select public.mfa_satisfied()));

create trigger z_commissions_audit after insert or update or delete on public.commissions
  for each row execute function private.audit_admin_change();
create trigger z_payouts_audit after insert or update or delete on public.payouts
  for each row execute function private.audit_admin_change();

revoke execute on function
  private.bump_row_version(),
  private.partner_standing(uuid, integer, bigint),
  private.promote_partner(uuid, integer, bigint),
  private.sync_lead_commission(),
  private.refuse_lead_with_commission(),
  private.format_money(bigint, text),
  private.commission_to_decide(uuid, integer),
  private.partner_email(uuid),
  private.email_partner(uuid, text, text, text, text[], text, text, jsonb),
  private.payout_to_change(uuid, integer)
from public, anon, authenticated;

revoke execute on function
  public.approve_commission(uuid, integer),
  public.decline_commission(uuid, text, integer),
  public.admin_payable_balances(),
  public.create_payout(uuid, text),
  public.mark_payout_paid(uuid, text, date, integer),
  public.cancel_payout(uuid, integer)
from public, anon, service_role;
grant execute on function
  public.approve_commission(uuid, integer),
  public.decline_commission(uuid, text, integer),
  public.admin_payable_balances(),
  public.create_payout(uuid, text),
  public.mark_payout_paid(uuid, text, date, integer),
  public.cancel_payout(uuid, integer)
to authenticated;
