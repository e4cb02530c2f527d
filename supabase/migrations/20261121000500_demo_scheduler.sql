-- /demo: our own scheduler. Admins set weekly availability, blackout dates, the
-- slot length, a buffer between meetings and how far ahead visitors may book,
-- all in the business's time zone. Visitors see the free slots, book one
-- atomically (an exclusion constraint: of two visitors racing for one slot,
-- exactly one gets it), and reschedule or cancel through the unguessable link
-- in their confirmation email, which carries an .ics invite.

create table public.scheduler_settings (
  id boolean primary key default true check (id),
  time_zone text not null default 'America/New_York' check (char_length(time_zone) <= 64),
  slot_minutes integer not null default 30 check (slot_minutes between 10 and 240),
  buffer_minutes integer not null default 15 check (buffer_minutes between 0 and 120),
  min_notice_minutes integer not null default 240 check (min_notice_minutes between 0 and 20160),
  horizon_days integer not null default 30 check (horizon_days between 1 and 365),
  meeting_url text check (meeting_url ~ '^https://[^\s]+$' and char_length(meeting_url) <= 500),
  updated_at timestamptz not null default now()
);

comment on table public.scheduler_settings is
  'One row: the demo scheduler''s time zone, slot length, buffer, notice and booking horizon.';

insert into public.scheduler_settings default values;

create trigger scheduler_settings_set_updated_at before update on public.scheduler_settings
  for each row execute function public.set_updated_at();

-- A time zone PostgreSQL does not know would break every slot computation.
create or replace function private.check_time_zone() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if not exists (select from pg_catalog.pg_timezone_names where name = new.time_zone) then
    raise exception using errcode = '22023',
      message = format('"%s" is not a time zone we know, like Europe/Paris.', new.time_zone),
      detail = 'time_zone';
  end if;
  return new;
end
$$;

create trigger scheduler_settings_check_time_zone
  before insert or update of time_zone on public.scheduler_settings
  for each row execute function private.check_time_zone();

-- Weekly opening hours in the business's time zone; weekday 0 = Sunday.
create table public.availability_rules (
  id uuid primary key default gen_random_uuid(),
  weekday smallint not null check (weekday between 0 and 6),
  start_time time not null,
  end_time time not null,
  created_at timestamptz not null default now(),
  check (end_time > start_time)
);

comment on table public.availability_rules is
  'When demos can be booked, per weekday (0 = Sunday), in scheduler_settings.time_zone.';

insert into public.availability_rules (weekday, start_time, end_time)
select d, time '09:00', time '17:00' from generate_series(1, 5) d;

-- Whole days without demos (holidays, team off-sites), in the business's time zone.
create table public.blackout_dates (
  day date primary key,
  reason text check (char_length(reason) <= 200),
  created_at timestamptz not null default now()
);

comment on table public.blackout_dates is 'Days on which no demo can be booked.';

create table public.demo_bookings (
  id uuid primary key default gen_random_uuid(),
  starts_at timestamptz not null,
  ends_at timestamptz not null,
  full_name text not null check (char_length(full_name) between 1 and 120),
  email text not null check (char_length(email) between 3 and 254),
  company text not null check (char_length(company) between 1 and 120),
  team_size text not null check (team_size in ('1-5', '6-20', '21-50', '51-200', '200+')),
  notes text check (char_length(notes) <= 2000),
  time_zone text not null check (char_length(time_zone) <= 64),
  status text not null default 'confirmed' check (status in ('confirmed', 'cancelled')),
  manage_token_hash bytea not null unique,
  -- The invite's SEQUENCE: calendars replace an event when it grows.
  revision integer not null default 0,
  partner_id uuid references public.partners (id) on delete set null,
  user_id uuid references auth.users (id) on delete set null,
  cancelled_at timestamptz,
  cancel_reason text check (char_length(cancel_reason) <= 500),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  check (ends_at > starts_at),
  constraint demo_bookings_no_overlap
    exclude using gist (tstzrange(starts_at, ends_at) with &&) where (status = 'confirmed')
);

comment on table public.demo_bookings is
  'Booked demos. Written through book_demo(); the booker manages theirs by token, admins all.';

create index demo_bookings_starts_at_idx on public.demo_bookings (starts_at);
create index demo_bookings_partner_id_idx on public.demo_bookings (partner_id);

create trigger demo_bookings_set_updated_at before update on public.demo_bookings
  for each row execute function public.set_updated_at();

-- ---------------------------------------------------------------------------
-- Free slots
-- ---------------------------------------------------------------------------

-- Each rule's window is turned into instants in the business's time zone for
-- every local day, so 09:00 stays 09:00 local across a daylight-saving change;
-- slots step by slot + buffer from the window's start, and must end inside it.
-- A slot is free when no confirmed booking (other than `ignoring`) comes within
-- the buffer of it (unless `include_booked`), it respects the notice, and it is
-- within the horizon.
create or replace function private.free_slots(
  range_start timestamptz,
  range_end timestamptz,
  ignoring uuid default null,
  include_booked boolean default false
) returns table (starts_at timestamptz, ends_at timestamptz)
language sql
stable
security definer
set search_path = ''
as $$
  with settings as (
    select
      s.time_zone,
      make_interval(mins => s.slot_minutes) as slot,
      make_interval(mins => s.buffer_minutes) as buffer,
      greatest(range_start, now() + make_interval(mins => s.min_notice_minutes)) as low,
      least(range_end, now() + make_interval(days => s.horizon_days)) as high
    from public.scheduler_settings s
    where s.id
  ),
  days as (
    select st.*, d::date as day
    from settings st,
      generate_series(
        (st.low at time zone st.time_zone)::date - 1,
        (st.high at time zone st.time_zone)::date,
        interval '1 day'
      ) d
    where st.low < st.high
  ),
  windows as (
    select
      days.*,
      (days.day + r.start_time) at time zone days.time_zone as window_start,
      (days.day + r.end_time) at time zone days.time_zone as window_end
    from days
    join public.availability_rules r on r.weekday = extract(dow from days.day)
    where not exists (select from public.blackout_dates b where b.day = days.day)
  ),
  candidates as (
    select distinct g as starts_at, g + w.slot as ends_at, w.buffer, w.low, w.high
    from windows w,
      generate_series(w.window_start, w.window_end - w.slot, w.slot + w.buffer) g
  )
  select c.starts_at, c.ends_at
  from candidates c
  where c.starts_at >= c.low
    and c.starts_at < c.high
    and (include_booked or not exists (
      select from public.demo_bookings b
      where b.status = 'confirmed'
        and b.id is distinct from ignoring
        and tstzrange(b.starts_at - c.buffer, b.ends_at + c.buffer) && tstzrange(c.starts_at, c.ends_at)
    ))
  order by c.starts_at
$$;

create or replace function public.get_demo_slots(
  range_start timestamptz default null,
  range_end timestamptz default null
) returns table (starts_at timestamptz, ends_at timestamptz)
language sql
stable
security definer
set search_path = ''
as $$
  select * from private.free_slots(coalesce(range_start, now()), coalesce(range_end, 'infinity'))
$$;

comment on function public.get_demo_slots is
  'The demo slots visitors can book between range_start and range_end (default: now until the horizon).';

-- What the booking page needs to know about the scheduler.
create or replace function public.get_demo_scheduler() returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  select jsonb_build_object(
    'time_zone', s.time_zone,
    'slot_minutes', s.slot_minutes,
    'horizon_days', s.horizon_days
  )
  from public.scheduler_settings s where s.id
$$;

-- ---------------------------------------------------------------------------
-- The invite and the emails
-- ---------------------------------------------------------------------------

-- RFC 5545 TEXT escaping.
create or replace function private.ics_text(value text) returns text
language sql
immutable
set search_path = ''
as $$
  select replace(replace(replace(replace(replace(coalesce(value, ''),
    '\', '\\'), ';', '\;'), ',', '\,'), E'\r\n', '\n'), E'\n', '\n')
$$;

-- Content lines longer than 75 octets are folded (CRLF + space), never inside
-- a UTF-8 character (RFC 5545 §3.1).
create or replace function private.ics_fold(line text) returns text
language plpgsql
immutable
set search_path = ''
as $$
declare
  folded text := '';
  current_line text := '';
  limit_octets integer := 75;
  ch text;
begin
  foreach ch in array regexp_split_to_array(line, '') loop
    if octet_length(current_line) + octet_length(ch) > limit_octets then
      folded := folded || current_line || E'\r\n';
      current_line := ' ';
      limit_octets := 75;
    end if;
    current_line := current_line || ch;
  end loop;
  return folded || current_line;
end
$$;

create or replace function private.ics_time(value timestamptz) returns text
language sql
immutable
set search_path = ''
as $$
  select to_char(value at time zone 'UTC', 'YYYYMMDD"T"HH24MISS"Z"')
$$;

-- The calendar invite for a booking: REQUEST (new or moved, same UID, higher
-- SEQUENCE) or CANCEL.
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
      'SUMMARY:' || private.ics_text('Cervana demo with ' || booking.company),
      'DESCRIPTION:' || private.ics_text(
        'Your 30-minute Cervana demo. We will show Cervana answering calls like yours.'
        || E'\n' || coalesce('Join: ' || s.meeting_url || E'\n', '')
        || 'Reschedule or cancel: ' || manage_url),
      'LOCATION:' || private.ics_text(coalesce(s.meeting_url, 'Video call (link to follow)')),
      'URL:' || manage_url,
      'ORGANIZER;CN=Cervana:mailto:' || private.sales_inbox(),
      'ATTENDEE;CN="' || replace(booking.full_name, '"', '''') || '";ROLE=REQ-PARTICIPANT;RSVP=FALSE:mailto:'
        || booking.email,
      'STATUS:' || case booking.status when 'cancelled' then 'CANCELLED' else 'CONFIRMED' end,
      'END:VEVENT',
      'END:VCALENDAR'
    ]) line),
    E'\r\n'
  ) || E'\r\n'
  from public.scheduler_settings s where s.id
$$;

-- "Tuesday 3 March 2026, 09:00–09:30 (Europe/Paris)".
create or replace function private.describe_slot(
  starts_at timestamptz,
  ends_at timestamptz,
  time_zone text
) returns text
language sql
stable
set search_path = ''
as $$
  select to_char(starts_at at time zone time_zone, 'FMDay FMDD FMMonth YYYY, HH24:MI')
    || '–' || to_char(ends_at at time zone time_zone, 'HH24:MI')
    || ' (' || time_zone || ')'
$$;

-- The visitor's email (with the invite) and the sales inbox's note for a
-- booking that was made ('booked'), moved ('rescheduled') or cancelled.
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
  first_name text := split_part(booking.full_name, ' ', 1);
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
      when 'booked' then 'You are booked, ' || first_name
      when 'rescheduled' then 'Your demo has a new time'
      else 'Your demo is cancelled'
    end,
    case event
      when 'cancelled' then array[
        format('Hi %s, your demo on %s is cancelled, as you asked.', first_name, slot),
        'The attached invite removes it from your calendar. Whenever you are ready, '
          || 'book a new time at ' || site || '/demo.'
      ]
      else array[
        format('Hi %s, your 30-minute Cervana demo is on %s.', first_name, slot),
        'The attached invite adds it to your calendar. We will show Cervana answering calls '
          || 'like the ones ' || booking.company || ' gets, and hand-offs to your CSMs.',
        'Need another time? Use the link below to reschedule or cancel; no account needed.'
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
-- Booking, looking up, rescheduling, cancelling
-- ---------------------------------------------------------------------------

create or replace function private.clean_time_zone(value text) returns text
language plpgsql
stable
set search_path = ''
as $$
begin
  if value is null or not exists (select from pg_catalog.pg_timezone_names where name = value) then
    perform private.reject('time_zone', 'Please choose your time zone from the list.');
  end if;
  return value;
end
$$;

-- 409 with a sentence the booking page shows before offering the next slots.
create or replace function private.refuse_taken_slot() returns void
language plpgsql
set search_path = ''
as $$
begin
  raise exception using
    errcode = 'PT409',
    message = 'Sorry, someone has just booked that time. Please pick another one.',
    detail = 'slot_taken';
end
$$;

-- A slot the visitor may take: free (409 when a booking took it), else 400.
create or replace function private.check_slot(starts_at timestamptz, ignoring uuid) returns timestamptz
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  slot_end timestamptz;
begin
  if check_slot.starts_at is null then
    perform private.reject('starts_at', 'Please pick a time.');
  end if;
  select f.ends_at into slot_end
  from private.free_slots(check_slot.starts_at, check_slot.starts_at + interval '1 second', ignoring) f
  where f.starts_at = check_slot.starts_at;
  if slot_end is null then
    if exists (
      select from private.free_slots(
        check_slot.starts_at, check_slot.starts_at + interval '1 second', ignoring, true
      ) f
      where f.starts_at = check_slot.starts_at
    ) then
      perform private.refuse_taken_slot();
    end if;
    perform private.reject(
      'starts_at', 'That time is no longer available. Please pick one of the times shown.'
    );
  end if;
  return slot_end;
end
$$;

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

comment on function public.book_demo is
  'Books a free demo slot and queues the confirmation (with an .ics invite) and the sales note.';

-- The booking a manage link names, locked for a change when `for_update`.
create or replace function private.booking_for_token(token text, for_update boolean)
returns public.demo_bookings
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  booking public.demo_bookings;
begin
  if token is null or token !~ '^[0-9a-f]{64}$' then
    raise exception using errcode = 'PT404',
      message = 'This booking link is not complete. Please open it again from your email.',
      detail = 'booking_not_found';
  end if;
  if for_update then
    select * into booking from public.demo_bookings b
    where b.manage_token_hash = private.token_hash(token) for update;
  else
    select * into booking from public.demo_bookings b
    where b.manage_token_hash = private.token_hash(token);
  end if;
  if booking.id is null then
    raise exception using errcode = 'PT404',
      message = 'We could not find this booking. Please open the link from your latest email.',
      detail = 'booking_not_found';
  end if;
  return booking;
end
$$;

create or replace function public.get_demo_booking(token text) returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  booking public.demo_bookings := private.booking_for_token(token, false);
begin
  return jsonb_build_object(
    'id', booking.id,
    'starts_at', booking.starts_at,
    'ends_at', booking.ends_at,
    'status', booking.status,
    'full_name', booking.full_name,
    'email', booking.email,
    'company', booking.company,
    'time_zone', booking.time_zone,
    'is_past', booking.starts_at <= now()
  );
end
$$;

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
  public.get_demo_slots, public.get_demo_scheduler, public.book_demo, public.get_demo_booking,
  public.reschedule_demo_booking, public.cancel_demo_booking
from public;
grant execute on function
  public.get_demo_slots, public.get_demo_scheduler, public.book_demo, public.get_demo_booking,
  public.reschedule_demo_booking, public.cancel_demo_booking
to anon, authenticated, service_role;
revoke execute on all functions in schema private from public, anon, authenticated;

-- ---------------------------------------------------------------------------
-- Access: admins manage the scheduler and see every booking; nobody else reads
-- a booking except through its token.
-- ---------------------------------------------------------------------------

alter table public.scheduler_settings enable row level security;
alter table public.availability_rules enable row level security;
alter table public.blackout_dates enable row level security;
alter table public.demo_bookings enable row level security;

revoke all on public.scheduler_settings, public.availability_rules, public.blackout_dates,
  public.demo_bookings from anon, authenticated;
grant all on public.scheduler_settings, public.availability_rules, public.blackout_dates,
  public.demo_bookings to service_role;

grant select, update (time_zone, slot_minutes, buffer_minutes, min_notice_minutes, horizon_days, meeting_url)
  on public.scheduler_settings to authenticated;
create policy "Admins read the scheduler settings"
  on public.scheduler_settings for select to authenticated
  using ((select public.is_admin()));
create policy "Admins change the scheduler settings"
  on public.scheduler_settings for update to authenticated
  using ((select public.is_admin())) with check ((select public.is_admin()));

grant select, insert, update, delete on public.availability_rules, public.blackout_dates
  to authenticated;
create policy "Admins manage availability"
  on public.availability_rules for all to authenticated
  using ((select public.is_admin())) with check ((select public.is_admin()));
create policy "Admins manage blackout dates"
  on public.blackout_dates for all to authenticated
  using ((select public.is_admin())) with check ((select public.is_admin()));

-- Admins read, change and remove bookings (never the token hash); new bookings
-- come through book_demo().
grant select (id, starts_at, ends_at, full_name, email, company, team_size, notes, time_zone,
  status, revision, partner_id, user_id, cancelled_at, cancel_reason, created_at, updated_at),
  update (starts_at, ends_at, notes, status, cancelled_at, cancel_reason), delete
  on public.demo_bookings to authenticated;
create policy "Admins read bookings"
  on public.demo_bookings for select to authenticated
  using ((select public.is_admin()));
create policy "Admins change bookings"
  on public.demo_bookings for update to authenticated
  using ((select public.is_admin())) with check ((select public.is_admin()));
create policy "Admins remove bookings"
  on public.demo_bookings for delete to authenticated
  using ((select public.is_admin()));
