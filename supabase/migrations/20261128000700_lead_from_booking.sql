-- A demo booking becomes a lead in the pipeline (issue 18). A visitor who
-- books a demo through a partner's link is that partner's referral, but a
-- booking is not a lead: only leads are worked to won, and a won lead is what
-- earns a commission. After the demo, an admin opens the booking and adds its
-- lead, carrying the booking's partner, with the call volume they learned.

alter table public.leads drop constraint leads_source_check;
alter table public.leads add constraint leads_source_check
  check (source in ('talk_to_sales', 'admin', 'partner_registration', 'demo_booking'));

create or replace function public.admin_lead_from_booking(
  p_booking_id uuid,
  p_monthly_call_volume text
) returns public.leads
language plpgsql
security definer
set search_path = ''
as $$
declare
  booking public.demo_bookings;
  existing public.leads;
  lead public.leads;
begin
  perform private.require_admin('Only Cervana admins can add leads.');
  select b.* into booking from public.demo_bookings b where b.id = p_booking_id for update;
  if booking.id is null then
    raise exception using errcode = 'PT404',
      message = 'This booking does not exist (any more).', detail = 'booking_id';
  end if;
  select l.* into existing from public.leads l where l.email = booking.email
  order by l.created_at desc limit 1;
  if existing.id is not null then
    raise exception using errcode = 'PT409',
      message = format('This booking already has a lead: %s (%s).', existing.company, existing.status),
      detail = 'lead';
  end if;
  perform private.clean_choice(
    'monthly_call_volume', p_monthly_call_volume, 'their monthly call volume',
    array['under-500', '500-2000', '2000-10000', '10000+']
  );
  insert into public.leads (
    full_name, email, company, team_size, monthly_call_volume, message, consent_at, source,
    partner_id, user_id, owner_id
  ) values (
    booking.full_name, booking.email, booking.company, booking.team_size, p_monthly_call_volume,
    booking.notes, booking.created_at, 'demo_booking', booking.partner_id, booking.user_id, auth.uid()
  )
  returning * into lead;
  return lead;
end
$$;

comment on function public.admin_lead_from_booking(uuid, text) is
  'Admins add the lead of a demo booking (its partner kept, the admin as owner); 409 when its address has a lead.';

revoke execute on function public.admin_lead_from_booking(uuid, text) from public, anon, service_role;
grant execute on function public.admin_lead_from_booking(uuid, text) to authenticated;
