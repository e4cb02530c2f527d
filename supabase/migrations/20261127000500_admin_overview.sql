-- The admin overview (issue 17): new leads, demo bookings, partner
-- applications and sign-ups over a period, and over the period of the same
-- length just before it. Admins only (with their second factor when they have
-- one) and the service role: anyone else gets 42501 and a sentence (anon
-- cannot execute the function at all).
--
-- Every count reads one index range over both periods at once, so the
-- overview stays fast however many rows the tables hold.

-- Bookings by when they were made (the existing index is by the demo's start).
create index demo_bookings_created_at_idx on public.demo_bookings (created_at);

-- Applications by when their address's owner confirmed them: that is when an
-- application reaches the team (20261124000400), and so when it is received.
create index partner_applications_confirmed_at_idx
  on public.partner_applications (confirmed_at) where confirmed_at is not null;

-- (leads_created_at_idx exists; sign-ups use auth.users' created_at index,
-- which the server's own auth schema has. Pending applications use
-- partner_applications_one_pending_idx, partial on status = 'pending'.)

create or replace function public.admin_overview(p_from timestamptz, p_to timestamptz)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  previous_from timestamptz;
  leads jsonb;
  bookings jsonb;
  applications jsonb;
  sign_ups jsonb;
begin
  -- The service role (the server's own scripts) reads these tables anyway.
  if not ((public.is_admin() and public.mfa_satisfied()) or auth.role() = 'service_role') then
    raise exception 'Only the Cervana team can see the admin overview.'
      using errcode = '42501';
  end if;

  if p_from is null or not isfinite(p_from) then
    perform private.reject('p_from', 'Choose when the period starts.');
  end if;
  if p_to is null or not isfinite(p_to) then
    perform private.reject('p_to', 'Choose when the period ends.');
  end if;
  if p_from >= p_to then
    perform private.reject('p_to', 'The period must end after it starts.');
  end if;
  -- An hour to spare, for a span that crosses a change of clocks.
  if p_to - p_from > interval '400 days 1 hour' then
    perform private.reject('p_to', 'Choose a period of at most 400 days.');
  end if;

  previous_from := p_from - (p_to - p_from);

  select jsonb_build_object(
    'current', count(*) filter (where l.created_at >= p_from),
    'previous', count(*) filter (where l.created_at < p_from)
  )
  into leads
  from public.leads l
  where l.created_at >= previous_from and l.created_at < p_to;

  -- Bookings made in the period, whatever became of them; of those, how many
  -- have been cancelled since.
  select jsonb_build_object(
    'current', count(*) filter (where b.created_at >= p_from),
    'previous', count(*) filter (where b.created_at < p_from),
    'current_cancelled', count(*) filter (where b.created_at >= p_from and b.status = 'cancelled'),
    'previous_cancelled', count(*) filter (where b.created_at < p_from and b.status = 'cancelled')
  )
  into bookings
  from public.demo_bookings b
  where b.created_at >= previous_from and b.created_at < p_to;

  -- Applications received (confirmed by their address's owner) in each
  -- period, and those waiting for review now, whenever they came.
  select jsonb_build_object(
    'current', count(*) filter (where a.confirmed_at >= p_from),
    'previous', count(*) filter (where a.confirmed_at < p_from),
    'pending', (select count(*) from public.partner_applications p where p.status = 'pending')
  )
  into applications
  from public.partner_applications a
  where a.confirmed_at >= previous_from and a.confirmed_at < p_to;

  -- People who signed up: not anonymous visitors, not deleted accounts.
  select jsonb_build_object(
    'current', count(*) filter (where u.created_at >= p_from),
    'previous', count(*) filter (where u.created_at < p_from)
  )
  into sign_ups
  from auth.users u
  where u.created_at >= previous_from and u.created_at < p_to
    and not u.is_anonymous
    and u.deleted_at is null;

  return jsonb_build_object(
    'from', p_from,
    'to', p_to,
    'previous_from', previous_from,
    'leads', leads,
    'bookings', bookings,
    'partner_applications', applications,
    'sign_ups', sign_ups
  );
end
$$;

comment on function public.admin_overview(timestamptz, timestamptz) is
  'Admins: new leads, demo bookings made (and cancelled since), partner applications received and '
  'pending now, and sign-ups in [p_from, p_to) and in the period of the same length before it.';

revoke execute on function public.admin_overview(timestamptz, timestamptz) from public, anon;
grant execute on function public.admin_overview(timestamptz, timestamptz) to authenticated, service_role;
