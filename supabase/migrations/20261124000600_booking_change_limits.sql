-- One booking no longer becomes a mail bomb (security issue 24, finding 6).
--
-- Twenty reschedules in 226 ms used to send 21 emails with .ics invites to the
-- booked address and 20 notes to the sales inbox, and book_demo handed the
-- manage token back to whoever booked, for any address. Now:
--
-- * book_demo answers without the token: it travels only in the confirmation
--   email's manage link. Whoever reschedules or cancels has therefore opened
--   that address's mail, so calendar updates reach only an address that has
--   shown it receives mail (and its owner, not a stranger who typed it).
-- * Changes are limited per booking (a few reschedules a day and a few in
--   all; a cancellation is once by nature) and per network (reschedules and
--   cancellations together, an hour), with the limits in site_settings. A
--   refused change answers PT429 (HTTP 429, details 'rate_limited') with a
--   sentence, changes nothing and queues no email.
-- * The confirmation of a new booking goes to an address nobody has verified
--   yet, so, like the sales inquiry's (20261124000500), none of the emails to
--   the visitor carries anything they typed (name, company): the invite's
--   summary is ours and its attendee has no display name. The sales inbox,
--   which is ours, still gets everything.
--
-- Repeated bookings to one address were already bounded by 20261124000300:
-- per address and per network an hour, and at most a few upcoming demos per
-- email domain and per network.

alter table public.site_settings
  add column demo_reschedules_per_booking_per_day integer not null default 3
    check (demo_reschedules_per_booking_per_day between 1 and 1000),
  add column demo_reschedules_per_booking integer not null default 5
    check (demo_reschedules_per_booking between 1 and 10000),
  add column demo_changes_per_network_per_hour integer not null default 10
    check (demo_changes_per_network_per_hour between 1 and 100000);

comment on column public.site_settings.demo_reschedules_per_booking_per_day is
  'How many times a visitor may move one demo by its link in 24 hours.';
comment on column public.site_settings.demo_reschedules_per_booking is
  'How many times a visitor may move one demo by its link in all (then sales move it).';
comment on column public.site_settings.demo_changes_per_network_per_hour is
  'How many demo reschedules and cancellations one network (IPv4 address or IPv6 /64) may make in an hour.';

grant update (demo_reschedules_per_booking_per_day, demo_reschedules_per_booking,
  demo_changes_per_network_per_hour)
  on public.site_settings to authenticated;

-- The changes visitors made to each booking by its link, for the per-booking
-- limits. Private: no API role reads it; it goes with its booking.
create table private.demo_booking_changes (
  id bigint generated always as identity primary key,
  booking_id uuid not null references public.demo_bookings (id) on delete cascade,
  event text not null check (event in ('rescheduled', 'cancelled')),
  changed_at timestamptz not null default now()
);
create index demo_booking_changes_booking_idx
  on private.demo_booking_changes (booking_id, changed_at);

-- Refuses a change by the manage link once the booking or the caller's
-- network has made too many (site_settings), else records it. The caller
-- holds the booking's row lock (booking_for_token(token, true)), so changes to
-- one booking are counted one at a time; the network's hourly counter is one
-- row that concurrent changes update in turn. A refused change rolls back and
-- counts for nothing.
create or replace function private.enforce_booking_change_limits(
  booking public.demo_bookings,
  event text
) returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  settings public.site_settings;
begin
  select * into settings from public.site_settings where id;
  if event = 'rescheduled' then
    if (
      select count(*) from private.demo_booking_changes c
      where c.booking_id = booking.id and c.event = 'rescheduled'
    ) >= settings.demo_reschedules_per_booking then
      raise exception using
        errcode = 'PT429',
        message = 'This demo has been moved as many times as we can allow online. To change it '
          || 'again, please email ' || settings.sales_inbox || ', or cancel it and book a new time.',
        detail = 'rate_limited';
    end if;
    if (
      select count(*) from private.demo_booking_changes c
      where c.booking_id = booking.id and c.event = 'rescheduled'
        and c.changed_at > now() - interval '1 day'
    ) >= settings.demo_reschedules_per_booking_per_day then
      raise exception using
        errcode = 'PT429',
        message = 'This demo has already been moved ' || settings.demo_reschedules_per_booking_per_day
          || ' times in the last 24 hours. Please try again tomorrow, or email ' || settings.sales_inbox || '.',
        detail = 'rate_limited';
    end if;
  end if;
  if not private.count_hit(
    'demo-change:ip:' || private.client_network(), settings.demo_changes_per_network_per_hour
  ) then
    raise exception using
      errcode = 'PT429',
      message = 'Too many demo changes have come from your network in the last hour. Please try '
        || 'again later, or email ' || settings.sales_inbox || '.',
      detail = 'rate_limited';
  end if;
  insert into private.demo_booking_changes (booking_id, event) values (booking.id, event);
end
$$;

-- The slot computation's row estimates (generate_series, a join on the
-- weekday) are large enough that PostgreSQL JIT-compiles every call: about
-- 0.7 s of CPU for a one-second range, in get_demo_slots and in every booking,
-- reschedule and cancellation check, while the work itself takes a
-- millisecond. Twenty reschedules of one booking at once then queue behind
-- each other's row lock past the statement time-out. No JIT here.
alter function private.free_slots(timestamptz, timestamptz, uuid, boolean) set jit = off;

-- ---------------------------------------------------------------------------
-- The visitor's emails carry none of the visitor's text
-- ---------------------------------------------------------------------------

-- The invite as in 20261121000500, with our own summary and an attendee
-- without a display name.
create or replace function private.booking_invite(booking public.demo_bookings, manage_url text) returns text
language sql
stable
security definer
set search_path = ''
as $$
  select array_to_string(
    array(select private.ics_fold(line) from unnest(array[
      'BEGIN:VCALENDAR',
      'VERSION:2.0',
      'PRODID:-//Cervana//Demo scheduler//EN',
      'CALSCALE:GREGORIAN',
      'METHOD:' || case booking.status when 'cancelled' then 'CANCEL' else 'REQUEST' end,
      'BEGIN:VEVENT',
      'UID:demo-' || booking.id || '@cervana.ai',
      'SEQUENCE:' || booking.revision,
      'DTSTAMP:' || private.ics_time(now()),
      'DTSTART:' || private.ics_time(booking.starts_at),
      'DTEND:' || private.ics_time(booking.ends_at),
      'SUMMARY:Cervana demo',
      'DESCRIPTION:' || private.ics_text(
        'Your 30-minute Cervana demo. We will show Cervana answering calls like yours.'
        || E'\n' || coalesce('Join: ' || s.meeting_url || E'\n', '')
        || 'Reschedule or cancel: ' || manage_url),
      'LOCATION:' || private.ics_text(coalesce(s.meeting_url, 'Video call (link to follow)')),
      'URL:' || manage_url,
      'ORGANIZER;CN=Cervana:mailto:' || private.sales_inbox(),
      'ATTENDEE;ROLE=REQ-PARTICIPANT;RSVP=FALSE:mailto:' || booking.email,
      'STATUS:' || case booking.status when 'cancelled' then 'CANCELLED' else 'CONFIRMED' end,
      'END:VEVENT',
      'END:VCALENDAR'
    ]) line),
    E'\r\n'
  ) || E'\r\n'
  from public.scheduler_settings s where s.id
$$;

-- The visitor's email (with the invite) and the sales inbox's note for a
-- booking that was made ('booked'), moved ('rescheduled') or cancelled. As in
-- 20261121000500, except that the visitor's email holds only our own text, the
-- time and the links, and tells someone who did not book how to cancel.
create or replace function private.queue_booking_emails(
  booking public.demo_bookings,
  token text,
  event text
) returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  site text := private.site_url();
  manage_url text := site || '/demo?booking=' || token;
  invite text := private.booking_invite(booking, manage_url);
  slot text := private.describe_slot(booking.starts_at, booking.ends_at, booking.time_zone);
  business_zone text := (select st.time_zone from public.scheduler_settings st where st.id);
begin
  perform private.queue_email(
    booking.email,
    case event
      when 'booked' then 'Your Cervana demo is booked: ' || slot
      when 'rescheduled' then 'Your Cervana demo has moved to ' || slot
      else 'Your Cervana demo is cancelled'
    end,
    'demo_booking_' || event,
    case event
      when 'booked' then 'Your demo is booked'
      when 'rescheduled' then 'Your demo has a new time'
      else 'Your demo is cancelled'
    end,
    case event
      when 'cancelled' then array[
        format('Hello, your Cervana demo on %s is cancelled, as asked.', slot),
        'The attached invite removes it from your calendar. Whenever you are ready, '
          || 'book a new time at ' || site || '/demo.'
      ]
      when 'booked' then array[
        format('Hello, your 30-minute Cervana demo is on %s.', slot),
        'The attached invite adds it to your calendar. We will show Cervana answering calls '
          || 'like the ones your team gets, and hand-offs to your CSMs.',
        'Need another time? Use the link below to reschedule or cancel; no account needed.',
        'Did not book a demo with us? Someone may have typed your address by mistake: cancel '
          || 'it with the same link, or simply ignore this email.'
      ]
      else array[
        format('Hello, your 30-minute Cervana demo is now on %s.', slot),
        'The attached invite updates it in your calendar. Need another time? Use the link '
          || 'below to reschedule or cancel; no account needed.'
      ]
    end,
    case event when 'cancelled' then 'Book a new time' else 'Reschedule or cancel' end,
    case event when 'cancelled' then site || '/demo' else manage_url end,
    'Anyone with this email''s link can change this booking, so please do not forward it.',
    jsonb_build_array(jsonb_build_object(
      'filename', case event when 'cancelled' then 'cancelled-demo.ics' else 'cervana-demo.ics' end,
      'contentType', 'text/calendar; charset=utf-8; method='
        || case event when 'cancelled' then 'CANCEL' else 'REQUEST' end,
      'contentBase64', translate(encode(convert_to(invite, 'UTF8'), 'base64'), E'\n', '')
    )),
    jsonb_build_object('booking_id', booking.id)
  );
  perform private.queue_email(
    private.sales_inbox(),
    format('Demo %s: %s, %s', event, booking.company,
      private.describe_slot(booking.starts_at, booking.ends_at, business_zone)),
    'demo_booking_' || event || '_notification',
    'Demo ' || event,
    array[
      format('%s <%s> at %s (team of %s).', booking.full_name, booking.email, booking.company,
        booking.team_size),
      'Notes: ' || coalesce(booking.notes, '(none)'),
      case when event = 'cancelled'
        then 'Reason: ' || coalesce(booking.cancel_reason, '(none given)')
        else 'The visitor''s time zone: ' || booking.time_zone || '.' end
    ],
    'Open demo bookings',
    site || '/admin?tab=bookings',
    'Sent to the sales inbox for every booking change on ' || site || '/demo.',
    '[]'::jsonb,
    jsonb_build_object('booking_id', booking.id)
  );
end
$$;

-- ---------------------------------------------------------------------------
-- Booking, rescheduling, cancelling
-- ---------------------------------------------------------------------------

-- book_demo as in 20261124000300, answering without the manage token.
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

  -- The token leaves the database in this email only.
  perform private.queue_booking_emails(booking, token, 'booked');
  return jsonb_build_object(
    'id', booking.id,
    'starts_at', booking.starts_at,
    'ends_at', booking.ends_at,
    'email', booking.email,
    'time_zone', booking.time_zone
  );
end
$$;

comment on function public.book_demo is
  'Books a free demo slot and queues the confirmation (with the manage link and an .ics invite) '
  'and the sales note. The manage token is in the confirmation email only.';

-- reschedule_demo_booking as in 20261121000500, within the change limits.
create or replace function public.reschedule_demo_booking(
  token text,
  starts_at timestamptz,
  time_zone text default null
) returns jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  booking public.demo_bookings := private.booking_for_token(token, true);
  slot_end timestamptz;
begin
  if booking.status = 'cancelled' then
    perform private.reject('booking', 'This demo was cancelled. Please book a new time instead.');
  end if;
  if booking.starts_at <= now() then
    perform private.reject('booking', 'This demo has already started, so it cannot be moved.');
  end if;
  if time_zone is not null then
    perform private.clean_time_zone(time_zone);
  end if;
  if reschedule_demo_booking.starts_at = booking.starts_at then
    perform private.reject('starts_at', 'That is the time you already have. Please pick another one.');
  end if;
  slot_end := private.check_slot(starts_at, booking.id);
  perform private.enforce_booking_change_limits(booking, 'rescheduled');

  begin
    update public.demo_bookings b
    set starts_at = reschedule_demo_booking.starts_at,
      ends_at = slot_end,
      time_zone = coalesce(reschedule_demo_booking.time_zone, b.time_zone),
      revision = b.revision + 1
    where b.id = booking.id
    returning * into booking;
  exception when exclusion_violation then
    perform private.refuse_taken_slot();
  end;

  perform private.queue_booking_emails(booking, token, 'rescheduled');
  return jsonb_build_object(
    'id', booking.id,
    'starts_at', booking.starts_at,
    'ends_at', booking.ends_at,
    'status', booking.status,
    'time_zone', booking.time_zone
  );
end
$$;

-- cancel_demo_booking as in 20261121000500, within the network's change limit
-- (cancelling an already cancelled booking changes nothing and counts nothing).
create or replace function public.cancel_demo_booking(token text, reason text default null)
returns jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  booking public.demo_bookings := private.booking_for_token(token, true);
  clean_reason text := private.clean_text('reason', reason, 'the reason', 500, false, true);
begin
  if booking.status = 'cancelled' then
    return jsonb_build_object('id', booking.id, 'status', booking.status);
  end if;
  if booking.starts_at <= now() then
    perform private.reject('booking', 'This demo has already started, so it cannot be cancelled.');
  end if;
  perform private.enforce_booking_change_limits(booking, 'cancelled');
  update public.demo_bookings b
  set status = 'cancelled', cancelled_at = now(), cancel_reason = clean_reason,
    revision = b.revision + 1
  where b.id = booking.id
  returning * into booking;
  perform private.queue_booking_emails(booking, token, 'cancelled');
  return jsonb_build_object('id', booking.id, 'status', booking.status);
end
$$;

revoke execute on function
  public.book_demo, public.reschedule_demo_booking, public.cancel_demo_booking
from public;
grant execute on function
  public.book_demo, public.reschedule_demo_booking, public.cancel_demo_booking
to anon, authenticated, service_role;

revoke all on private.demo_booking_changes from public, anon, authenticated;
revoke execute on all functions in schema private from public, anon, authenticated;
