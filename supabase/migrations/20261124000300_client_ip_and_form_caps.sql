-- Limits on the public forms that no request can lift (security issue 22,
-- finding 3).
--
-- * The caller's network comes from `request.client_ip`, which our API server
--   sets on its own, apart from `request.headers` (whose size a client
--   controls); on a hosted Supabase project, where PostgREST sets only
--   `request.headers`, from their x-forwarded-for as before.
-- * A caller whose address is unknown shares one bucket ('unknown') with every
--   other such caller: a missing address never means "no limit".
-- * IPv6 callers are counted per /64 (what one subscriber is given), IPv4 per
--   address; an IPv4 address written as IPv6 (::ffff:a.b.c.d) is the IPv4 one.
-- * Each form also has a global hourly cap (all callers together), and the
--   demo scheduler caps how many future demos one email domain or one network
--   may hold. The caps are in site_settings beside the other limits.

alter table public.site_settings
  add column submissions_per_form_per_hour integer not null default 300
    check (submissions_per_form_per_hour between 1 and 1000000),
  add column demo_bookings_per_domain integer not null default 3
    check (demo_bookings_per_domain between 1 and 10000),
  add column demo_bookings_per_network integer not null default 3
    check (demo_bookings_per_network between 1 and 10000);

comment on column public.site_settings.submissions_per_form_per_hour is
  'How many submissions each public form takes in an hour from everyone together.';
comment on column public.site_settings.demo_bookings_per_domain is
  'How many future demos the addresses of one email domain may hold together.';
comment on column public.site_settings.demo_bookings_per_network is
  'How many future demos may be booked from one network (IPv4 address or IPv6 /64).';

grant update (submissions_per_form_per_hour, demo_bookings_per_domain, demo_bookings_per_network)
  on public.site_settings to authenticated;

-- The caller's address: `request.client_ip` (set by our API server apart from
-- the headers), else the first x-forwarded-for entry of `request.headers` (as
-- a hosted Supabase project's gateway sets it); null when neither is known.
create or replace function private.client_ip() returns text
language sql
stable
set search_path = ''
as $$
  select coalesce(
    nullif(btrim(current_setting('request.client_ip', true)), ''),
    nullif(
      btrim(split_part(
        nullif(current_setting('request.headers', true), '')::json ->> 'x-forwarded-for', ',', 1
      )),
      ''
    )
  )
$$;

-- The network an address belongs to, as limits count it: an IPv4 address, an
-- IPv6 /64, 'unknown' (one shared bucket) when there is no address, and the
-- text itself (bounded) when it is not an address at all.
create or replace function private.network_of(address text) returns text
language plpgsql
immutable
set search_path = ''
as $$
declare
  parsed inet;
begin
  if address is null or btrim(address) = '' then
    return 'unknown';
  end if;
  begin
    parsed := host(btrim(address)::inet)::inet;
  exception when others then
    return 'other:' || left(btrim(address), 100);
  end;
  if family(parsed) = 4 then
    return host(parsed);
  end if;
  if parsed << '::ffff:0.0.0.0/96'::inet then
    return host('0.0.0.0'::inet + (parsed - '::ffff:0.0.0.0'::inet));
  end if;
  return host(network(set_masklen(parsed, 64))) || '/64';
end
$$;

-- The caller's network (see network_of); never null.
create or replace function private.client_network() returns text
language sql
stable
set search_path = ''
as $$
  select private.network_of(private.client_ip())
$$;

-- Refuses a form once its sender's network or address has sent too many this
-- hour, or once everyone together has (site_settings). Runs in the
-- submission's transaction: a refused or failed submission counts for
-- nothing, a stored one counts once. Callers without a known address share
-- one network.
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
  if not private.count_hit(form || ':email:' || lower(email), settings.submissions_per_email_per_hour) then
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

-- Counts a visit that came with ?ref=CODE. True when the code names an active
-- partner. A network counts at most 60 visits an hour (no address is stored);
-- callers without a known address share one network.
create or replace function public.record_referral_click(code text) returns boolean
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  partner uuid;
begin
  if code is null or char_length(code) > 24 then
    return false;
  end if;
  partner := private.partner_for_code(code);
  if partner is null then
    return false;
  end if;
  if not private.count_hit('click:ip:' || private.client_network(), 60) then
    return true;
  end if;
  insert into public.referral_clicks as r (partner_id, day, clicks)
  values (partner, (now() at time zone 'UTC')::date, 1)
  on conflict (partner_id, day) do update set clicks = r.clicks + 1;
  return true;
end
$$;

-- ---------------------------------------------------------------------------
-- Future demos per email domain and per network
-- ---------------------------------------------------------------------------

-- The network each booking was made from, as the SHA-256 of its network_of()
-- (never the address), for the per-network cap. Private: no API role reads it.
create table private.demo_booking_networks (
  booking_id uuid primary key references public.demo_bookings (id) on delete cascade,
  network_hash text not null
);
create index demo_booking_networks_network_hash_idx
  on private.demo_booking_networks (network_hash);

create or replace function private.network_hash(network text) returns text
language sql
immutable
set search_path = ''
as $$
  select encode(sha256(convert_to('network:' || network, 'UTF8')), 'hex')
$$;

-- Refuses a booking when the address's domain or the caller's network already
-- holds as many confirmed future demos as site_settings allows. Bookings for
-- one domain or one network are serialised (advisory locks until commit), so
-- two at once cannot both pass on PostgreSQL.
create or replace function private.enforce_booking_caps(email text) returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  settings public.site_settings;
  domain text := split_part(lower(email), '@', 2);
  network text := private.network_hash(private.client_network());
begin
  select * into settings from public.site_settings where id;
  perform pg_advisory_xact_lock(hashtextextended('demo-domain:' || domain, 0));
  perform pg_advisory_xact_lock(hashtextextended('demo-network:' || network, 0));
  if (
    select count(*) from public.demo_bookings b
    where b.status = 'confirmed' and b.ends_at > now()
      and split_part(b.email, '@', 2) = domain
  ) >= settings.demo_bookings_per_domain then
    raise exception using
      errcode = 'PT429',
      message = 'Your company already has as many upcoming demos as we can hold for one team. '
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

-- book_demo as in 20261121000500, with the per-domain and per-network caps
-- after the hourly limits and the booking's network recorded.
create or replace function public.book_demo(
  starts_at timestamptz,
  full_name text,
  email text,
  company text,
  team_size text,
  time_zone text,
  notes text default null,
  referral_code text default null,
  fax text default null
) returns jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  token text := private.new_token();
  booking public.demo_bookings;
  clean_email text;
  slot_end timestamptz;
begin
  perform private.refuse_filled_honeypot(fax);
  clean_email := private.clean_email('email', email);
  booking.full_name := private.clean_text('full_name', full_name, 'your name', 120);
  booking.company := private.clean_text('company', company, 'your company', 120);
  perform private.clean_choice(
    'team_size', team_size, 'your team size', array['1-5', '6-20', '21-50', '51-200', '200+']
  );
  booking.notes := private.clean_text('notes', notes, 'your notes', 2000, false, true);
  perform private.clean_time_zone(time_zone);
  slot_end := private.check_slot(starts_at, null);
  perform private.enforce_submission_limits('demo', clean_email);
  perform private.enforce_booking_caps(clean_email);

  begin
    insert into public.demo_bookings (
      starts_at, ends_at, full_name, email, company, team_size, notes, time_zone,
      manage_token_hash, partner_id, user_id
    ) values (
      book_demo.starts_at, slot_end, booking.full_name, clean_email, booking.company,
      book_demo.team_size, booking.notes, book_demo.time_zone, private.token_hash(token),
      private.partner_for_code(referral_code), auth.uid()
    )
    returning * into booking;
  exception when exclusion_violation then
    perform private.refuse_taken_slot();
  end;
  insert into private.demo_booking_networks (booking_id, network_hash)
  values (booking.id, private.network_hash(private.client_network()));

  perform private.queue_booking_emails(booking, token, 'booked');
  return jsonb_build_object(
    'id', booking.id,
    'starts_at', booking.starts_at,
    'ends_at', booking.ends_at,
    'email', booking.email,
    'time_zone', booking.time_zone,
    'manage_token', token
  );
end
$$;

revoke all on private.demo_booking_networks from public, anon, authenticated;
revoke execute on all functions in schema private from public, anon, authenticated;
