-- One mailbox, however its address is spelled.
--
-- The hourly limit per email address (private.enforce_submission_limits) and
-- the cap on upcoming demos per address on public mail services
-- (20261124000900) compared addresses as typed, so `ann+1@gmail.com`,
-- `ann+2@gmail.com` and `a.nn@gmail.com` were three people, each with their
-- own allowance, while all of them reach one inbox. They now count per
-- mailbox: the `+tag` of the local part is dropped for every domain (sub-
-- addressing is near universal; for the rare domain where `+` is literal the
-- only effect is that two addresses share one allowance), and for Gmail the
-- dots are dropped too and googlemail.com is gmail.com.

create or replace function private.mailbox_of(email text) returns text
language sql
immutable
set search_path = ''
as $$
  select case
    when domain in ('gmail.com', 'googlemail.com')
      then replace(local_part, '.', '') || '@gmail.com'
    else local_part || '@' || domain
  end
  from (
    select split_part(split_part(lower(btrim(email)), '@', 1), '+', 1) as local_part,
           split_part(lower(btrim(email)), '@', 2) as domain
  ) as parts
$$;

revoke all on table private.shared_mail_domains from public, anon, authenticated;
revoke all on function private.mailbox_of(text) from public, anon, authenticated;

create or replace function private.enforce_submission_limits(form text, email text) returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  settings public.site_settings;
begin
  select * into settings from public.site_settings where id;
  if not private.count_hit(
    form || ':ip:' || private.client_network(), settings.submissions_per_ip_per_hour
  ) then
    raise exception using
      errcode = 'PT429',
      message = 'Too many submissions have come from your network in the last hour. Please try '
        || 'again later, or email ' || settings.sales_inbox || '.',
      detail = 'rate_limited';
  end if;
  if not private.count_hit(form || ':email:' || private.mailbox_of(email), settings.submissions_per_email_per_hour) then
    raise exception using
      errcode = 'PT429',
      message = 'We have already received several submissions from this email address in the '
        || 'last hour. Please try again later, or email ' || settings.sales_inbox || '.',
      detail = 'rate_limited';
  end if;
  if not private.count_hit(form || ':all', settings.submissions_per_form_per_hour) then
    raise exception using
      errcode = 'PT429',
      message = 'We are receiving an unusual number of submissions right now. Please try again '
        || 'in an hour, or email ' || settings.sales_inbox || '.',
      detail = 'rate_limited';
  end if;
end
$$;

create or replace function private.enforce_booking_caps(email text) returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  settings public.site_settings;
  address text := private.mailbox_of(email);
  mail_domain text := split_part(lower(email), '@', 2);
  shared boolean;
  network text := private.network_hash(private.client_network());
begin
  select * into settings from public.site_settings where id;
  shared := exists (select 1 from private.shared_mail_domains d where d.domain = mail_domain);
  if shared then
    perform pg_advisory_xact_lock(hashtextextended('demo-address:' || address, 0));
  else
    perform pg_advisory_xact_lock(hashtextextended('demo-domain:' || mail_domain, 0));
  end if;
  perform pg_advisory_xact_lock(hashtextextended('demo-network:' || network, 0));
  if (
    select count(*) from public.demo_bookings b
    where b.status = 'confirmed' and b.ends_at > now()
      and case when shared then private.mailbox_of(b.email) = address
               else split_part(lower(b.email), '@', 2) = mail_domain end
  ) >= settings.demo_bookings_per_domain then
    raise exception using
      errcode = 'PT429',
      message = case when shared
        then 'You already have as many upcoming demos as we can hold for one person. '
        else 'Your company already has as many upcoming demos as we can hold for one team. '
      end
        || 'Please move one of them with the link in its email, or email '
        || settings.sales_inbox || '.',
      detail = 'rate_limited';
  end if;
  if (
    select count(*) from public.demo_bookings b
    join private.demo_booking_networks n on n.booking_id = b.id
    where b.status = 'confirmed' and b.ends_at > now() and n.network_hash = network
  ) >= settings.demo_bookings_per_network then
    raise exception using
      errcode = 'PT429',
      message = 'Your network already has as many upcoming demos as we can hold. Please move one '
        || 'of them with the link in its email, or email ' || settings.sales_inbox || '.',
      detail = 'rate_limited';
  end if;
end
$$;
