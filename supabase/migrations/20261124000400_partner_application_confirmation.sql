-- Partner applications are confirmed by the owner of their address (security
-- issue 22, finding 7).
--
-- submit_partner_application used to answer "already a partner" or "already
-- applied" (409) before any limit, so anyone could test addresses, and could
-- apply in someone else's name and so block them. Now:
--
-- * the limits come first, after the fields are checked;
-- * every accepted call gets the same answer (200, the same body, the same
--   sentence), whatever is known about the address;
-- * a new application starts 'unconfirmed' and the applicant's email carries a
--   confirmation link (a random token, only its SHA-256 stored, valid 3 days);
--   confirm_partner_application(token) makes it 'pending', which is when the
--   team hears of it and reviews it;
-- * an unconfirmed application never blocks another: a new one from the same
--   address replaces it (its link stops working);
-- * an address that already belongs to a partner, or already has a confirmed
--   application under review, gets an email saying so, and nothing is stored.

alter table public.partner_applications
  drop constraint partner_applications_status_check,
  add constraint partner_applications_status_check
    check (status in ('unconfirmed', 'pending', 'approved', 'rejected')),
  alter column status set default 'unconfirmed',
  add column confirm_token_hash bytea unique,
  add column confirm_expires_at timestamptz,
  add column confirmed_at timestamptz;

comment on column public.partner_applications.status is
  'unconfirmed (the address''s owner has not followed the emailed link yet), pending (confirmed, '
  'to review), approved or rejected.';

-- Applications made before confirmation existed were made by their address's owner as far as
-- anyone knew then; they stay under review.
update public.partner_applications set confirmed_at = created_at where status <> 'unconfirmed';

-- At most one unconfirmed application per address (a new one replaces it).
create unique index partner_applications_one_unconfirmed_idx
  on public.partner_applications (email) where status = 'unconfirmed';

-- An application leaves 'unconfirmed' for review only through its link
-- (confirm_partner_application sets confirmed_at); an admin may still reject
-- or remove an unconfirmed one.
create or replace function private.check_application_confirmed() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if new.status in ('pending', 'approved') and new.confirmed_at is null then
    raise exception using
      errcode = '22023',
      message = 'This application''s email address is not confirmed yet, so it cannot be reviewed.',
      detail = 'status';
  end if;
  return new;
end
$$;

create trigger partner_applications_check_confirmed
  before insert or update of status, confirmed_at on public.partner_applications
  for each row execute function private.check_application_confirmed();

-- Admins read every column but the token's hash (as with demo bookings).
revoke select on public.partner_applications from authenticated;
grant select (id, full_name, email, company, website, partner_type, expected_referrals, message,
  status, decision_reason, reviewed_by, reviewed_at, user_id, referred_by, created_at, updated_at,
  confirmed_at, confirm_expires_at)
  on public.partner_applications to authenticated;

-- The one answer to every accepted application.
create or replace function private.partner_application_answer(email text) returns jsonb
language sql
immutable
set search_path = ''
as $$
  select jsonb_build_object(
    'email', email,
    'message', 'Thanks. We have sent a message to that address; follow it to confirm your '
      || 'application.'
  )
$$;

create or replace function public.submit_partner_application(
  full_name text,
  email text,
  company text,
  partner_type text,
  expected_referrals integer,
  website text default null,
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
  application public.partner_applications;
  site text := private.site_url();
  token text;
  answer jsonb;
begin
  perform private.refuse_filled_honeypot(fax);
  application.full_name := private.clean_text('full_name', full_name, 'your name', 120);
  application.email := private.clean_email('email', email);
  application.company := private.clean_text('company', company, 'your company', 120);
  application.website := private.clean_website(website);
  perform private.clean_choice(
    'partner_type', partner_type, 'the kind of partner you are',
    array['consultancy', 'agency', 'reseller', 'technology', 'other']
  );
  if expected_referrals is null then
    perform private.reject('expected_referrals', 'Please tell us how many teams you might refer each month.');
  end if;
  if expected_referrals < 0 or expected_referrals > 1000 then
    perform private.reject('expected_referrals', 'Please enter a number of referrals between 0 and 1,000.');
  end if;
  application.message := private.clean_text('message', message, 'your message', 2000, false, true);
  -- The limits before anything that depends on the address.
  perform private.enforce_submission_limits('partner', application.email);
  answer := private.partner_application_answer(application.email);

  -- Links that were never followed go a week after they expired.
  delete from public.partner_applications a
  where a.status = 'unconfirmed' and a.confirm_expires_at < now() - interval '7 days';

  if exists (
    select from public.partners p join auth.users u on u.id = p.user_id
    where lower(u.email) = application.email
  ) then
    perform private.queue_email(
      application.email,
      'About your Cervana partner application',
      'partner_application_existing_partner',
      'You are already a Cervana partner',
      array[
        'Someone, perhaps you, asked to join the Cervana partner program with this email '
          || 'address. It already belongs to a partner, so there is nothing to apply for: sign in '
          || 'to open your partner portal.',
        'If this was not you, you can ignore this email; nothing has changed.'
      ],
      'Open the partner portal',
      site || '/partner-portal',
      'You are receiving this email because this address was entered at ' || site || '/partner.'
    );
    return answer;
  end if;

  if exists (
    select from public.partner_applications a
    where a.email = application.email and a.status = 'pending'
  ) then
    perform private.queue_email(
      application.email,
      'About your Cervana partner application',
      'partner_application_already_received',
      'We already have your application',
      array[
        'Someone, perhaps you, applied to the Cervana partner program again with this email '
          || 'address. We already have a confirmed application from it and are reviewing it; '
          || 'we will reply within five business days.',
        'There is nothing more to do. If this was not you, you can ignore this email.'
      ],
      'Read about the program',
      site || '/partner',
      'You are receiving this email because this address was entered at ' || site || '/partner.'
    );
    return answer;
  end if;

  -- A new application replaces one that was never confirmed.
  delete from public.partner_applications a
  where a.email = application.email and a.status = 'unconfirmed';
  token := private.new_token();
  begin
    insert into public.partner_applications (
      full_name, email, company, website, partner_type, expected_referrals, message, user_id,
      referred_by, status, confirm_token_hash, confirm_expires_at
    ) values (
      application.full_name, application.email, application.company, application.website,
      submit_partner_application.partner_type, submit_partner_application.expected_referrals,
      application.message, auth.uid(), private.partner_for_code(referral_code), 'unconfirmed',
      private.token_hash(token), now() + interval '3 days'
    )
    returning * into application;
  exception when unique_violation then
    -- Another application from this address arrived at the same moment; its
    -- email carries the link.
    return answer;
  end;

  perform private.queue_email(
    application.email,
    'Confirm your Cervana partner application',
    'partner_application_confirm',
    'Please confirm your application',
    array[
      -- Nothing the applicant typed: the address is not yet shown to be theirs, and
      -- our name must not carry someone else's text to it.
      'Someone, we hope you, applied to the Cervana partner program with this email address.',
      'If it was you, confirm your application with the link below within 3 days; our '
        || 'partnerships team reviews it once it is confirmed.',
      'If it was not you, ignore this email: nothing happens without the link.'
    ],
    'Confirm my application',
    site || '/partner?confirm=' || token,
    'Anyone with this email''s link can confirm this application, so please do not forward it.',
    '[]'::jsonb,
    jsonb_build_object('application_id', application.id)
  );
  return answer;
end
$$;

comment on function public.submit_partner_application is
  'Takes a partner application: stores it unconfirmed and emails the confirmation link (or tells '
  'the address''s owner they are already a partner or already applied); answers the same always.';

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
      'The applicant confirmed their email address.'
    ],
    'Review applications',
    site || '/admin?tab=partners',
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
