-- The partner portal's referrals page filters by kind (issue 18): leads,
-- demo bookings or both. The filter is applied in SQL, before the page is cut,
-- so every page holds 50 rows of the chosen kind and "Load more" continues it.
-- partner_referrals gains `p_kind` ('lead' | 'booking' | null for both); its
-- other parameters and its rows are unchanged, so existing calls still work.

drop function public.partner_referrals(timestamptz, uuid, integer);

create function public.partner_referrals(
  p_before timestamptz default null,
  p_before_id uuid default null,
  p_limit integer default 50,
  p_kind text default null
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
  if p_kind is not null and p_kind not in ('lead', 'booking') then
    perform private.reject('kind', 'Please choose leads, demo bookings or both.');
  end if;
  return query
  select * from (
    select 'lead'::text, l.id, l.company, l.status, l.created_at, null::timestamptz,
      case when r.id is not null then l.full_name end,
      case when r.id is not null then l.email end,
      (select c.status from public.commissions c where c.lead_id = l.id
       order by (c.status = 'declined'), c.created_at desc limit 1)
    from public.leads l
    left join public.deal_registrations r on r.lead_id = l.id and r.partner_id = partner
    where l.partner_id = partner and (p_kind is null or p_kind = 'lead')
    union all
    select 'booking'::text, b.id, b.company,
      case when b.status = 'cancelled' then 'cancelled'
        when b.ends_at <= now() then 'held' else 'upcoming' end,
      b.created_at, b.starts_at, null::text, null::text, null::text
    from public.demo_bookings b
    where b.partner_id = partner and (p_kind is null or p_kind = 'booking')
  ) x (kind, id, company, status, created_at, starts_at, contact_name, contact_email, commission_status)
  where p_before is null or (x.created_at, x.id) < (p_before, p_before_id)
  order by x.created_at desc, x.id desc
  limit p_limit;
end
$$;

comment on function public.partner_referrals(timestamptz, uuid, integer, text) is
  'The calling partner''s referred leads and bookings (or one kind), newest first: company and status; contact only when they registered it.';

revoke execute on function public.partner_referrals(timestamptz, uuid, integer, text) from public, anon;
grant execute on function public.partner_referrals(timestamptz, uuid, integer, text) to authenticated;
