-- Demo bookings and availability in the admin area (issue 17).
--
-- * The bookings list pages by key on (starts_at, id): soonest first for the
--   upcoming, newest first for the past, with or without a status.
-- * A booking carries a `version`, bumped by every change, so an admin acting
--   from an older view is refused with 409 and a sentence.
-- * Admins move and cancel a booking only through admin_reschedule_booking
--   and admin_cancel_booking: the slot is checked like a visitor's, the
--   visitor gets the updated invite (same UID, next SEQUENCE; METHOD:CANCEL
--   for a cancellation) through the outbox, saying the Cervana team did it,
--   and the row change lands in the audit log by its trigger. Direct writes
--   to the time and status columns are no longer granted (notes still are).
-- * The weekly availability is saved whole by admin_save_availability (only
--   the rules that changed are deleted or added, so the audit log shows real
--   changes); overlapping ranges are refused by a trigger for any writer.
--   Blackout days are added and removed by admin_add_blackout_date and
--   admin_remove_blackout_date, the settings by admin_update_scheduler_settings.
--   Every refusal is a 400 naming its field. free_slots reads these tables, so
--   /demo shows the change at once.

-- ---------------------------------------------------------------------------
-- Bookings: order, version, column grants
-- ---------------------------------------------------------------------------

create index demo_bookings_starts_at_id_idx on public.demo_bookings (starts_at, id);
-- It serves everything the index on starts_at alone did.
drop index public.demo_bookings_starts_at_idx;
create index demo_bookings_status_starts_at_id_idx on public.demo_bookings (status, starts_at, id);
-- The lead a booking belongs to is the lead with its address (leads_email_idx).

alter table public.demo_bookings
  add column version integer not null default 1 check (version >= 1);

comment on column public.demo_bookings.version is
  'Bumped by every change; the admin functions refuse a change made from an older version (409).';

create or replace function private.bump_booking_version() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  new.version := old.version + 1;
  return new;
end
$$;

create trigger demo_bookings_bump_version before update on public.demo_bookings
  for each row execute function private.bump_booking_version();

grant select (version) on public.demo_bookings to authenticated;
revoke update (starts_at, ends_at, status, cancelled_at, cancel_reason)
  on public.demo_bookings from authenticated;

-- ---------------------------------------------------------------------------
-- Emails for a change the team made
-- ---------------------------------------------------------------------------

-- The visitor's email with the updated invite, and the sales inbox's note, for
-- a booking the team moved ('rescheduled') or cancelled. The manage token is
-- stored only as a hash, so these emails cannot carry the manage link: the
-- invite points to the sales inbox (moved) or the booking page (cancelled),
-- and the link from the visitor's first email keeps working.
create or replace function private.queue_team_booking_emails(
  booking public.demo_bookings,
  event text,
  reason text
) returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  site text := private.site_url();
  inbox text := private.sales_inbox();
  invite text := private.booking_invite(
    booking, case event when 'cancelled' then site || '/demo' else 'mailto:' || inbox end
  );
  slot text := private.describe_slot(booking.starts_at, booking.ends_at, booking.time_zone);
  business_zone text := (select st.time_zone from public.scheduler_settings st where st.id);
  because text := case when reason is not null then 'The team''s note: ' || reason end;
begin
  perform private.queue_email(
    booking.email,
    case event
      when 'rescheduled' then 'The Cervana team moved your demo to ' || slot
      else 'The Cervana team cancelled your demo'
    end,
    'demo_booking_' || event || '_by_team',
    case event when 'rescheduled' then 'Your demo has a new time' else 'Your demo is cancelled' end,
    array_remove(case event
      when 'rescheduled' then array[
        format('Hello, the Cervana team has moved your 30-minute demo to %s.', slot),
        because,
        'The attached invite updates it in your calendar. If the new time does not suit you, '
          || 'reply to ' || inbox || ', or use the link in your first confirmation email.'
      ]
      else array[
        format('Hello, the Cervana team has cancelled your demo on %s.', slot),
        because,
        'The attached invite removes it from your calendar. We are sorry for the change: '
          || 'book a new time whenever suits you at ' || site || '/demo, or write to ' || inbox || '.'
      ]
    end, null),
    case event when 'cancelled' then 'Book a new time' else null end,
    case event when 'cancelled' then site || '/demo' else null end,
    'You are receiving this email because a demo was booked with this address on ' || site || '/demo.',
    jsonb_build_array(jsonb_build_object(
      'filename', case event when 'cancelled' then 'cancelled-demo.ics' else 'cervana-demo.ics' end,
      'contentType', 'text/calendar; charset=utf-8; method='
        || case event when 'cancelled' then 'CANCEL' else 'REQUEST' end,
      'contentBase64', translate(encode(convert_to(invite, 'UTF8'), 'base64'), E'\n', '')
    )),
    jsonb_build_object('booking_id', booking.id)
  );
  perform private.queue_email(
    inbox,
    format('Demo %s by %s: %s, %s', event, coalesce(auth.jwt() ->> 'email', 'the team'),
      booking.company, private.describe_slot(booking.starts_at, booking.ends_at, business_zone)),
    'demo_booking_' || event || '_by_team_notification',
    'Demo ' || event || ' by the team',
    array[
      format('%s <%s> at %s (team of %s).', booking.full_name, booking.email, booking.company,
        booking.team_size),
      'Done by: ' || coalesce(auth.jwt() ->> 'email', 'the team') || '.',
      'Reason: ' || coalesce(reason, '(none given)'),
      'When: ' || private.describe_slot(booking.starts_at, booking.ends_at, business_zone) || '.'
    ],
    'Open the booking',
    site || '/admin/bookings/' || booking.id,
    'Sent to the sales inbox for every booking change on ' || site || '/demo.',
    '[]'::jsonb,
    jsonb_build_object('booking_id', booking.id)
  );
end
$$;

-- The booking an admin acts on, locked, at the version they saw.
create or replace function private.booking_for_admin(booking_id uuid, expected_version integer)
returns public.demo_bookings
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  booking public.demo_bookings;
begin
  if booking_id is null then
    perform private.reject('booking_id', 'Please choose a booking.');
  end if;
  select * into booking from public.demo_bookings b where b.id = booking_id for update;
  if booking.id is null then
    raise exception using errcode = 'PT404',
      message = 'This booking does not exist (any more).', detail = 'booking_id';
  end if;
  if expected_version is null or expected_version <> booking.version then
    raise exception using errcode = 'PT409',
      message = 'This booking changed since you opened it. Reload it to see the change, then try again.',
      detail = 'version';
  end if;
  if booking.status = 'cancelled' then
    perform private.reject('booking_id', 'This demo is already cancelled.');
  end if;
  if booking.starts_at <= now() then
    perform private.reject('booking_id', 'This demo has already started, so it can no longer be changed.');
  end if;
  return booking;
end
$$;

-- ---------------------------------------------------------------------------
-- Reschedule, cancel, free slots for a booking
-- ---------------------------------------------------------------------------

create or replace function public.admin_demo_slots(
  p_booking_id uuid,
  p_from timestamptz default null,
  p_to timestamptz default null
) returns table (starts_at timestamptz, ends_at timestamptz)
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  perform private.require_admin('Only Cervana admins can see the free times for a booking.');
  if p_from is not null and p_to is not null and p_to <= p_from then
    perform private.reject('p_to', 'The range must end after it starts.');
  end if;
  return query
    select f.starts_at, f.ends_at
    from private.free_slots(coalesce(p_from, now()), coalesce(p_to, 'infinity'), p_booking_id) f;
end
$$;

comment on function public.admin_demo_slots is
  'The free demo slots, counting the booking p_booking_id''s own time as free (admins only).';

create or replace function public.admin_reschedule_booking(
  p_booking_id uuid,
  p_starts_at timestamptz,
  p_expected_version integer,
  p_reason text default null
) returns jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  booking public.demo_bookings;
  clean_reason text;
  slot_end timestamptz;
begin
  perform private.require_admin('Only Cervana admins can move a demo for a visitor.');
  clean_reason := private.clean_text('p_reason', p_reason, 'the reason', 500, false, true);
  booking := private.booking_for_admin(p_booking_id, p_expected_version);
  if p_starts_at is null then
    perform private.reject('p_starts_at', 'Please pick a new time.');
  end if;
  if p_starts_at = booking.starts_at then
    perform private.reject('p_starts_at', 'That is the demo''s time already. Please pick another one.');
  end if;
  begin
    slot_end := private.check_slot(p_starts_at, booking.id);
  exception when sqlstate '22023' then
    perform private.reject('p_starts_at', 'That time is not a free slot: it is past, too soon, '
      || 'or outside the availability. Please pick one of the times shown.');
  end;

  begin
    update public.demo_bookings b
    set starts_at = p_starts_at, ends_at = slot_end, revision = b.revision + 1
    where b.id = booking.id
    returning * into booking;
  exception when exclusion_violation then
    perform private.refuse_taken_slot();
  end;

  perform private.queue_team_booking_emails(booking, 'rescheduled', clean_reason);
  return jsonb_build_object(
    'id', booking.id,
    'starts_at', booking.starts_at,
    'ends_at', booking.ends_at,
    'status', booking.status,
    'version', booking.version,
    'revision', booking.revision
  );
end
$$;

comment on function public.admin_reschedule_booking is
  'Admins move a confirmed, upcoming demo to a free slot from the version they saw, and the '
  'visitor gets the updated invite. 400 names the field refused, 409 a stale version or a taken slot.';

create or replace function public.admin_cancel_booking(
  p_booking_id uuid,
  p_reason text,
  p_expected_version integer
) returns jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  booking public.demo_bookings;
  clean_reason text;
begin
  perform private.require_admin('Only Cervana admins can cancel a demo for a visitor.');
  clean_reason := private.clean_text('p_reason', p_reason, 'the reason', 500, false, true);
  booking := private.booking_for_admin(p_booking_id, p_expected_version);
  update public.demo_bookings b
  set status = 'cancelled', cancelled_at = now(), cancel_reason = clean_reason,
    revision = b.revision + 1
  where b.id = booking.id
  returning * into booking;
  perform private.queue_team_booking_emails(booking, 'cancelled', clean_reason);
  return jsonb_build_object(
    'id', booking.id,
    'status', booking.status,
    'version', booking.version,
    'revision', booking.revision
  );
end
$$;

comment on function public.admin_cancel_booking is
  'Admins cancel a confirmed, upcoming demo from the version they saw, and the visitor gets the '
  'cancelling invite (METHOD:CANCEL).';

-- ---------------------------------------------------------------------------
-- Availability
-- ---------------------------------------------------------------------------

-- Two ranges of one weekday that overlap or touch would make slots twice or
-- hide a gap the admin meant; refused for every writer.
create or replace function private.check_availability_overlap() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if exists (
    select from public.availability_rules r
    where r.weekday = new.weekday and r.id <> new.id
      and r.start_time < new.end_time and new.start_time < r.end_time
  ) then
    raise exception using errcode = '22023',
      message = 'This time range overlaps another one on the same day.',
      detail = 'start_time';
  end if;
  return new;
end
$$;

create trigger availability_rules_no_overlap
  before insert or update on public.availability_rules
  for each row execute function private.check_availability_overlap();

-- Saves the weekly availability whole: [{weekday, start_time, end_time}, …],
-- times 'HH:MM' in the scheduler's time zone. Rules that stay are kept, the
-- others deleted, new ones added. Refusals name 'p_rules.<index>.<field>'.
create or replace function public.admin_save_availability(p_rules jsonb)
returns setof public.availability_rules
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  rule jsonb;
  idx integer := 0;
  field text;
  weekdays smallint[] := '{}';
  starts time[] := '{}';
  ends time[] := '{}';
  weekday_number smallint;
  start_at time;
  end_at time;
  other integer;
begin
  perform private.require_admin('Only Cervana admins can change the demo availability.');
  if p_rules is null or jsonb_typeof(p_rules) <> 'array' then
    perform private.reject('p_rules', 'Please send the availability as a list of time ranges.');
  end if;
  if jsonb_array_length(p_rules) > 70 then
    perform private.reject('p_rules', 'Please keep to at most 70 time ranges a week.');
  end if;
  for rule in select value from jsonb_array_elements(p_rules) loop
    field := 'p_rules.' || idx || '.';
    if jsonb_typeof(rule) <> 'object' then
      perform private.reject(field || 'weekday', 'Each time range needs a day, a start and an end.');
    end if;
    if jsonb_typeof(rule -> 'weekday') <> 'number' or (rule ->> 'weekday') !~ '^[0-6]$' then
      perform private.reject(field || 'weekday', 'Please choose a day of the week.');
    end if;
    weekday_number := (rule ->> 'weekday')::smallint;
    if jsonb_typeof(rule -> 'start_time') <> 'string'
      or (rule ->> 'start_time') !~ '^([01][0-9]|2[0-3]):[0-5][0-9](:00)?$' then
      perform private.reject(field || 'start_time', 'Please enter the start as a time, like 09:00.');
    end if;
    if jsonb_typeof(rule -> 'end_time') <> 'string'
      or (rule ->> 'end_time') !~ '^([01][0-9]|2[0-3]):[0-5][0-9](:00)?$' then
      perform private.reject(field || 'end_time', 'Please enter the end as a time, like 17:00.');
    end if;
    start_at := (rule ->> 'start_time')::time;
    end_at := (rule ->> 'end_time')::time;
    if end_at <= start_at then
      perform private.reject(field || 'end_time', 'The end must be after the start.');
    end if;
    for other in 1 .. coalesce(array_length(weekdays, 1), 0) loop
      if weekdays[other] = weekday_number and starts[other] < end_at and start_at < ends[other] then
        perform private.reject(field || 'start_time', format(
          'This range overlaps %s–%s on the same day.',
          to_char(starts[other], 'HH24:MI'), to_char(ends[other], 'HH24:MI')));
      end if;
    end loop;
    weekdays := weekdays || weekday_number;
    starts := starts || start_at;
    ends := ends || end_at;
    idx := idx + 1;
  end loop;

  delete from public.availability_rules r
  where not exists (
    select from unnest(weekdays, starts, ends) as n (weekday, start_time, end_time)
    where n.weekday = r.weekday and n.start_time = r.start_time and n.end_time = r.end_time
  );
  insert into public.availability_rules (weekday, start_time, end_time)
  select n.weekday, n.start_time, n.end_time
  from unnest(weekdays, starts, ends) as n (weekday, start_time, end_time)
  where not exists (
    select from public.availability_rules r
    where n.weekday = r.weekday and n.start_time = r.start_time and n.end_time = r.end_time
  );
  return query select r.* from public.availability_rules r order by r.weekday, r.start_time;
end
$$;

comment on function public.admin_save_availability is
  'Admins save the weekly demo availability whole (weekday 0 = Sunday, HH:MM in the scheduler''s '
  'time zone). 400 names the range and field refused, as p_rules.<index>.<field>.';

-- A day as 'YYYY-MM-DD' (text, so a malformed one is a 400 naming the field).
create or replace function private.clean_day(field text, value text) returns date
language plpgsql
immutable
set search_path = ''
as $$
begin
  if value is null or value !~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$' then
    perform private.reject(field, 'Please choose a day.');
  end if;
  begin
    return value::date;
  exception when others then
    perform private.reject(field, 'Please choose a day that exists in the calendar.');
  end;
  return null;
end
$$;

create or replace function public.admin_add_blackout_date(p_day text, p_reason text default null)
returns jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  zone text := (select s.time_zone from public.scheduler_settings s where s.id);
  today date := (now() at time zone zone)::date;
  chosen date;
  saved public.blackout_dates;
  booked integer;
begin
  perform private.require_admin('Only Cervana admins can add days without demos.');
  chosen := private.clean_day('p_day', p_day);
  if chosen < today then
    perform private.reject('p_day', 'That day has passed. Please choose today or a later day.');
  end if;
  if chosen > today + 3 * 365 then
    perform private.reject('p_day', 'Please choose a day within the next three years.');
  end if;
  if exists (select from public.blackout_dates b where b.day = chosen) then
    perform private.reject('p_day', 'That day is already without demos.');
  end if;
  insert into public.blackout_dates (day, reason)
  values (chosen, private.clean_text('p_reason', p_reason, 'the reason', 200, false, false))
  returning * into saved;
  -- Demos already booked that day keep their time: the admin sees how many.
  select count(*)::integer into booked
  from public.demo_bookings b
  where b.status = 'confirmed'
    and b.starts_at >= (chosen::timestamp at time zone zone)
    and b.starts_at < ((chosen + 1)::timestamp at time zone zone);
  return jsonb_build_object('day', saved.day, 'reason', saved.reason, 'bookings_that_day', booked);
end
$$;

comment on function public.admin_add_blackout_date is
  'Admins add a day without demos (in the scheduler''s time zone), answering how many demos are '
  'already booked that day (they keep their time).';

create or replace function public.admin_remove_blackout_date(p_day text) returns void
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  chosen date;
begin
  perform private.require_admin('Only Cervana admins can remove days without demos.');
  chosen := private.clean_day('p_day', p_day);
  delete from public.blackout_dates b where b.day = chosen;
  if not found then
    raise exception using errcode = 'PT404',
      message = 'That day is not among the days without demos (any more).', detail = 'p_day';
  end if;
end
$$;

-- Changes the scheduler's settings from the version the admin saw (its
-- updated_at). Keys: time_zone, slot_minutes, buffer_minutes,
-- min_notice_minutes, horizon_days, meeting_url (null for none).
create or replace function public.admin_update_scheduler_settings(
  p_changes jsonb,
  p_expected_updated_at timestamptz
) returns public.scheduler_settings
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  before_change public.scheduler_settings;
  saved public.scheduler_settings;
  unknown text;
  key text;
  bounds constant jsonb := jsonb_build_object(
    'slot_minutes', jsonb_build_array(10, 240, 'the slot length'),
    'buffer_minutes', jsonb_build_array(0, 120, 'the buffer'),
    'min_notice_minutes', jsonb_build_array(0, 20160, 'the notice'),
    'horizon_days', jsonb_build_array(1, 365, 'how far ahead')
  );
  numbers jsonb := '{}';
  zone text;
  url text;
begin
  perform private.require_admin('Only Cervana admins can change the demo scheduler.');
  if p_changes is null or jsonb_typeof(p_changes) <> 'object' then
    perform private.reject('p_changes', 'Please send the settings'' changes as one object.');
  end if;
  select k into unknown from jsonb_object_keys(p_changes) k
  where k not in ('time_zone', 'slot_minutes', 'buffer_minutes', 'min_notice_minutes',
    'horizon_days', 'meeting_url') limit 1;
  if unknown is not null then
    perform private.reject(left(unknown, 60), format('"%s" cannot be changed here.', left(unknown, 60)));
  end if;

  select * into before_change from public.scheduler_settings s where s.id for update;
  if p_expected_updated_at is null or p_expected_updated_at <> before_change.updated_at then
    raise exception using errcode = 'PT409',
      message = 'Someone else changed the scheduler settings since you opened them. Reload them, then make your change again.',
      detail = 'version';
  end if;

  if p_changes ? 'time_zone' then
    zone := p_changes ->> 'time_zone';
    if jsonb_typeof(p_changes -> 'time_zone') <> 'string' or char_length(zone) > 64
      or not exists (select from pg_catalog.pg_timezone_names where name = zone) then
      perform private.reject('time_zone', 'Please choose a time zone from the list, like Europe/Paris.');
    end if;
  end if;
  for key in select jsonb_object_keys(bounds) loop
    if p_changes ? key then
      if jsonb_typeof(p_changes -> key) <> 'number' or (p_changes ->> key) !~ '^[0-9]{1,6}$'
        or (p_changes ->> key)::integer not between (bounds -> key ->> 0)::integer and (bounds -> key ->> 1)::integer then
        perform private.reject(key, format('Please enter %s as a whole number from %s to %s.',
          bounds -> key ->> 2, bounds -> key ->> 0, bounds -> key ->> 1));
      end if;
      numbers := numbers || jsonb_build_object(key, (p_changes ->> key)::integer);
    end if;
  end loop;
  if p_changes ? 'meeting_url' and jsonb_typeof(p_changes -> 'meeting_url') <> 'null' then
    url := btrim(p_changes ->> 'meeting_url');
    if jsonb_typeof(p_changes -> 'meeting_url') <> 'string' or url = '' then
      url := null;
    elsif url !~ '^https://[^\s]+$' or char_length(url) > 500 then
      perform private.reject('meeting_url', 'Please enter the meeting link as an https:// address, up to 500 characters.');
    end if;
  end if;

  update public.scheduler_settings s set
    time_zone = coalesce(zone, s.time_zone),
    slot_minutes = coalesce((numbers ->> 'slot_minutes')::integer, s.slot_minutes),
    buffer_minutes = coalesce((numbers ->> 'buffer_minutes')::integer, s.buffer_minutes),
    min_notice_minutes = coalesce((numbers ->> 'min_notice_minutes')::integer, s.min_notice_minutes),
    horizon_days = coalesce((numbers ->> 'horizon_days')::integer, s.horizon_days),
    meeting_url = case when p_changes ? 'meeting_url' then url else s.meeting_url end
  where s.id
  returning s.* into saved;
  return saved;
end
$$;

comment on function public.admin_update_scheduler_settings is
  'Admins change the demo scheduler''s time zone, slot length, buffer, notice, horizon and '
  'meeting link from the version they saw (updated_at). 400 names the field, 409 a stale version.';

-- ---------------------------------------------------------------------------
-- Access
-- ---------------------------------------------------------------------------

revoke execute on function
  private.bump_booking_version(),
  private.queue_team_booking_emails(public.demo_bookings, text, text),
  private.booking_for_admin(uuid, integer),
  private.check_availability_overlap(),
  private.clean_day(text, text)
from public, anon, authenticated;

revoke execute on function
  public.admin_demo_slots(uuid, timestamptz, timestamptz),
  public.admin_reschedule_booking(uuid, timestamptz, integer, text),
  public.admin_cancel_booking(uuid, text, integer),
  public.admin_save_availability(jsonb),
  public.admin_add_blackout_date(text, text),
  public.admin_remove_blackout_date(text),
  public.admin_update_scheduler_settings(jsonb, timestamptz)
from public, anon;
grant execute on function
  public.admin_demo_slots(uuid, timestamptz, timestamptz),
  public.admin_reschedule_booking(uuid, timestamptz, integer, text),
  public.admin_cancel_booking(uuid, text, integer),
  public.admin_save_availability(jsonb),
  public.admin_add_blackout_date(text, text),
  public.admin_remove_blackout_date(text),
  public.admin_update_scheduler_settings(jsonb, timestamptz)
to authenticated;
