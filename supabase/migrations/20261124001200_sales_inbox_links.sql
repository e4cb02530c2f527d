-- The sales inbox's notifications no longer link to the admin area (issue 13).
--
-- The notifications of a sales inquiry, a demo booking change and a confirmed
-- partner application ended with a button to /admin?tab=leads, ?tab=bookings
-- and ?tab=partners. Those views do not exist yet, so the button promised what
-- is not there. Until the admin area exists (its issue brings the links back,
-- pointing at real views), these notifications have no button: everything
-- sales needs to act is in the body (who, how to reach them, what they asked;
-- a booking's time in the business's time zone, which was only in the subject;
-- for leads and partner applications, the reference the visitor was given).
-- The visitor's own emails are unchanged, and so is everything else in the
-- three functions, copied from their latest definitions: submit_sales_inquiry
-- (20261124000500), queue_booking_emails (20261124000600) and
-- confirm_partner_application (20261124000400). A later change to any of them
-- starts from this file.

create or replace function public.submit_sales_inquiry(
  full_name text,
  email text,
  company text,
  team_size text,
  monthly_call_volume text,
  consent boolean,
  job_role text default null,
  tools text[] default '{}',
  message text default null,
  referral_code text default null,
  fax text default null
) returns jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  clean_name text;
  clean_email text;
  clean_company text;
  clean_role text;
  clean_message text;
  clean_tools text[];
  tool text;
  lead public.leads;
  sales text := private.sales_inbox();
  site text := private.site_url();
begin
  perform private.refuse_filled_honeypot(fax);
  clean_name := private.clean_text('full_name', full_name, 'your name', 120);
  clean_email := private.clean_email('email', email);
  clean_company := private.clean_text('company', company, 'your company', 120);
  clean_role := private.clean_text('job_role', job_role, 'your role', 120, false);
  perform private.clean_choice(
    'team_size', team_size, 'your team size', array['1-5', '6-20', '21-50', '51-200', '200+']
  );
  perform private.clean_choice(
    'monthly_call_volume', monthly_call_volume, 'your monthly call volume',
    array['under-500', '500-2000', '2000-10000', '10000+']
  );
  if cardinality(tools) > 12 then
    perform private.reject('tools', 'Please choose at most 12 tools.');
  end if;
  clean_tools := '{}';
  foreach tool in array coalesce(tools, '{}') loop
    tool := private.clean_text('tools', tool, 'each tool name', 40);
    if not tool = any (clean_tools) then
      clean_tools := clean_tools || tool;
    end if;
  end loop;
  clean_message := private.clean_text('message', message, 'your message', 2000, false, true);
  if consent is not true then
    perform private.reject('consent', 'Please agree to be contacted about your inquiry.');
  end if;
  perform private.enforce_submission_limits('sales', clean_email);

  insert into public.leads (
    full_name, email, company, job_role, team_size, monthly_call_volume, tools, message,
    consent_at, partner_id, user_id
  ) values (
    clean_name, clean_email, clean_company, clean_role, team_size, monthly_call_volume,
    clean_tools, clean_message, now(), private.partner_for_code(referral_code), auth.uid()
  )
  returning * into lead;

  -- The visitor's address is not verified: nothing they typed goes back to it.
  perform private.queue_email(
    clean_email,
    'We received your message',
    'sales_inquiry_confirmation',
    'Thanks for getting in touch',
    array[
      'Hello, and thank you for contacting Cervana. A customer success specialist will reply '
        || 'within one business day.',
      'If you would rather talk sooner, pick a 30-minute slot that suits you: we will walk you '
        || 'through Cervana on your own calls.',
      'Your reference: ' || upper(left(lead.id::text, 8)) || '.'
    ],
    'Book a demo now',
    site || '/demo',
    'You are receiving this email because you contacted Cervana sales at ' || site || '.',
    '[]'::jsonb,
    jsonb_build_object('lead_id', lead.id)
  );
  perform private.queue_email(
    sales,
    format('New lead: %s (%s, %s)', clean_company, lead.team_size, clean_name),
    'sales_inquiry_notification',
    'New sales inquiry',
    array[
      format('%s <%s>%s at %s.', clean_name, clean_email,
        coalesce(', ' || clean_role, ''), clean_company),
      format('Team size: %s. Monthly calls: %s. Tools: %s.', lead.team_size,
        lead.monthly_call_volume, coalesce(nullif(array_to_string(clean_tools, ', '), ''), 'none given')),
      'Message: ' || coalesce(clean_message, '(none)'),
      case when lead.partner_id is not null
        then 'Referred by partner ' || (select p.company || ' (' || p.referral_code || ')'
          from public.partners p where p.id = lead.partner_id) || '.'
        else 'No referral.' end,
      'Reference: ' || upper(left(lead.id::text, 8)) || ' (the visitor has it too).'
    ],
    null, -- no button until the admin area shows leads
    null,
    'Sent to the sales inbox for every inquiry on ' || site || '/talk-to-sales.',
    '[]'::jsonb,
    jsonb_build_object('lead_id', lead.id)
  );

  return jsonb_build_object(
    'id', lead.id,
    'reference', upper(left(lead.id::text, 8)),
    'email', lead.email,
    'created_at', lead.created_at
  );
end
$$;

comment on function public.submit_sales_inquiry is
  'Stores a sales inquiry as a lead and queues the visitor''s confirmation and the sales notification.';

revoke execute on function public.submit_sales_inquiry from public;
grant execute on function public.submit_sales_inquiry to anon, authenticated, service_role;

-- As in 20261124000600, without the sales inbox's link.
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
        else 'The visitor''s time zone: ' || booking.time_zone || '.' end,
      'When: ' || private.describe_slot(booking.starts_at, booking.ends_at, business_zone) || '.'
    ],
    null, -- no button until the admin area shows bookings
    null,
    'Sent to the sales inbox for every booking change on ' || site || '/demo.',
    '[]'::jsonb,
    jsonb_build_object('booking_id', booking.id)
  );
end
$$;

-- As in 20261124000400, without the sales inbox's link.
-- Follows a confirmation link. Every answer but the limit's is a 200 with a
-- status (confirmed, used, expired, invalid) and a sentence, so that a wrong
-- token counts against the caller's network like a right one.
create or replace function public.confirm_partner_application(token text) returns jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  settings public.site_settings;
  application public.partner_applications;
  site text := private.site_url();
  first_name text;
begin
  select * into settings from public.site_settings where id;
  if not private.count_hit(
    'partner-confirm:ip:' || private.client_network(), settings.submissions_per_ip_per_hour
  ) then
    raise exception using
      errcode = 'PT429',
      message = 'Too many confirmation links have been opened from your network in the last hour. '
        || 'Please try again later, or email ' || settings.sales_inbox || '.',
      detail = 'rate_limited';
  end if;
  if token is null or token !~ '^[0-9a-f]{64}$' then
    return jsonb_build_object(
      'status', 'invalid',
      'message', 'This confirmation link is not complete. Please open it again from your email.'
    );
  end if;
  select * into application from public.partner_applications a
  where a.confirm_token_hash = private.token_hash(token)
  for update;
  if application.id is null then
    return jsonb_build_object(
      'status', 'invalid',
      'message', 'This confirmation link does not work any more: a newer application from the '
        || 'same address may have replaced it. Please use the link in your latest email, or apply '
        || 'again.'
    );
  end if;
  if application.confirmed_at is not null or application.status <> 'unconfirmed' then
    return jsonb_build_object(
      'status', 'used',
      'message', 'This link has already been used: your application is confirmed, and we will '
        || 'reply within five business days.'
    );
  end if;
  if application.confirm_expires_at <= now() then
    return jsonb_build_object(
      'status', 'expired',
      'message', 'This confirmation link has expired. Please apply again and follow the new link '
        || 'within 3 days.'
    );
  end if;

  begin
    update public.partner_applications a
    set status = 'pending', confirmed_at = now()
    where a.id = application.id
    returning * into application;
  exception when unique_violation then
    -- The address has a confirmed application already (an admin's change).
    return jsonb_build_object(
      'status', 'used',
      'message', 'We already have a confirmed application from this address, and we will reply '
        || 'within five business days.'
    );
  end;

  first_name := split_part(application.full_name, ' ', 1);
  perform private.queue_email(
    application.email,
    'We received your partner application',
    'partner_application_received',
    'Thanks for applying, ' || first_name,
    array[
      format('Hi %s, thanks for applying to the Cervana partner program on behalf of %s.',
        first_name, application.company),
      'Our partnerships team reviews every application by hand and will reply within five '
        || 'business days. Approved partners get a referral link, the partner portal and '
        || 'co-branded demo material.',
      'Your reference: ' || upper(left(application.id::text, 8)) || '.'
    ],
    'Read about the program',
    site || '/partner',
    'You are receiving this email because you applied at ' || site || '/partner.',
    '[]'::jsonb,
    jsonb_build_object('application_id', application.id)
  );
  perform private.queue_email(
    settings.sales_inbox,
    format('Partner application: %s (%s)', application.company, application.partner_type),
    'partner_application_notification',
    'New partner application',
    array[
      format('%s <%s> at %s%s.', application.full_name, application.email, application.company,
        coalesce(' (' || application.website || ')', '')),
      format('Type: %s. Expected referrals a month: %s.', application.partner_type,
        application.expected_referrals),
      'Message: ' || coalesce(application.message, '(none)'),
      'The applicant confirmed their email address.',
      'Reference: ' || upper(left(application.id::text, 8)) || ' (the applicant has it too).'
    ],
    null, -- no button until the admin area shows partner applications
    null,
    'Sent to the sales inbox for every confirmed application on ' || site || '/partner.',
    '[]'::jsonb,
    jsonb_build_object('application_id', application.id)
  );

  return jsonb_build_object(
    'status', 'confirmed',
    'reference', upper(left(application.id::text, 8)),
    'company', application.company,
    'message', 'Thank you: your application is confirmed. We will reply within five business days.'
  );
end
$$;

comment on function public.confirm_partner_application is
  'Confirms the partner application an emailed link names; answers its status with a sentence.';

revoke execute on function public.confirm_partner_application from public;
grant execute on function public.confirm_partner_application to anon, authenticated, service_role;

revoke execute on all functions in schema private from public, anon, authenticated;
