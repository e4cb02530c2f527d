-- Commissions, payouts and deal registrations in the admin area (issue 18, decision 028).
--
-- * admin_commissions, admin_payouts and admin_deal_registrations list them a
--   page at a time by key (created_at, id), newest first, filtered by status
--   (and partner), with the partner's company and code, like admin_partners.
--   Each answer carries the count of rows waiting for a decision, for the tab.
-- Reads only: the decisions are the functions of 20261128000100 and 000200.

-- Commissions, newest first, one status or all, one partner or all.
create or replace function public.admin_commissions(
  p_status text default null,
  p_partner_id uuid default null,
  p_before_created_at timestamptz default null,
  p_before_id uuid default null,
  p_limit integer default 50
) returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  cursor_at timestamptz := coalesce(p_before_created_at, 'infinity'::timestamptz);
  cursor_id uuid := coalesce(p_before_id, 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid);
  page public.commissions[];
  page_rows jsonb;
  next_cursor jsonb;
begin
  perform private.require_admin('Only Cervana admins can see partner commissions.');
  if p_status is not null then
    perform private.clean_choice('status', p_status, 'a status',
      array['pending', 'approved', 'paid', 'declined']);
  end if;
  perform private.check_page_args(p_limit, p_before_created_at, p_before_id);

  page := array(
    select c from public.commissions c
    where (c.created_at, c.id) < (cursor_at, cursor_id)
      and (p_status is null or c.status = p_status)
      and (p_partner_id is null or c.partner_id = p_partner_id)
    order by c.created_at desc, c.id desc
    limit p_limit + 1
  );

  if cardinality(page) > p_limit then
    next_cursor := jsonb_build_object('created_at', page[p_limit].created_at, 'id', page[p_limit].id);
    page := page[1:p_limit];
  end if;

  select coalesce(jsonb_agg(
    jsonb_build_object(
      'id', c.id,
      'partner_id', c.partner_id,
      'partner_company', p.company,
      'referral_code', p.referral_code,
      'lead_id', c.lead_id,
      'company', c.company,
      'deal_value_cents', c.deal_value_cents,
      'currency', c.currency,
      'tier', c.tier,
      'rate', c.rate,
      'amount_cents', c.amount_cents,
      'status', c.status,
      'won_at', c.won_at,
      'approved_at', c.approved_at,
      'declined_at', c.declined_at,
      'decline_reason', c.decline_reason,
      -- Declined by the rules (its lead left won), not by an admin: the partner was not emailed.
      'declined_automatically', c.status = 'declined' and c.declined_by is null,
      'payout_id', c.payout_id,
      'paid_at', c.paid_at,
      'version', c.version,
      'created_at', c.created_at
    ) order by c.created_at desc, c.id desc
  ), '[]'::jsonb) into page_rows
  from unnest(page) c
  join public.partners p on p.id = c.partner_id;

  return jsonb_build_object(
    'rows', page_rows,
    'next', next_cursor,
    'pending', (select count(*) from public.commissions c where c.status = 'pending')
  );
end
$$;

comment on function public.admin_commissions is
  'Admins: commissions newest first, filtered by status and partner, a keyset page at a time, '
  'with the partner''s company and the count of pending ones.';

-- Payouts, newest first, one status or all.
create or replace function public.admin_payouts(
  p_status text default null,
  p_before_created_at timestamptz default null,
  p_before_id uuid default null,
  p_limit integer default 50
) returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  cursor_at timestamptz := coalesce(p_before_created_at, 'infinity'::timestamptz);
  cursor_id uuid := coalesce(p_before_id, 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid);
  page public.payouts[];
  page_rows jsonb;
  next_cursor jsonb;
begin
  perform private.require_admin('Only Cervana admins can see partner payouts.');
  if p_status is not null then
    perform private.clean_choice('status', p_status, 'a status', array['pending', 'paid']);
  end if;
  perform private.check_page_args(p_limit, p_before_created_at, p_before_id);

  page := array(
    select o from public.payouts o
    where (o.created_at, o.id) < (cursor_at, cursor_id)
      and (p_status is null or o.status = p_status)
    order by o.created_at desc, o.id desc
    limit p_limit + 1
  );

  if cardinality(page) > p_limit then
    next_cursor := jsonb_build_object('created_at', page[p_limit].created_at, 'id', page[p_limit].id);
    page := page[1:p_limit];
  end if;

  select coalesce(jsonb_agg(
    jsonb_build_object(
      'id', o.id,
      'partner_id', o.partner_id,
      'partner_company', p.company,
      'referral_code', p.referral_code,
      'email', private.partner_email(o.partner_id),
      'currency', o.currency,
      'amount_cents', o.amount_cents,
      'commission_count', o.commission_count,
      'status', o.status,
      'reference', o.reference,
      'paid_on', o.paid_on,
      'paid_at', o.paid_at,
      'version', o.version,
      'created_at', o.created_at
    ) order by o.created_at desc, o.id desc
  ), '[]'::jsonb) into page_rows
  from unnest(page) o
  join public.partners p on p.id = o.partner_id;

  return jsonb_build_object('rows', page_rows, 'next', next_cursor);
end
$$;

comment on function public.admin_payouts is
  'Admins: payouts newest first, pending or paid, a keyset page at a time, with the partner''s company.';

-- Deal registrations, newest first, one status or all.
create or replace function public.admin_deal_registrations(
  p_status text default null,
  p_before_created_at timestamptz default null,
  p_before_id uuid default null,
  p_limit integer default 50
) returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  cursor_at timestamptz := coalesce(p_before_created_at, 'infinity'::timestamptz);
  cursor_id uuid := coalesce(p_before_id, 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid);
  page public.deal_registrations[];
  page_rows jsonb;
  next_cursor jsonb;
begin
  perform private.require_admin('Only Cervana admins can see deal registrations.');
  if p_status is not null then
    perform private.clean_choice('status', p_status, 'a status', array['pending', 'accepted', 'rejected']);
  end if;
  perform private.check_page_args(p_limit, p_before_created_at, p_before_id);

  page := array(
    select r from public.deal_registrations r
    where (r.created_at, r.id) < (cursor_at, cursor_id)
      and (p_status is null or r.status = p_status)
    order by r.created_at desc, r.id desc
    limit p_limit + 1
  );

  if cardinality(page) > p_limit then
    next_cursor := jsonb_build_object('created_at', page[p_limit].created_at, 'id', page[p_limit].id);
    page := page[1:p_limit];
  end if;

  select coalesce(jsonb_agg(
    jsonb_build_object(
      'id', r.id,
      'partner_id', r.partner_id,
      'partner_company', p.company,
      'referral_code', p.referral_code,
      'company', r.company,
      'contact_name', r.contact_name,
      'contact_email', r.contact_email,
      'team_size', r.team_size,
      'monthly_call_volume', r.monthly_call_volume,
      'notes', r.notes,
      'status', r.status,
      'decision_reason', r.decision_reason,
      'decided_at', r.decided_at,
      'lead_id', r.lead_id,
      'version', r.version,
      'created_at', r.created_at
    ) order by r.created_at desc, r.id desc
  ), '[]'::jsonb) into page_rows
  from unnest(page) r
  join public.partners p on p.id = r.partner_id;

  return jsonb_build_object(
    'rows', page_rows,
    'next', next_cursor,
    'pending', (select count(*) from public.deal_registrations r where r.status = 'pending')
  );
end
$$;

comment on function public.admin_deal_registrations is
  'Admins: deal registrations newest first, filtered by status, a keyset page at a time, '
  'with the partner''s company and the count of pending ones.';

revoke execute on function
  public.admin_commissions(text, uuid, timestamptz, uuid, integer),
  public.admin_payouts(text, timestamptz, uuid, integer),
  public.admin_deal_registrations(text, timestamptz, uuid, integer)
from public, anon, service_role;
grant execute on function
  public.admin_commissions(text, uuid, timestamptz, uuid, integer),
  public.admin_payouts(text, timestamptz, uuid, integer),
  public.admin_deal_registrations(text, timestamptz, uuid, integer)
to authenticated;
